/**
 * Differential test of the reader's XML tokenizer against a conforming parser (saxes alone).
 *
 * Every XML fixture, a few files the writer produces, and thousands of seeded random mutations of
 * them go through `parseSitemap` (whole and at random chunk cuts) and through saxes driving the same
 * assembler (test/helpers/reference-parser.ts). Where saxes accepts the input, both must give the
 * same entries and the reader no R2 error; where saxes rejects it, the reader must report R2.
 *
 * A failure names the base document and the mutation's seed: `mutate(base, seed)` rebuilds the input.
 */
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { before, describe, it } from 'node:test';
import { buildSitemaps, type SitemapRecordInput } from '../../../src/index.ts';
import { isAscii } from 'node:buffer';
import { sniffEncoding } from '../../../src/read/decode.ts';
import { MAX_DEPTH } from '../../../src/read/xml/events.ts';
import { FULL_RECORD } from '../../helpers/full-record.ts';
import { memorySink } from '../../helpers/memory-sink.ts';
import { byteByByte, parseChunks, random, randomSplits, readFixture, type ParseResult } from '../../helpers/parse.ts';
import { referenceParse, type ReferenceResult } from '../../helpers/reference-parser.ts';

/** Fixed, so every run tries the same inputs; DIFFERENTIAL_SEED and DIFFERENTIAL_MUTATIONS make a longer, different soak run. */
const BASE_SEED = Number(process.env['DIFFERENTIAL_SEED'] ?? 0x5173_3a9d);
const BASE = 'https://www.example.com/sitemap.xml';
/** Mutations per base document of up to ~2 KB; larger ones get proportionally fewer. */
const MUTATIONS = Number(process.env['DIFFERENTIAL_MUTATIONS'] ?? 240);

/** XML-significant pieces to insert: markup delimiters, references, names, namespaces, line ends, characters XML forbids. */
const SNIPPETS = [
  '<', '>', '&', ';', '&amp;', '&lt;', '&#38;', '&#0;', '&#1;', '&#9;', '&#13;', '&#xD;', '&#x1F600;', '&#X41;', '&nbsp;', '&#xFFFE;',
  '"', "'", '=', ' ', ':', 'x:', '/', '/>', '?>', '--', ']]>', ']]', '[',
  ' a="1"', " a='&amp;'", ' a="&#13;&#10;"', ' x:a="1"', ' xml:lang="en"', ' xmlns:x="urn:x"', ' xmlns=""', ' xmlns:x=""', ' xmlns:="urn:x"',
  ' xmlns:xml="http://www.w3.org/XML/1998/namespace"', ' xmlns:xmlns="urn:x"', ' xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"',
  ' xmlns:image="http://www.google.com/schemas/sitemap-image/1.1"', ' rel="alternate"', ' xmlns:xhtml="http://www.w3.org/1999/xhtml"',
  '<url>', '</url>', '<loc>', '</loc>', '<loc>https://a.example/x</loc>', '<url><loc>https://a.example/y</loc></url>', '<a/>', '</a>', '<x:y/>', '<image:image>',
  '<news:news><news:title>x</news:title></news:news>', '<news:publication>x</news:publication>', '<video:video><video:title>x</video:title></video:video>',
  '<![CDATA[', '<![CDATA[x]]>', '<!--', '-->', '<!---->', '<!-- - -->', '<?pi x?>', '<?xml-stylesheet href="a"?>', '<?xml version="1.0"?>',
  '<?xml version="1.1"?>', '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>', '<?XML version="1.0"?>', '<!DOCTYPE x>', '<!DOCTYPE urlset [<!ENTITY e "x">]>', '&e;',
  '\r', '\r\n', '\n', '\t', '\u0001', '\u0000', '\u007F', '\u0085', '\u2028', '\u00A0', 'é', '😀', '\uFEFF', '\uFFFE', '\uFFFF', '\uD800', '\uDC00',
];

type Rng = () => number;
const int = (rng: Rng, n: number): number => Math.floor(rng() * n);

/** A random range [start, end) of at most `max` characters. */
function range(rng: Rng, length: number, max: number): [number, number] {
  const start = int(rng, length + 1);
  return [start, Math.min(length, start + 1 + int(rng, max))];
}

