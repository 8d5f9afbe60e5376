/** Hostile input (XXE, entity expansion, gzip bombs, deep nesting, garbage) is bounded, and reading stops at the caps. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { gzipSync } from 'node:zlib';
import { parseSitemap, validateSitemap } from '../../src/index.ts';
import { MAX_MALFORMED_REPORTS } from '../../src/read/xml/assemble.ts';
import { MAX_TOKEN_CHARS } from '../../src/read/xml/events.ts';
import { MAX_SITEMAP_BYTES } from '../../src/rules/limits.ts';
import { byteByByte, findings, locs, parseChunks, placed, randomSplits, readFixture, rules, sameHoweverCut } from '../helpers/parse.ts';

describe('hostile input', () => {
  it('XXE: the DOCTYPE is ignored, the external entity never read', async () => {
    const result = await parseChunks([readFixture('xxe.xml')]);
    assert.deepEqual(locs(result), ['https://www.example.com/&xxe;', 'https://www.example.com/after']);
    assert.deepEqual(findings(result), [
      'R2 warn 4:3 DOCTYPE ignored: a sitemap has none, and its entity declarations are never expanded (no external entities, no entity expansion)',
      'R2 error 6:37 not well-formed XML: "&" that starts no entity reference ("s://www.example.com/&xxe;"); read literally, write &amp;',
    ]);
  });
  it('billion laughs: nothing is expanded', async () => {
    const result = await parseChunks([readFixture('billion-laughs.xml')]);
    assert.deepEqual(locs(result), ['https://www.example.com/&lol9;']);
    assert.deepEqual(findings(result), [
      'R2 warn 13:3 DOCTYPE ignored: a sitemap has none, and its entity declarations are never expanded (no external entities, no entity expansion)',
      'R2 error 14:95 not well-formed XML: "&" that starts no entity reference ("s://www.example.com/&lol9;"); read literally, write &amp;',
    ]);
  });
  it('a DOCTYPE without an internal subset is reported and read past: the file reads as it would without one, broken parts recovered alike', async () => {
    const body = [
      '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
      '<url><loc>https://a.example/1?a&b</loc></lo></url>',
      '<url><loc>https://a.example/2</loc></url></foo>',
      '<url><loc>https://a.example/3</loc></url>',
      '</urlset>',
      '',
    ].join('\n');
    const read = (chunks: Iterable<Uint8Array>): Promise<string[]> => placed(chunks);
    const without = await read([new TextEncoder().encode(`<?xml version="1.0"?>\n${body}`)]);
    assert.equal(without.filter((line) => line.startsWith('https://')).length, 3);
    const oneLineDown = without.map((line) => line.replace(/ (\d+):(\d+)/, (_, l: string, c: string) => ` ${Number(l) + 1}:${c}`));
    for (const doctype of ['<!DOCTYPE urlset>', '<!DOCTYPE urlset SYSTEM "sitemap.dtd">', "<!DOCTYPE urlset PUBLIC '-//x//EN' 'x.dtd' >"]) {
      const bytes = new TextEncoder().encode(`<?xml version="1.0"?>\n${doctype}\n${body}`);
      const whole = await read([bytes]);
      assert.deepEqual(whole.filter((line) => !line.includes('DOCTYPE ignored')), oneLineDown, doctype);
      assert.deepEqual(whole.filter((line) => line.includes('DOCTYPE ignored')).map((line) => line.split(' ').slice(0, 2).join(' ')), [`R2 2:${doctype.length + 1}`]);
      await sameHoweverCut(bytes, read, whole);
    }
    // A second DOCTYPE, or one after the root, is saxes' to judge: not well-formed.
    // Each DOCTYPE is also ignored with its warning; what saxes makes of the rest is not this test's.
    for (const [text, doctypes] of [
      [`<!DOCTYPE urlset><!DOCTYPE urlset>${body}`, ['R2 warn 1:18 DOCTYPE ignored: a sitemap has none, and its entity declarations are never expanded (no external entities, no entity expansion)', 'R2 error 1:27 not well-formed XML: inappropriately located doctype declaration.', 'R2 warn 1:35 DOCTYPE ignored: a sitemap has none, and its entity declarations are never expanded (no external entities, no entity expansion)']],
      [`${body}<!DOCTYPE urlset>`, ['R2 error 6:10 not well-formed XML: inappropriately located doctype declaration.', 'R2 warn 6:18 DOCTYPE ignored: a sitemap has none, and its entity declarations are never expanded (no external entities, no entity expansion)']],
    ] as const) {
      const parsed = await parseChunks([new TextEncoder().encode(text)]);
      assert.deepEqual(findings(parsed).filter((line) => /doctype/i.test(line)), doctypes, JSON.stringify(parsed.diagnostics));
    }
  });
  it('deep nesting is bounded', async () => {
    const result = await parseChunks([readFixture('deep-nesting.xml')]);
    assert.deepEqual(locs(result), ['https://www.example.com/deep']);
    assert.deepEqual(findings(result), [
      'R33 warn 1:105 elements in the unknown namespace urn:x ignored',
      'R2 error 1:1428 not well-formed XML: elements nested deeper than 64 levels are not read',
      'R2 error 1:21588 not well-formed XML: elements nested deeper than 1024 levels; reading stops here',
    ]);
  });
  it('a gzip bomb stops at the size cap: R3 at a cap past the protocol\'s limit, below it a finding about the cap, not the file', async () => {
    const bomb = gzipSync(new Uint8Array(64 * 1024 * 1024).fill(0x20));
    const capped = await parseChunks([bomb], { maxBytes: 4 * 1024 * 1024 });
    assert.deepEqual(capped.diagnostics.map((d) => `${d.rule} ${d.level} ${d.message}`), [
      'INPUT error stopped reading at 4194304 bytes (decompressed), the limit set by maxBytes (--max-bytes); the rest of the file is not read or checked',
      'R2 error not well-formed XML: the file holds only whitespace (no root element)',
    ]);
    const limit = await parseChunks([bomb], { maxBytes: MAX_SITEMAP_BYTES });
    assert.deepEqual(limit.diagnostics.map((d) => `${d.rule} ${d.level} ${d.message}`), [
      `R3 error stopped reading at ${MAX_SITEMAP_BYTES} bytes (decompressed); the rest of the file is not read`,
      'R2 error not well-formed XML: the file holds only whitespace (no root element)',
    ]);
  });
  it('blank text before the content is held up to 1 MiB, not whole: a file whose content starts later is one R5 error, and reading stops there', async () => {
    const blank = '\n'.repeat(2 * 1024 * 1024);
    const late = new TextEncoder().encode(`${blank}<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://a.example/</loc></url></urlset>`);
    const result = await parseChunks([gzipSync(late)]);
    assert.deepEqual([result.kind, result.entries.length], ['unknown', 0]);
    assert.deepEqual(findings(result), [`R5 error the file's content starts after ${blank.length} characters of whitespace; a sitemap's starts within its first 1048576, so it is not read`]);
    const controls = await parseChunks([new TextEncoder().encode(`${'\0'.repeat(1536 * 1024)}https://a.example/\n`)]);
    assert.deepEqual(findings(controls), ["R5 error the file's content starts after 1572864 characters of whitespace and control characters; a sitemap's starts within its first 1048576, so it is not read"]);
    // Still read whole, so its findings are what they were: only whitespace.
    const onlyBlank = await parseChunks([new TextEncoder().encode(` \t\r\n${'\0'.repeat(2 * 1024 * 1024)}`)]);
    assert.deepEqual(findings(onlyBlank), ['R2 error not well-formed XML: the file holds only whitespace and control characters (no root element)']);
    // Within the first MiB the content is read as before.
    const early = await parseChunks([new TextEncoder().encode(`${'\n'.repeat(1024 * 1024 - 1)}<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://a.example/</loc></url></urlset>`)]);
    assert.deepEqual([early.kind, locs(early), findings(early)], ['urlset', ['https://a.example/'], []]);
  });
  it('a giant text node is bounded by the size cap, not held whole', async () => {
    const giant = new TextEncoder().encode(`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://a.example/${'a'.repeat(3 * 1024 * 1024)}`);
    const result = await parseChunks([giant], { maxBytes: 1024 * 1024 });
    assert.equal(result.entries.length, 0);
    assert.deepEqual(findings(result), [
      'INPUT error stopped reading at 1048576 bytes, the limit set by maxBytes (--max-bytes); the rest of the file is not read or checked',
      'R2 error 1:1048577 not well-formed XML: unclosed tag: loc',
    ]);
  });
  it('binary garbage: a clear error, and reading stops', async () => {
    const garbage = new Uint8Array(200_000).map((_, i) => (i * 7919) % 256);
    garbage[0] = 0x3c;
    const result = await parseChunks([garbage]);
    assert.equal(result.entries.length, 0);
    // Not a sitemap (R5), not UTF-8 (R1), and well-formedness errors until one says reading stops there.
    assert.deepEqual([rules(result), result.diagnostics.length], [['R1', 'R2', 'R5'], 46]);
    assert.equal(findings(result)[0], 'R1 error 1:2 bytes that are not valid UTF-8 (replaced with U+FFFD)');
    assert.equal(findings(result).at(-1), 'R2 error 2:13 not well-formed XML: character U+001C is not allowed in XML; read as U+FFFD; the file is not read further');
  });
});

describe('regressions', () => {
  it('nesting far past the depth limit stops reading instead of parsing on (saxes is quadratic in depth)', async () => {
    const depth = 200_000;
    const xml = `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://a.example/deep</loc></url><x:a xmlns:x="urn:x">${'<x:a>'.repeat(depth)}${'</x:a>'.repeat(depth)}</x:a></urlset>`;
    const result = await parseChunks([new TextEncoder().encode(xml)]);
    assert.deepEqual(locs(result), ['https://a.example/deep']);
    assert.deepEqual(findings(result), [
      'R33 warn 1:105 elements in the unknown namespace urn:x ignored',
      'R2 error 1:441 not well-formed XML: elements nested deeper than 64 levels are not read',
      'R2 error 1:5241 not well-formed XML: elements nested deeper than 1024 levels; reading stops here',
    ]);
  });
  it('4 million forbidden characters: the first 100 listed, every one counted, and the file read to its end, the entry after them too', async () => {
    // Before, reading stopped at the 100th well-formedness error, and the entries after it were lost.
    const bytes = new TextEncoder().encode(`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${'\u0000'.repeat(4_000_000)}<url><loc>https://a.example/after</loc></url></urlset>`);
    const parsed = parseSitemap(bytes);
    const seen: string[] = [];
    for await (const entry of parsed) seen.push(entry.loc);
    assert.deepEqual(seen, ['https://a.example/after']);
    assert.deepEqual(parsed.counts, { 'R2:error': 4_000_000 });
    assert.equal(parsed.diagnostics.length, MAX_MALFORMED_REPORTS);
    assert.equal(parsed.diagnosticsOmitted, 4_000_000 - MAX_MALFORMED_REPORTS);
    assert.equal(parsed.bytes, bytes.length);
  });
  it('past the well-formedness errors listed, reading goes on: later findings are counted and listed the same however the input was cut', async () => {
    let text = '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n';
    for (let i = 0; i < MAX_MALFORMED_REPORTS + 1; i++) text += `<url><loc>https://a.example/?a&b=${i}</loc></url>\n`;
    for (let i = 0; i < 20; i++) text += `<url><loc>https://a.example/${i}</loc><foo/></url>\n`;
    const bytes = new TextEncoder().encode(`${text}</urlset>\n`);
    const counts = async (chunks: Iterable<Uint8Array>): Promise<unknown> => {
      const result = await validateSitemap(chunks);
      return [result.counts, result.entries, result.diagnostics.map((d) => `${d.rule} ${d.line}:${d.column}`)];
    };
    const whole = await counts([bytes]);
    assert.deepEqual((whole as unknown[]).slice(0, 2), [{ 'R2:error': MAX_MALFORMED_REPORTS + 1, 'R6:error': 20 }, MAX_MALFORMED_REPORTS + 21]);
    assert.equal(((whole as unknown[])[2] as string[]).length, MAX_MALFORMED_REPORTS + 20);
    assert.deepEqual(await counts(randomSplits(bytes, 5)), whole);
    assert.deepEqual(await counts(byteByByte(bytes)), whole);
  });
});

describe('issue #30: a text, comment or CDATA section past MAX_TOKEN_CHARS is read that far, the rest skipped (R3), not held', () => {
  const MAX = MAX_TOKEN_CHARS;
  const URLSET = '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n';
  const AFTER = '</loc></url>\n<url><loc>https://a.example/?x&y</loc></url>\n</urlset>\n';
  /** Line and column of `index` in `text`, CRLF, CR and LF each one line end. */
  const positionOf = (text: string, index: number): string => {
    let line = 1;
    let lineStart = 0;
    for (const match of text.slice(0, index).matchAll(/\r\n?|\n/g)) {
      line++;
      lineStart = match.index + match[0].length;
    }
    return `${line}:${index - lineStart + 1}`;
  };
  /** The input cut whole, in pieces of several sizes, and at cuts around where the limit falls. */
  const ways = (bytes: Uint8Array, at: number): Uint8Array[][] => [
    [bytes],
    ...[1000, 65_536, 3 * 1024 * 1024 + 7].map((size) => Array.from({ length: Math.ceil(bytes.length / size) }, (_, i) => bytes.subarray(i * size, (i + 1) * size))),
    ...[-17, -1, 0, 1, 2].map((shift) => [bytes.subarray(0, at + shift), bytes.subarray(at + shift)]),
  ];
  const show = (result: Awaited<ReturnType<typeof parseChunks>>): unknown => [result.entries.map((entry) => (entry as { loc: string }).loc.length), findings(result)];

  it('a text in a <loc>: its first MAX_TOKEN_CHARS characters are the loc, the rest skipped with one R3 at its start; later findings keep their places, however the input was cut', async () => {
    const text = `${URLSET}<url><loc>https://a.example/${'a'.repeat(MAX + 1000)}${AFTER}`;
    const bytes = new TextEncoder().encode(text);
    const start = text.indexOf('https://a.example/a');
    const result = await parseChunks([bytes]);
    assert.deepEqual(show(result), [
      [MAX, 'https://a.example/?x&y'.length],
      [
        `R3 error ${positionOf(text, start)} a text of ${MAX + 1018} characters, longer than any sitemap field holds (a URL at most 2,048): its first ${MAX} are read, the rest is skipped unchecked`,
        `R2 error ${positionOf(text, text.indexOf('&'))} not well-formed XML: "&" that starts no entity reference ("https://a.example/?x&y"); read literally, write &amp;`,
      ],
    ]);
    assert.equal((result.entries[0] as { loc: string }).loc, `https://a.example/${'a'.repeat(MAX - 18)}`);
    for (const chunks of ways(bytes, start + MAX)) assert.deepEqual(show(await parseChunks(chunks)), show(result));
  });
  it('one character under, at and over the limit: read whole up to it, cut only past it', async () => {
    for (const extra of [-1, 0, 1]) {
      const text = `${URLSET}<url><loc>https://a.example/${'a'.repeat(MAX - 18 + extra)}${AFTER}`;
      const bytes = new TextEncoder().encode(text);
      const result = await parseChunks([bytes]);
      assert.deepEqual(result.entries.map((entry) => (entry as { loc: string }).loc.length), [Math.min(MAX, MAX + extra), 22], `${extra}`);
      assert.deepEqual(rules(result), extra > 0 ? ['R2', 'R3'] : ['R2'], `${extra}`);
      for (const chunks of ways(bytes, text.indexOf('https://a.example/a') + MAX)) assert.deepEqual(show(await parseChunks(chunks)), show(result), `${extra}`);
    }
  });
  it('whitespace with line ends of every kind, a comment and a CDATA section: one R3 each, every later place right', async () => {
    const blank = ' \r\n \r \n\t'.repeat(Math.ceil((MAX + 5000) / 7));
    for (const [what, open, close, at] of [
      ['text', '<url><loc>https://a.example/1</loc></url>', '<url><loc>', 0],
      ['comment', '<!--', '--><url><loc>', 0],
      ['CDATA section', '<url><loc><![CDATA[', ']]>', '<url><loc>'.length],
    ] as const) {
      const text = `${URLSET}${open}${blank}${close}https://a.example/2${AFTER}`;
      const bytes = new TextEncoder().encode(text);
      const runStart = URLSET.length + (what === 'text' ? open.length : at);
      const result = await parseChunks([bytes]);
      // Counted from where it starts (`<!--` and `<![CDATA[` included) to where it ends.
      const size = what === 'text' ? blank.length : what === 'comment' ? 4 + blank.length : 9 + blank.length;
      assert.deepEqual(findings(result).map((line) => line.replace(/, longer than .*$/, '')), [
        `R3 error ${positionOf(text, runStart)} a ${what} of ${size} characters`,
        // The CDATA section's first MAX_TOKEN_CHARS are the loc's text, whitespace: trimmed.
        ...(what === 'CDATA section' ? [`R8 warn 2:6 whitespace around the URL in <loc> (trimmed)`] : []),
        `R2 error ${positionOf(text, text.indexOf('&'))} not well-formed XML: "&" that starts no entity reference ("https://a.example/?x&y"); read literally, write &amp;`,
      ], what);
      assert.deepEqual(locs(result), what === 'text' ? ['https://a.example/1', 'https://a.example/2', 'https://a.example/?x&y'] : ['https://a.example/2', 'https://a.example/?x&y'], what);
      for (const chunks of ways(bytes, runStart + MAX)) assert.deepEqual(findings(await parseChunks(chunks)), findings(result), what);
    }
  });
});
