/**
 * `npm run bench:read` runs this first: records of one shape must share a hidden class (V8 map) whichever
 * way the reader made them, the usual open/text/close events or the whole-entry path, so reading their
 * fields stays monomorphic; if they do not, the reader rows would measure a slower reader, so it exits non-zero.
 */
import { setFlagsFromString } from 'node:v8';
import type * as sitemapkit from '../src/index.ts';
import { PACKAGE } from './records.ts';

// The package as it ships (dist/), as the reader rows run it.
const { parseSitemap } = (await import(PACKAGE)) as typeof sitemapkit;

setFlagsFromString('--allow-natives-syntax');
const haveSameMap = new Function('a', 'b', 'return %HaveSameMap(a, b)') as (a: object, b: object) => boolean;

const fields = (n: number): string => `<lastmod>2026-11-0${n}</lastmod><changefreq>daily</changefreq><priority>0.${n}</priority>`;
// A CDATA section sends the first entry through the usual events; the others, of the same shape, are taken whole.
const urlset =
  `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n<url><loc><![CDATA[https://a.example/1]]></loc>${fields(1)}</url>\n` +
  [2, 3, 4, 5].map((n) => `<url><loc>https://a.example/${n}</loc>${fields(n)}</url>\n`).join('') +
  `</urlset>\n`;
const index =
  `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n<sitemap><loc><![CDATA[https://a.example/1.xml]]></loc><lastmod>2026-11-01</lastmod></sitemap>\n` +
  [2, 3, 4].map((n) => `<sitemap><loc>https://a.example/${n}.xml</loc><lastmod>2026-11-0${n}</lastmod></sitemap>\n`).join('') +
  `</sitemapindex>\n`;

const failures: string[] = [];
for (const [name, text, count] of [['urlset', urlset, 5], ['sitemap index', index, 4]] as const) {
  const parsed = parseSitemap(new TextEncoder().encode(text));
  const entries: object[] = [];
  for await (const entry of parsed) entries.push(entry);
  // A finding or a lost entry would mean the paths were not the ones meant: no verdict on the maps then.
  if (parsed.diagnostics.length > 0 || entries.length !== count) {
    failures.push(`${name}: expected ${count} entries and no finding, got ${entries.length} and ${JSON.stringify(parsed.diagnostics)}`);
    continue;
  }
  const [first, ...rest] = entries as [object, ...object[]];
  for (const other of rest) if (!haveSameMap(first, other)) failures.push(`${name}: ${JSON.stringify(first)} and ${JSON.stringify(other)} have different maps`);
}
if (failures.length > 0) {
  console.error(`Hidden-class check FAILED: records of one shape read by the two paths must share a map\n  ${failures.join('\n  ')}`);
  process.exitCode = 1;
} else {
  console.log('Hidden-class check: records read by the usual and the whole-entry paths share a map (urlset and sitemap index)');
}