/** One to three random edits of `text`, reproducible from `seed`; `ops` describes them. */
export function mutate(text: string, seed: number): { text: string; ops: string[] } {
  const rng = random(seed);
  const ops: string[] = [];
  let s = text;
  for (let n = rng() < 0.5 ? 1 : 2 + int(rng, 2); n > 0; n--) {
    const op = int(rng, 10);
    if (op >= 8) {
      // Between two pieces of markup, where a snippet has the best chance of keeping the file well-formed.
      const boundaries: number[] = [];
      for (let i = s.indexOf('>'); i !== -1; i = s.indexOf('>', i + 1)) boundaries.push(i + 1);
      const at = boundaries.length === 0 ? 0 : (boundaries[int(rng, boundaries.length)] as number);
      const snippet = SNIPPETS[int(rng, SNIPPETS.length)] as string;
      ops.push(`insert ${JSON.stringify(snippet)} at ${at}`);
      s = s.slice(0, at) + snippet + s.slice(at);
    } else if (op === 0) {
      const at = int(rng, s.length);
      ops.push(`delete char ${at}`);
      s = s.slice(0, at) + s.slice(at + 1);
    } else if (op === 1) {
      const [a, b] = range(rng, s.length, 24);
      ops.push(`delete ${a}..${b}`);
      s = s.slice(0, a) + s.slice(b);
    } else if (op === 2 || op === 3) {
      const at = int(rng, s.length + 1);
      const snippet = SNIPPETS[int(rng, SNIPPETS.length)] as string;
      ops.push(`insert ${JSON.stringify(snippet)} at ${at}`);
      s = s.slice(0, at) + snippet + s.slice(at);
    } else if (op === 4) {
      const at = int(rng, s.length);
      const snippet = SNIPPETS[int(rng, SNIPPETS.length)] as string;
      ops.push(`replace char ${at} with ${JSON.stringify(snippet)}`);
      s = s.slice(0, at) + snippet + s.slice(at + 1);
    } else if (op === 5) {
      const [a, b] = range(rng, s.length, 64);
      const at = int(rng, s.length + 1);
      ops.push(`copy ${a}..${b} to ${at}`);
      s = s.slice(0, at) + s.slice(a, b) + s.slice(at);
    } else if (op === 6) {
      const [a, b] = range(rng, s.length, 48);
      const [c, d] = range(rng, s.length, 48);
      if (b <= c) {
        ops.push(`swap ${a}..${b} with ${c}..${d}`);
        s = s.slice(0, a) + s.slice(c, d) + s.slice(b, c) + s.slice(a, b) + s.slice(d);
      } else if (d <= a) {
        ops.push(`swap ${c}..${d} with ${a}..${b}`);
        s = s.slice(0, c) + s.slice(a, b) + s.slice(d, a) + s.slice(c, d) + s.slice(b);
      }
    } else {
      const at = int(rng, s.length + 1);
      ops.push(`truncate at ${at}`);
      s = s.slice(0, at);
    }
  }
  return { text: s, ops };
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/**
 * The bytes the reader gets and the text saxes gets, or undefined when the reader would not read
 * them as the same UTF-8 XML (no `<` first: a text or robots file; another encoding declared).
 */
function prepare(text: string): { bytes: Uint8Array; xml: string } | undefined {
  const bytes = encoder.encode(text);
  // What the reader's UTF-8 decoder makes of the bytes: lone surrogates became U+FFFD, a leading BOM is gone.
  const xml = decoder.decode(bytes);
  if (!xml.trimStart().startsWith('<')) return undefined;
  let foreign = false;
  if (sniffEncoding(bytes.subarray(0, 1024), () => (foreign = true), isAscii).encoding !== 'utf-8' || foreign) return undefined;
  return { bytes, xml };
}

type Finding = ParseResult['diagnostics'][number];

const isR2Error = (d: Finding): boolean => d.rule === 'R2' && d.level === 'error';
/** The reader's one R2 error on a well-formed file: it does not read below a fixed depth. */
const isDepthCap = (d: Finding): boolean => /nested deeper than/.test(d.message);

/** The reader's recovery from a bare `&` (R2): it reads the `&` literally. */
const isBareAmpersand = (d: Finding): boolean => isR2Error(d) && /starts no entity reference/.test(d.message);

/** A predefined entity or a reference to a character XML allows: what a `&` may start. */
function isReference(name: string): boolean {
  if (['amp', 'lt', 'gt', 'quot', 'apos'].includes(name)) return true;
  const match = /^#(?:([0-9]+)|x([0-9A-Fa-f]+))$/.exec(name);
  if (match === null) return false;
  const code = match[1] === undefined ? Number.parseInt(match[2] as string, 16) : Number.parseInt(match[1], 10);
  return code === 0x9 || code === 0xa || code === 0xd || (code >= 0x20 && code <= 0xd7ff) || (code >= 0xe000 && code <= 0xfffd) || (code >= 0x10000 && code <= 0x10ffff);
}

/**
 * `xml` with every `&` that starts no reference written `&amp;`: the file the reader's recovery reads.
 * Undefined when an `&` could be in a comment, CDATA section, PI or DOCTYPE, where it means itself.
 */
function escapeBareAmpersands(xml: string): string | undefined {
  if (/<!|<\?/.test(xml.replace(/^<\?xml [^>]*>/, ''))) return undefined;
  return xml.replace(/&/g, (_, at: number) => {
    const semicolon = xml.indexOf(';', at + 1);
    return semicolon !== -1 && isReference(xml.slice(at + 1, semicolon)) ? '&' : '&amp;';
  });
}

/** Where `subject` parts from `reference` (taken as well-formed), leaving out the R2 errors `allowed` explains. */
function disagreements(way: string, subject: ParseResult, reference: ReferenceResult, allowed: (d: Finding) => boolean): string[] {
  const problems: string[] = [];
  try {
    assert.deepEqual(subject.entries, reference.entries);
  } catch (error) {
    problems.push(`${way}: entries differ from saxes':\n${(error as Error).message}`);
  }
  // The same events make the same findings (positions aside: the reference has saxes' own; R1 is about bytes, which it never sees).
  const findings = (diagnostics: readonly Finding[]): string[] =>
    diagnostics.filter((d) => !allowed(d) && d.rule !== 'R1').map((d) => `${d.rule} ${d.level}: ${d.message}`);
  try {
    assert.equal(subject.kind, reference.kind);
    assert.deepEqual(findings(subject.diagnostics), findings(reference.diagnostics));
  } catch (error) {
    problems.push(`${way}: kind or findings differ from those on saxes' events:\n${(error as Error).message}`);
  }
  return problems;
}

/** Inputs checked against saxes with their bare `&`s escaped. */
let bareAmpersandInputs = 0;

/** The differences between reader and reference on one input; empty when they agree. */
async function compare(text: string, seed: number, exhaustive = false): Promise<{ accepted: boolean; problems: string[] } | undefined> {
  const prepared = prepare(text);
  if (prepared === undefined) return undefined;
  const { bytes, xml } = prepared;
  const reference = referenceParse(xml, BASE);
  let repaired: ReferenceResult | undefined;
  const problems: string[] = [];
  const ways: [string, Iterable<Uint8Array>][] = [
    ['whole', [bytes]],
    [`randomSplits(${seed})`, randomSplits(bytes, seed)],
    [`randomSplits(${seed + 1})`, randomSplits(bytes, seed + 1)],
  ];
  if (exhaustive) ways.push(['byte by byte', byteByByte(bytes)]);
  for (const [way, chunks] of ways) {
    const subject = await parseChunks(chunks, { base: BASE });
    const r2 = subject.diagnostics.filter(isR2Error);
    if (reference.accepted) {
      problems.push(...disagreements(way, subject, reference, isDepthCap));
      const unexpected = r2.filter((d) => !isDepthCap(d));
      if (unexpected.length > 0) problems.push(`${way}: R2 error on an input saxes accepts: ${unexpected.map((d) => d.message).join(' | ')}`);
    } else if (r2.length === 0) {
      problems.push(`${way}: no R2 error, but saxes rejects the input: ${reference.errors.slice(0, 3).join(' | ')}`);
    } else if (r2.every((d) => isBareAmpersand(d) || isDepthCap(d))) {
      // Its only complaint is a bare `&`: then that must be all that is wrong, and the entries those of the file with `&amp;` there.
      // (Not when the reader stopped there: it does at its first R2 once the root turned out not to be a sitemap.)
      if (r2.some((d) => /not read further/.test(d.message))) continue;
      const escaped = escapeBareAmpersands(xml);
      if (escaped === undefined) continue;
      if (repaired === undefined) {
        repaired = referenceParse(escaped, BASE);
        bareAmpersandInputs++;
      }
      if (!repaired.accepted) {
        problems.push(`${way}: only a bare & reported, but saxes rejects the input with it escaped too: ${repaired.errors.slice(0, 3).join(' | ')}`);
      } else {
        problems.push(...disagreements(`${way} (bare & read literally)`, subject, repaired, (d) => isBareAmpersand(d) || isDepthCap(d)));
      }
    }
  }
  return { accepted: reference.accepted, problems };
}

function describeInput(text: string): string {
  return text.length <= 1500 ? JSON.stringify(text) : `${JSON.stringify(text.slice(0, 1500))}… (${text.length} chars)`;
}

/** Seeds from the name, so adding a document changes no other document's mutations. */
function seedOf(name: string): number {
  let h = BASE_SEED;
  for (let i = 0; i < name.length; i++) h = Math.imul(h ^ name.charCodeAt(i), 0x0100_0193) >>> 0;
  return h;
}

/** The base documents: every XML fixture, decoded as the reader decodes it and re-declared UTF-8, and the writer's output. */
const documents = new Map<string, string>();

before(async () => {
  for (const name of readdirSync(new URL('../../fixtures/read/', import.meta.url)).sort()) {
    if (!name.endsWith('.xml')) continue;
    const bytes = readFixture(name);
    const { decoder: fixtureDecoder } = sniffEncoding(bytes.subarray(0, 1024), () => undefined, isAscii);
    const text = fixtureDecoder.decode(bytes).replace(/(<\?xml[^>]*encoding=)(["'])[^"']*\2/, '$1"UTF-8"');
    // Text before the markup (text-before-xml.xml) is no XML document to saxes; the reader's recovery from it is tested on its own.
    if (!text.trimStart().startsWith('<')) continue;
    documents.set(name, text);
  }
  const sink = memorySink();
  const records: SitemapRecordInput[] = [FULL_RECORD, { loc: 'https://example.com/plain', lastmod: '2026-11-20', priority: 0.5 }, { loc: 'https://example.com/q?a=1&b=<2>' }];
  await buildSitemaps(
    records.map((record, i) => ({ line: i + 1, record })),
    { baseUrl: 'https://example.com/', maxUrlsPerFile: 2, stylesheet: 'https://example.com/style.xsl', now: () => Date.parse('2026-11-22T12:00:00Z') },
    sink,
  );
  for (const [name, text] of sink.files) documents.set(`writer: ${name}`, text);
  // deep-nesting.xml is too big to mutate thousands of times (saxes is quadratic in its depth); this is its gist.
  const open = '<x:a xmlns:x="urn:x">'.repeat(MAX_DEPTH + 6);
  const close = '</x:a>'.repeat(MAX_DEPTH + 6);
  documents.set(
    'generated: nested deeper than MAX_DEPTH',
    `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://www.example.com/deep</loc>${open}<loc>x</loc>${close}</url><url><loc>https://www.example.com/after</loc></url></urlset>`,
  );
  // Entries nested in one another past MAX_DEPTH: the ended ones make room (as when every </url> is missing), and their end tags come after all.
  const nested = (n: number, attributes: string, inmost: string): string =>
    Array.from({ length: n }, (_, i) => `<url${attributes}><loc>https://www.example.com/${i}</loc>${i === n - 1 ? inmost : ''}\n`).join('') + '</url>'.repeat(n);
  documents.set('generated: entries nested deeper than MAX_DEPTH', `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${nested(MAX_DEPTH + 6, '', '')}</urlset>`);
  // The same declaring a namespace in each (the fast path hands them to saxes) and with a tag saxes reads in the innermost.
  documents.set(
    'generated: entries nested deeper than MAX_DEPTH, declaring namespaces',
    `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${nested(MAX_DEPTH + 6, ' xmlns:q="urn:q"', '<p:x xmlns:p=" urn:p "/>')}</urlset>`,
  );
});

describe('differential: the reader agrees with a conforming parser (saxes)', () => {
  it('on every fixture and the writer output, as they are (and byte by byte)', async () => {
    assert.ok(documents.size >= 20, `only ${documents.size} base documents`);
    for (const [name, text] of documents) {
      const result = await compare(text, seedOf(name), text.length <= 16 * 1024);
      assert.ok(result !== undefined, `${name} is not read as UTF-8 XML`);
      assert.deepEqual(result.problems, [], `${name}: ${describeInput(text)}`);
    }
  });

  it('on thousands of seeded random mutations of them', async () => {
    let inputs = 0;
    let skipped = 0;
    let rejected = 0;
    const failures: string[] = [];
    for (const [name, text] of documents) {
      if (text.length > 16 * 1024) continue;
      const count = Math.max(40, Math.min(MUTATIONS, Math.floor((MUTATIONS * 2048) / text.length)));
      const seed0 = seedOf(name);
      for (let i = 0; i < count && failures.length < 8; i++) {
        const seed = (seed0 + i) >>> 0;
        const mutated = mutate(text, seed);
        // Every tenth input also byte by byte: the most boundaries there are.
        const result = await compare(mutated.text, seed, i % 10 === 0);
        if (result === undefined) {
          skipped++;
          continue;
        }
        inputs++;
        if (!result.accepted) rejected++;
        if (result.problems.length > 0) {
          failures.push(`${name}, mutate(base, ${seed}) = [${mutated.ops.join('; ')}]\ninput: ${describeInput(mutated.text)}\n${result.problems.join('\n')}`);
        }
      }
    }
    console.log(
      `differential: ${inputs} mutated inputs (${rejected} rejected by saxes, ${inputs - rejected} accepted; ${bareAmpersandInputs} checked with their bare & escaped), ${skipped} skipped as not UTF-8 XML`,
    );
    assert.deepEqual(failures, []);
    assert.ok(inputs >= MUTATIONS * 12, `only ${inputs} inputs`);
    assert.ok(inputs - rejected >= 300, `only ${inputs - rejected} well-formed inputs`);
  });
});

/** Inputs on which the reader and saxes once disagreed, and near misses around them that always agreed. */
const U = '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">';
const LOC = '<url><loc>https://a.example/</loc></url></urlset>';
const REGRESSIONS: [string, string][] = [
  // Found by the mutations.
  ['a non-sitemap root in a file that is not well-formed still gets its R2', '<html><body><p>x<br></p></body></html>'],
  ['a reference to CR in text is a CR, not a line end', `${U}<url><loc>https://a.example/o&#13;e</loc></url></urlset>`],
  ['xmlns: with no prefix is not a default namespace declaration', `<urlset xmlns:="urn:x">${LOC}`],
  ['a second XML declaration after the first', `<?xml version="1.0"?><?xml version="1.0"?>${U}${LOC}`],
  ['a BOM after the XML declaration', `<?xml version="1.0"?>\uFEFF${U}${LOC}`],
  ['where saxes reads (after a DOCTYPE with an internal subset), a bare & in a namespace declaration', `<!DOCTYPE urlset []><urlset xmlns="http://www.sitemaps.org/&x.org/schemas">${LOC}`],
  ['a namespace name with a leading CR reference (saxes trims namespace names)', `<urlset xmlns="&#13;http://www.sitemaps.org/schemas/sitemap/0.9">${LOC}`],
  // Found reading the tokenizer against saxes, then confirmed failing.
  ['an XML declaration after whitespace', ` <?xml version="1.0"?>${U}${LOC}`],
  ['an XML declaration after a comment', `<!-- c --><?xml version="1.0"?>${U}${LOC}`],
  ['a BOM after a comment', `<!---->\uFEFF${U}${LOC}`],
  ['XML 1.1: a reference to a control character', `<?xml version="1.1"?>${U}<url><loc>https://a.example/&#1;</loc></url></urlset>`],
  ['XML 1.1: NEL is a line end', `<?xml version="1.1"?>${U}<url><loc>https://a.example/a\u0085b</loc></url></urlset>`],
  ['XML 1.1: LS is a line end', `<?xml version="1.1"?>${U}<url><loc>https://a.example/a\u2028b</loc></url></urlset>`],
  ['XML 1.1: a raw DEL must be a reference', `<?xml version="1.1"?>${U}<url><loc>https://a.example/a\u007Fb</loc></url></urlset>`],
  ['XML 1.2 is read by the 1.1 rules', `<?xml version="1.2"?>${U}<url><loc>https://a.example/a\u0085b</loc></url></urlset>`],
  ['a namespace name with trailing whitespace', `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9\n">${LOC}`],
  ['a prefix bound to whitespace only', `${U}<url><loc>https://a.example/</loc><x:a xmlns:x=" "/></url></urlset>`],
  // Near misses.
  ['a reference to CR in an attribute is a CR', `${U}<url><loc>https://a.example/</loc><changefreq a="&#13;&#10;">daily</changefreq></url></urlset>`],
  ['the xml prefix on an element', `${U}<url><loc>https://a.example/</loc><xml:x/></url></urlset>`],
  ['an element named xmlns', `${U}<url><loc>https://a.example/</loc><xmlns/></url></urlset>`],
  ['two prefixes for one namespace on one attribute name', `${U}<url><loc>https://a.example/</loc><a xmlns:p="urn:a" xmlns:q="urn:a" p:x="1" q:x="2"/></url></urlset>`],
  ['a comment holding "->"', `${U}<!--->x-->${LOC}`],
  ['a bare & is read as if it were &amp;', `${U}<url><loc>https://a.example/?a=1&b=2&#0;</loc></url></urlset>`],
];

describe('differential regressions', () => {
  for (const [name, text] of REGRESSIONS) {
    it(name, async () => {
      const result = await compare(text, seedOf(name), true);
      assert.ok(result !== undefined);
      assert.deepEqual(result.problems, [], describeInput(text));
    });
  }
});

/*
 * The tokenizer takes a field it has seen before in one step (`<loc>…</loc>` as a leaf), and a
 * whole entry shaped like an earlier one in one step too (its markup matched literally); the
 * assembler stores either directly or declines. Random mutations seldom land in a third entry,
 * where those paths run, so every snippet goes there: at the start, middle and end of each field's
 * text and on both sides of each of its tags, in a urlset and in an index. A fourth entry follows,
 * so reading on after a declined entry is checked too.
 */
const IMAGE_NS = 'xmlns:image="http://www.google.com/schemas/sitemap-image/1.1"';
const entry = (n: number): string =>
  `<url><loc>https://a.example/p/${n}?a=1&amp;b=2</loc><lastmod>2026-11-0${n}</lastmod><changefreq>daily</changefreq><priority>0.${n}</priority>` +
  `<image:image><image:loc>https://a.example/i/${n}.jpg</image:loc></image:image></url>\n`;
const LEAF_URLSET = `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" ${IMAGE_NS}>\n${entry(1)}${entry(2)}${entry(3)}${entry(4)}</urlset>\n`;
const XHTML_NS = 'xmlns:xhtml="http://www.w3.org/1999/xhtml"';
const linkedEntry = (n: number): string =>
  `<url><loc>https://a.example/p/${n}</loc><xhtml:link rel="alternate" hreflang="en" href="https://a.example/en/${n}?a=1&amp;b=2"/>` +
  `\n  <xhtml:link rel='alternate' hreflang="de-DE" href='https://a.example/de/${n}'/></url>\n`;
const LINKED_URLSET = `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" ${XHTML_NS}>\n${[1, 2, 3, 4].map(linkedEntry).join('')}</urlset>\n`;
const MEDIA_NS = 'xmlns:video="http://www.google.com/schemas/sitemap-video/1.1" xmlns:news="http://www.google.com/schemas/sitemap-news/0.9"';
// More names of one prefix than a few: the tokenizer must still know them all on sight.
const mediaEntry = (n: number): string =>
  `<url><loc>https://a.example/v/${n}</loc><video:video><video:thumbnail_loc>https://a.example/t/${n}.jpg</video:thumbnail_loc>` +
  `<video:title>Clip ${n} &amp; more</video:title><video:description>About ${n}</video:description><video:content_loc>https://a.example/c/${n}.mp4</video:content_loc>` +
  `<video:duration>60${n}</video:duration><video:tag>a</video:tag><video:tag>b</video:tag>` +
  `<video:price currency="EUR" type='rent'>1.9${n}</video:price><video:restriction relationship="allow">US CA</video:restriction></video:video>\n` +
  `<news:news><news:publication><news:name>Example</news:name><news:language>en</news:language></news:publication>` +
  `<news:publication_date>2026-11-0${n}</news:publication_date><news:title>Story ${n}</news:title></news:news></url>\n`;
const MEDIA_URLSET = `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" ${MEDIA_NS}>\n${[1, 2, 3, 4].map(mediaEntry).join('')}</urlset>\n`;
// Pretty-printed with CRLF line ends, as Windows tools write it: line ends between and inside entries and in a tag.
const crlfEntry = (n: number): string =>
  `  <url>\r\n    <loc>https://a.example/p/${n}?a=1&amp;b=2</loc>\r\n    <lastmod>2026-11-0${n}</lastmod>\r\n` +
  `    <image:image>\r\n      <image:loc>https://a.example/i/${n}.jpg</image:loc>\r\n    </image:image>\r\n` +
  `    <xhtml:link\r\n      rel="alternate" hreflang="en" href="https://a.example/en/${n}"/>\r\n  </url>\r\n`;
const CRLF_URLSET = `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" ${IMAGE_NS} ${XHTML_NS}>\r\n${[1, 2, 3, 4].map(crlfEntry).join('')}</urlset>\r\n`;
const LEAF_INDEX = `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${[1, 2, 3, 4].map((n) => `<sitemap><loc>https://a.example/s${n}.xml</loc><lastmod>2026-11-0${n}</lastmod></sitemap>`).join('\n')}</sitemapindex>`;

/**
 * Where snippets go in the third entry of `base`: each field text's start, middle and end, both
 * sides of every tag, and in tags with attributes both sides of each space, `=` and quote and the
 * middle of each value.
 */
function thirdEntryPositions(base: string, tag: string): number[] {
  const from = base.indexOf(`<${tag}>`, base.indexOf(`<${tag}>`, base.indexOf(`<${tag}>`) + 1) + 1);
  const to = base.indexOf(`</${tag}>`, from) + tag.length + 3;
  const positions = new Set<number>();
  let quote: string | undefined;
  let valueStart = 0;
  for (let at = from; at < to; at++) {
    const c = base[at] as string;
    const inTag = base.lastIndexOf('<', at) > base.lastIndexOf('>', at - 1);
    if (quote !== undefined) {
      if (c !== quote) continue;
      positions.add(Math.floor((valueStart + at) / 2)).add(at).add(at + 1);
      quote = undefined;
    } else if (inTag && (c === ' ' || c === '=')) positions.add(at).add(at + 1);
    else if (inTag && (c === '"' || c === "'")) {
      positions.add(at).add(at + 1);
      quote = c;
      valueStart = at + 1;
    }
    if (c === '<') positions.add(at);
    if (c === '>') {
      positions.add(at + 1);
      const end = base.indexOf('<', at);
      if (base[end + 1] === '/' && end > at + 1) positions.add(Math.floor((at + 1 + end) / 2));
    }
  }
  return [...positions];
}

describe('differential: the one-step paths for repeated fields and entries', () => {
  it('agree with saxes for every snippet in and around every field of a later entry', async () => {
    const failures: string[] = [];
    let inputs = 0;
    for (const [base, tag, least] of [[LEAF_URLSET, 'url', 24], [LINKED_URLSET, 'url', 40], [MEDIA_URLSET, 'url', 50], [CRLF_URLSET, 'url', 30], [LEAF_INDEX, 'sitemap', 10]] as const) {
      const positions = thirdEntryPositions(base, tag);
      assert.ok(positions.length >= least, `found ${positions.length} positions`);
      for (const at of positions) {
        for (const snippet of SNIPPETS) {
          const text = base.slice(0, at) + snippet + base.slice(at);
          const result = await compare(text, seedOf(text));
          if (result === undefined) continue;
          inputs++;
          if (result.problems.length > 0 && failures.length < 8) failures.push(`${describeInput(text)}\n${result.problems.join('\n')}`);
        }
      }
    }
    assert.deepEqual(failures, []);
    assert.ok(inputs >= 20000, `only ${inputs} inputs`);
  });
});
