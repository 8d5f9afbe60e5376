/** Human-readable output of `build`: what was published where, and the findings grouped by rule. */
import type { Diagnostic } from '../model/diagnostic.ts';
import { type FindingCounts, type FindingKey, FindingTally, splitFindingKey } from '../model/findings.ts';
import type { BuildSummary, WrittenFile } from '../model/pipeline.ts';

const FILES_SHOWN = 6;
const LINES_SHOWN = 5;
/** Kinds of finding shown under one rule and level. */
const KINDS_SHOWN = 5;
/** Under the message column of a group's first line. */
const INDENT = ' '.repeat(23);

export function formatSummary(summary: BuildSummary, outDir: string): string {
  const n = (x: number): string => x.toLocaleString('en-US');
  // A file that held its bytes already was left as it was: a run that changed nothing says so.
  const kept = summary.files.filter((file) => file.unchanged === true).length;
  const as = kept === 0 ? '' : kept === summary.files.length ? ` (${kept === 1 ? 'it was' : 'all were'} there already, unchanged)` : ` (${n(summary.files.length - kept)} written, ${n(kept)} unchanged)`;
  let text = `Published ${plural(summary.files.length, 'file')} in ${outDir}${as}: ${plural(summary.urls, 'URL')} from ${plural(summary.records, 'record')}`;
  text += summary.dropped > 0 ? ` (${n(summary.dropped)} dropped${summary.duplicates > 0 ? `, ${n(summary.duplicates)} of them duplicates` : ''})\n` : '\n';
  const files = summary.files;
  const shown = files.length <= FILES_SHOWN ? files : [...files.slice(0, FILES_SHOWN - 2), ...files.slice(-2)];
  const width = Math.max(...shown.map((f) => f.name.length));
  for (const [i, file] of shown.entries()) {
    if (files.length > FILES_SHOWN && i === FILES_SHOWN - 2) text += `  … ${files.length - FILES_SHOWN + 2} more\n`;
    text += `  ${file.name.padEnd(width)}  ${describeFile(file)}${file.unchanged === true ? '  unchanged' : ''}\n`;
  }
  const state = summary.state;
  if (state !== undefined) {
    text += `State run ${n(state.run)}: ${n(state.added)} added, ${n(state.changed)} changed, ${n(state.removed)} removed, ${n(state.unchanged)} unchanged; ${plural(state.filesWritten, 'sitemap file')} written, ${n(state.filesKept)} kept as published\n`;
    if (state.tookOver !== undefined) text += `The state was left locked by a run that no longer runs (${state.tookOver}); taken over\n`;
    if (state.recovered !== undefined) text += `An interrupted earlier run was ${state.recovered === 'kept' ? 'found published and kept' : 'found unpublished and undone'} first\n`;
  }
  const entry = files[files.length - 1];
  if (entry !== undefined) text += `Entry point: ${entry.url}\nTell crawlers with this robots.txt line: Sitemap: ${entry.url}\n`;
  return text + formatFindings(summary);
}

function describeFile(file: WrittenFile): string {
  const what = file.kind === 'index' ? `index of ${plural(file.entries, 'sitemap')}` : plural(file.entries, 'URL');
  const size = file.compressedBytes === undefined ? formatBytes(file.bytes) : `${formatBytes(file.bytes)}, ${formatBytes(file.compressedBytes)} gzipped`;
  return `${what.padEnd(24)} ${size}`;
}

function plural(count: number, noun: string): string {
  return `${count.toLocaleString('en-US')} ${noun}${count === 1 ? '' : 's'}`;
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}

/** `file:line:column`, as much of it as the finding has (a finding about the whole file has no line). */
function place(d: Diagnostic): string {
  const file = d.file ?? 'record';
  if (d.line === undefined) return file;
  return d.column === undefined ? `${file}:${d.line}` : `${file}:${d.line}:${d.column}`;
}

/** What varies from one finding of a kind to the next (quoted text, excerpts, tag names, URLs, characters, numbers), left out: the kind's key. */
function kindOf(message: string): string {
  return message
    .replace(/"[^"]*"/g, '""')
    // Single-quoted values vary (xmllint's XSD messages); the element or attribute named before them does not.
    .replace(/((?:Element|attribute) )?'[^']*'/g, (quoted, named: string | undefined) => (named === undefined ? "''" : quoted))
    .replace(/\([^()]*\)/g, '()')
    .replace(/<[^<>]*>/g, '<>')
    .replace(/https?:\/\/\S+/g, 'URL')
    .replace(/U\+[0-9A-Fa-f]+/g, 'U+')
    .replace(/\btag: \S+/g, 'tag:')
    .replace(/\d+/g, '0');
}

