/** Schema validation of generated files with the official XSDs shipped in schemas/ (xmllint compiled to wasm). */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { memoryPages, validateXML } from 'xmllint-wasm';

const SCHEMAS = fileURLToPath(new URL('../../schemas/', import.meta.url));
const schema = (name: string, fileName = name) => ({ fileName, contents: readFileSync(SCHEMAS + name, 'utf8') });
const PRELOAD = [
  ...['sitemap.xsd', 'siteindex.xsd', 'sitemap-image.xsd', 'sitemap-video.xsd', 'sitemap-news.xsd', 'xhtml1-strict.xsd', 'xml.xsd'].map((n) => schema(n)),
  // xhtml1-strict.xsd imports xml.xsd by its URL; the local copy answers for it (the catalog's job with system xmllint).
  schema('xml.xsd', 'http://www.w3.org/2001/xml.xsd'),
];

/** Validates a `<urlset>` (with any extensions) or a `<sitemapindex>`; returns xmllint's error lines. */
export async function schemaErrors(xml: string): Promise<string[]> {
  const isIndex = /<sitemapindex[\s>]/.test(xml.slice(0, 2000));
  const result = await validateXML({
    xml: [{ fileName: 'document.xml', contents: xml }],
    schema: [schema(isIndex ? 'siteindex.xsd' : 'sitemap-all.local.xsd')],
    preload: PRELOAD,
    maxMemoryPages: memoryPages.GiB,
  });
  return result.errors.map((e) => e.rawMessage);
}
