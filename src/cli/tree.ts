/** The human output of `discover`: the sitemaps found as a tree, each file with its status, size and first findings, then the totals. */
import type { DiscoveredSitemap, DiscoveryReport } from '../discover/discover.ts';
import type { Diagnostic } from '../model/diagnostic.ts';
import { formatBytes } from './report.ts';

/** Findings printed under each file in the tree; `--json` has them all. */
const FINDINGS_SHOWN = 3;

export function formatTree(report: DiscoveryReport): string {
  const { robots, site } = report;
  const short = (url: string): string => (url.startsWith(site) ? `/${url.slice(site.length)}` : url);
  let text = `${site}\n`;
  text += `robots.txt: ${robotsState(robots)}\n`;
  text += findingLines(robots.diagnostics, 0, '  ');

  // Roots at the margin, children drawn below their index; a file's findings sit under its line.
  const walk = (node: DiscoveredSitemap, prefix: string, connector: string): void => {
    text += `${prefix}${connector}${describe(node, short)}\n`;
    const below = prefix + (connector === '' ? '' : connector === '└─ ' ? '   ' : '│  ');
    text += findingLines(shownFindings(node), node.diagnosticsOmitted ?? 0, `${below}${node.sitemaps.length > 0 ? '│  ' : '   '}`);
    for (const [i, child] of node.sitemaps.entries()) walk(child, below, i === node.sitemaps.length - 1 ? '└─ ' : '├─ ');
  };
  for (const root of report.sitemaps) walk(root, '', '');

  const { sitemaps, urls, failed, invalid } = report.totals;
  if (sitemaps === 0 && failed === 0) return `${text}No sitemaps found in robots.txt or at the usual paths.\n`;
  text += `Found ${plural(sitemaps, 'sitemap')} listing ${plural(urls, 'URL')}`;
  if (invalid > 0) text += `; ${plural(invalid, 'sitemap')} ${invalid === 1 ? 'has' : 'have'} errors`;
  return `${text}${failed > 0 ? `; ${plural(failed, 'file')} could not be read` : ''}.\n`;
}

function robotsState(robots: DiscoveryReport['robots']): string {
  const lines = plural(robots.sitemaps.length, 'Sitemap: line');
  // Cut off part way: the lines read before still count.
  if (robots.error !== undefined) return robots.sitemaps.length > 0 ? `${lines}, then error: ${robots.error}` : robots.error;
  if (robots.status === undefined) return 'not read';
  return robots.status === 200 ? lines : `HTTP ${robots.status}, none`;
}

function describe(node: DiscoveredSitemap, short: (url: string) => string): string {
  const name = node.finalUrl === undefined ? short(node.url) : `${short(node.url)} → ${short(node.finalUrl)}`;
  const parts = [name, node.status === undefined ? '---' : String(node.status)];
  // A file cut off part way shows what was read of it, then why it stopped.
  if (node.error === undefined || node.bytes > 0) {
    // Children not followed (a limit, a loop, a repeat) are counted too: the tree shows those followed below.
    const followed = node.sitemaps.length < node.listed ? `, ${node.sitemaps.length} followed` : '';
    const listed = node.kind === 'sitemapindex' || node.kind === 'robots' ? `${plural(node.listed, 'sitemap')}${followed}` : plural(node.urls, 'URL');
    parts.push(`${node.kind}, ${listed}`, `${formatBytes(node.bytes)}${node.compressed ? ' gzip' : ''}`);
  }
  if (node.error !== undefined) parts.push(`${node.bytes > 0 ? 'then ' : ''}error: ${node.error}`);
  const findings = shownFindings(node).length + (node.diagnosticsOmitted ?? 0);
  if (findings > 0) parts.push(plural(findings, 'finding'));
  if (node.via !== 'index') parts.push(`(${node.via})`);
  return parts.join('  ');
}

/** The findings, less the one that repeats the file's `error`, already on its line. */
function shownFindings(node: DiscoveredSitemap): Diagnostic[] {
  return node.diagnostics.filter((d) => !(d.rule === 'FETCH' && d.message === node.error));
}

function findingLines(diagnostics: readonly Diagnostic[], omitted: number, indent: string): string {
  let text = '';
  for (const d of diagnostics.slice(0, FINDINGS_SHOWN)) text += `${indent}${d.rule} ${d.level}: ${d.message}${place(d)}\n`;
  const more = diagnostics.length - FINDINGS_SHOWN + omitted;
  if (more > 0) text += `${indent}… ${plural(more, 'more finding')} (--json lists them)\n`;
  return text;
}

function place(d: Diagnostic): string {
  if (d.line === undefined) return '';
  return d.column === undefined ? ` (line ${d.line})` : ` (line ${d.line}, column ${d.column})`;
}

function plural(count: number, noun: string): string {
  return `${count.toLocaleString('en-US')} ${noun}${count === 1 ? '' : 's'}`;
}
