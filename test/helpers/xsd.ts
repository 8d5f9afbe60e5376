/** Schema validation of generated files with the official XSDs shipped in schemas/ (the library's own checker). */
import { schemaDiagnostics } from '../../src/validate/xsd.ts';

/** Validates a `<urlset>` (with any extensions) or a `<sitemapindex>`; returns xmllint's messages. */
export async function schemaErrors(xml: string): Promise<string[]> {
  const isIndex = /<sitemapindex[\s>]/.test(xml.slice(0, 2000));
  return (await schemaDiagnostics(xml, isIndex ? 'sitemapindex' : 'urlset')).map((d) => d.message);
}