/** The parts of a message that may differ between findings of one kind (kindOf). */
const VARYING = /"[^"]*"|'[^']*'|\([^()]*\)|<[^<>]*>|https?:\/\/\S+|U\+[0-9A-Fa-f]+|\btag: [^\s.]+|\d+/g;

/** The kind's message, with what differs from one of its findings to the next shown as "…": the first one's value would be wrong for the others' places. */
function shownMessage(same: readonly Diagnostic[]): string {
  const first = (same[0] as Diagnostic).message;
  if (same.every((d) => d.message === first)) return first;
  const parts = same.map((d) => d.message.match(VARYING) ?? []);
  let k = 0;
  return first.replace(VARYING, (part) => {
    const i = k++;
    if (parts.every((p) => p[i] === part)) return part;
    const open = part.startsWith('tag: ') ? 'tag: ' : part.startsWith('</') ? '</' : '"\'(<'.includes(part.charAt(0)) ? part.charAt(0) : '';
    return `${open}…${open === '' || open === 'tag: ' ? '' : part.charAt(part.length - 1)}`;
  });
}

/** Findings grouped by rule and level, most severe first; in a group, each kind of finding with its first few places. */
export function formatFindings(summary: { counts: FindingCounts; diagnostics: readonly Diagnostic[] }): string {
  const tally = new FindingTally(summary.counts);
  const total = tally.total;
  if (total === 0) return '';
  const groups = new Map<FindingKey, Diagnostic[]>();
  for (const d of summary.diagnostics) {
    const key: FindingKey = `${d.rule}:${d.level}`;
    const group = groups.get(key);
    if (group === undefined) groups.set(key, [d]);
    else group.push(d);
  }
  const errors = tally.errors;
  let text = `\n${total.toLocaleString('en-US')} finding${total === 1 ? '' : 's'} (${errors.toLocaleString('en-US')} error${errors === 1 ? '' : 's'}), by rule:\n`;
  for (const key of tally.keys()) {
    const [rule, level] = splitFindingKey(key);
    const group = groups.get(key) ?? [];
    const count = summary.counts[key] ?? 0;
    const head = `  ${rule.padEnd(5)} ${level.padEnd(5)} ×${count.toLocaleString('en-US').padEnd(7)} `;
    // One rule covers faults of several kinds (R2: every way XML can be broken): each kind with its own message and places.
    const kinds = new Map<string, Diagnostic[]>();
    for (const d of group) {
      const kind = kindOf(d.message);
      const same = kinds.get(kind);
      if (same === undefined) kinds.set(kind, [d]);
      else same.push(d);
    }
    if (kinds.size === 0) text += `${head}\n`;
    let listed = 0;
    // The last kind always shows: a notice that reading stopped comes last.
    const last = group.length === 0 ? undefined : kinds.get(kindOf((group[group.length - 1] as Diagnostic).message));
    const all = [...kinds.values()];
    const first = all.slice(0, KINDS_SHOWN);
    const shownKinds = last === undefined || first.includes(last) ? first : [...first.slice(0, KINDS_SHOWN - 1), last];
    // Findings of the rule counted but not in the list (past the cap on findings listed): no kind can be told for them.
    const notListed = count - group.length;
    for (const same of shownKinds) {
      // Each kind's count is of those listed: with the rest, they add up to the rule's count.
      const tally = (kinds.size > 1 || notListed > 0) && same.length > 1 ? `  (×${same.length.toLocaleString('en-US')})` : '';
      text += `${listed === 0 ? head : INDENT}${shownMessage(same)}${tally}\n`;
      const places = same.slice(0, LINES_SHOWN).map(place);
      text += `${INDENT}at ${places.join(', ')}${same.length > places.length ? ', …' : ''}\n`;
      listed += same.length;
    }
    const hidden = group.length - listed;
    const otherKinds = kinds.size - shownKinds.length;
    if (hidden > 0) text += `${INDENT}… and ${hidden.toLocaleString('en-US')} more of ${otherKinds} other kind${otherKinds === 1 ? '' : 's'}\n`;
    if (notListed > 0) text += `${INDENT}… and ${notListed.toLocaleString('en-US')} more not listed\n`;
  }
  return text;
}

/** A URL on a line of its own: a line break inside it (XML allows one in `<loc>`) is printed percent-encoded, so one URL stays one line. */
export function urlLine(url: string): string {
  return url.replace(/[\r\n\u0085\u2028\u2029]/g, (c) => encodeURIComponent(c));
}
