/**
 * Schema validation with the official XSDs shipped in `schemas/` (xmllint compiled to wasm: no
 * system tools). XSD checks alone miss much of the protocol (docs/rules.md: R1, R3, R8, R10, R11…),
 * so they run beside the rule checks, never instead of them.
 */
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { memoryPages, validateXML } from 'xmllint-wasm';
import type { Diagnostic } from '../model/diagnostic.ts';
import { MAX_SCHEMA_BYTES } from './validate.ts';

const SCHEMAS = fileURLToPath(new URL('../../schemas/', import.meta.url));
/** The name xmllint is given the document under, and places its errors by. */
const FILE_NAME = 'sitemap.xml';
const PRELOADED = ['sitemap.xsd', 'siteindex.xsd', 'sitemap-image.xsd', 'sitemap-video.xsd', 'sitemap-news.xsd', 'xhtml1-strict.xsd', 'xml.xsd'];

interface SchemaFile {
  fileName: string;
  contents: string;
}

let schemas: Promise<SchemaFile[]> | undefined;

async function loadSchemas(): Promise<SchemaFile[]> {
  const files = await Promise.all(PRELOADED.map(async (fileName) => ({ fileName, contents: await readFile(SCHEMAS + fileName, 'utf8') })));
  const xml = files.find((f) => f.fileName === 'xml.xsd') as SchemaFile;
  // xhtml1-strict.xsd imports xml.xsd by its URL; the local copy answers for it (the catalog's job with system xmllint).
  return [...files, { fileName: 'http://www.w3.org/2001/xml.xsd', contents: xml.contents }];
}

/** The encoding in an XML declaration (captured: what comes before its value, and the quote), in text or in bytes read one a character. */
const DECLARED_ENCODING = /^((?:\uFEFF|\xEF\xBB\xBF)?<\?xml[ \t\r\n][^>]*?encoding[ \t\r\n]*=[ \t\r\n]*)(["'])[^"']*\2/;

/** The refusal of a document larger than MAX_SCHEMA_BYTES: `bytes` its size, or at least that (`atLeast`). */
export function schemaRefusal(bytes: number, atLeast: boolean): Diagnostic {
  return { rule: 'XSD', level: 'warn', message: `not checked against the schema: the file is ${atLeast ? 'at least ' : ''}${bytes} bytes, and --xsd checks files of up to ${MAX_SCHEMA_BYTES} bytes` };
}

/** The bytes with the declared encoding made UTF-8: a copy only when another is declared. */
function declaredUtf8(bytes: Uint8Array): Uint8Array {
  const head = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.length, 1024)).toString('latin1');
  const match = DECLARED_ENCODING.exec(head);
  if (match === null || /^["']utf-8["']$/i.test(match[0].slice((match[1] as string).length))) return bytes;
  const declaration = Buffer.from(`${match[1]}${match[2]}UTF-8${match[2]}`, 'latin1');
  return Buffer.concat([declaration, bytes.subarray(match[0].length)]);
}

/**
 * Validates a `<urlset>` (with the four extensions) or a `<sitemapindex>`, given as decoded text or
 * as that text in UTF-8; each schema error becomes an XSD diagnostic. xmllint reads it streaming
 * (`--stream`): its memory does not grow with the document's elements.
 */
export async function schemaDiagnostics(decoded: string | Uint8Array, kind: 'urlset' | 'sitemapindex'): Promise<Diagnostic[]> {
  // xmllint gets the text as UTF-8, so a declared UTF-16 or Latin-1 would have it misread every byte; the encoding is the R1 check's business.
  const xml = typeof decoded === 'string' ? decoded.replace(DECLARED_ENCODING, '$1$2UTF-8$2') : declaredUtf8(decoded);
  if ((typeof xml === 'string' ? Buffer.byteLength(xml) : xml.length) > MAX_SCHEMA_BYTES) return [schemaRefusal(typeof xml === 'string' ? Buffer.byteLength(xml) : xml.length, false)];
  schemas ??= loadSchemas();
  const preload = await schemas;
  const entry = kind === 'sitemapindex' ? 'siteindex-all.local.xsd' : 'sitemap-all.local.xsd';
  const options = {
    xml: [{ fileName: FILE_NAME, contents: xml }],
    schema: [{ fileName: entry, contents: await readFile(SCHEMAS + entry, 'utf8') }],
    preload,
    maxMemoryPages: memoryPages.GiB,
  };
  // xmllint's stream mode says only "failed to parse" (exit 1, which xmllint-wasm throws) of a document that is not well-formed: then it
  // is read again the usual way, for the parser's error and line; its tree ends at that error.
  const result = await validateXML({ ...options, stream: true }).catch(() => validateXML(options));
  // xmllint follows a parser error with the line it is on and a caret, which come out as errors of their own: only those placed in the file count.
  const placed = result.errors.filter((error) => error.loc !== null && error.loc.fileName === FILE_NAME && Number.isFinite(error.loc.lineNumber));
  return (placed.length > 0 ? placed : result.errors.slice(0, 1)).map((error) => {
    const diagnostic: Diagnostic = { rule: 'XSD', level: 'error', message: error.message.trim() };
    if (error.loc !== null && Number.isFinite(error.loc.lineNumber)) diagnostic.line = error.loc.lineNumber;
    return diagnostic;
  });
}
