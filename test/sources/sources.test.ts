import assert from 'node:assert/strict';
import { createReadStream, readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { fromCsv, fromJsonLines, fromText, type SourceItem } from '../../src/index.ts';
import { MAX_LINE_BYTES, readLines, type Line } from '../../src/sources/lines.ts';
import { readInput, sniffFormat } from '../../src/sources/index.ts';
import { describeBinary } from '../../src/sources/kind.ts';

const fixture = (name: string) => new Uint8Array(readFileSync(new URL(`../fixtures/input/${name}`, import.meta.url)));

async function collect<T>(source: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of source) out.push(item);
  return out;
}

/** The same bytes as one chunk, one byte at a time, and at seeded random cuts. */
function chunkings(bytes: Uint8Array, seed: number): Uint8Array[][] {
  const random = (() => {
    let state = seed;
    return () => ((state = Math.imul(state ^ (state >>> 15), 0x2c1b3c6d) + 0x9e3779b9) >>> 0) / 2 ** 32;
  })();
  const bytewise = Array.from(bytes, (b) => Uint8Array.of(b));
  const randomCuts: Uint8Array[][] = [];
  for (let round = 0; round < 20; round++) {
    const chunks: Uint8Array[] = [];
    for (let at = 0; at < bytes.length; ) {
      const size = 1 + Math.floor(random() * 40);
      chunks.push(bytes.subarray(at, at + size));
      at += size;
    }
    randomCuts.push(chunks);
  }
  return [[bytes], bytewise, ...randomCuts];
}

async function sameForEveryChunking<T>(bytes: Uint8Array, read: (chunks: Uint8Array[]) => AsyncIterable<T>): Promise<T[]> {
  const [whole, ...others] = chunkings(bytes, 1234);
  const expected = await collect(read(whole ?? []));
  for (const chunks of others) assert.deepEqual(await collect(read(chunks)), expected, `differs when cut in ${chunks.length} chunks`);
  return expected;
}

describe('text input', () => {
  test('one URL a line: BOM, CRLF, blanks, comments, trimming; a non-UTF-8 line is reported, the rest read', async () => {
    const items = await sameForEveryChunking(fixture('urls.txt'), fromText);
    assert.deepEqual(items, [
      { line: 2, record: 'https://example.com/a' },
      { line: 4, record: 'https://example.com/b' },
      { line: 5, record: 'https://example.com/café' },
      { line: 6, diagnostic: { rule: 'INPUT', level: 'error', message: 'line skipped: it is not valid UTF-8', line: 6 } },
      { line: 7, record: 'https://example.com/last-line-without-newline' },
    ] satisfies SourceItem[]);
  });

  test('a lone CR ends a line too (old Mac files), as LF and CRLF do, however the bytes are cut', async () => {
    const bytes = new TextEncoder().encode('https://example.com/a\rhttps://example.com/b\r\r# note\r\nhttps://example.com/c\nhttps://example.com/d\r');
    assert.deepEqual(await sameForEveryChunking(bytes, fromText), [
      { line: 1, record: 'https://example.com/a' },
      { line: 2, record: 'https://example.com/b' },
      { line: 5, record: 'https://example.com/c' },
      { line: 6, record: 'https://example.com/d' },
    ] satisfies SourceItem[]);
  });
});

describe('JSON Lines input', () => {
  test('objects and bare strings; a bad line is reported and skipped', async () => {
    const items = await sameForEveryChunking(fixture('records.jsonl'), fromJsonLines);
    assert.deepEqual(items.map((i) => ('record' in i ? ['record', i.line] : [i.diagnostic.rule, i.line])), [
      ['record', 1], ['record', 2], ['INPUT', 4], ['record', 5], ['record', 6],
    ]);
    const broken = items.find((i) => i.line === 4);
    assert.ok(broken !== undefined && 'diagnostic' in broken);
    assert.match(broken.diagnostic.message, /^line skipped: not valid JSON/);
    const news = items.find((i) => i.line === 5);
    assert.ok(news !== undefined && 'record' in news);
    assert.equal((news.record as { news: { title: string } }).news.title, 'Büro & Co');
  });
  test('url is read as loc, as CSV reads it, when there is no loc; with both, loc wins', async () => {
    const items = await sameForEveryChunking(fixture('url-field.jsonl'), fromJsonLines);
    assert.deepEqual(items, [
      { line: 1, record: { loc: 'https://shop.example.com/', lastmod: '2026-11-20', priority: 1 } },
      { line: 2, record: { loc: 'https://shop.example.com/boots', changefreq: 'weekly', images: [{ loc: 'https://shop.example.com/img/boots.jpg' }] } },
      { line: 3, record: { loc: 'https://shop.example.com/hats', url: 'https://shop.example.com/old-hats' } },
      { line: 4, record: { title: 'no address at all' } },
    ] satisfies SourceItem[]);
    assert.deepEqual(Object.keys((items[0] as { record: object }).record), ['loc', 'lastmod', 'priority'], 'loc first, as every record has it');
  });
});

describe('CSV input', () => {
  test('header with a url alias, quoted fields, extra columns reported once, a broken row reported', async () => {
    const items = await sameForEveryChunking(fixture('records.csv'), fromCsv);
    assert.deepEqual(items.filter((i) => 'record' in i), [
      { line: 2, record: { loc: 'https://example.com/', lastmod: '2026-11-20', priority: '1.0' } },
      { line: 3, record: { loc: 'https://example.com/a,b', lastmod: '2026-11-01T10:00:00+01:00' } },
      { line: 4, record: { loc: 'https://example.com/c', lastmod: 'yesterday', priority: '0.5' } },
    ]);
    const findings = items.filter((i) => 'diagnostic' in i).map((i) => ('diagnostic' in i ? `${i.diagnostic.level}: ${i.diagnostic.message}` : ''));
    // csv-parse's own line count is left out of its message: the finding's line is the one to go by.
    assert.deepEqual(findings, ['warn: CSV columns ignored: notes', 'error: CSV row skipped: Quote Not Closed: the parsing is finished with an opening quote']);
    assert.deepEqual(items.map((i) => i.line), [1, 2, 3, 4, 5], 'findings come in line order with the records');
  });

  test('a record is at its first line, and the ones after a quoted line break are not off, with LF, CRLF or CR line ends', async () => {
    for (const eol of ['\n', '\r\n', '\r']) {
      const text = [
        'loc,notes',
        'https://example.com/1,one',
        `https://example.com/2,"two${eol}lines"`,
        '',
        'https://example.com/3,"CRLF\r\nand LF\ninside"',
        'https://example.com/4,four',
        '"https://example.com/5,unclosed',
      ].join(eol);
      const items = await sameForEveryChunking(new TextEncoder().encode(text), fromCsv);
      assert.deepEqual(items.map((i) => ('record' in i ? `${i.line} ${(i.record as { loc: string }).loc}` : `${i.line} ${i.diagnostic.message}`)), [
        '1 CSV columns ignored: notes',
        '2 https://example.com/1',
        '3 https://example.com/2',
        '6 https://example.com/3',
        '9 https://example.com/4',
        '10 CSV row skipped: Quote Not Closed: the parsing is finished with an opening quote',
      ], JSON.stringify(eol));
    }
  });

  test('with both a loc and a url column, loc wins and url is an ignored column, in either order', async () => {
    for (const [header, row] of [['url,loc', 'https://example.com/old,https://example.com/new'], ['loc,URL', 'https://example.com/new,https://example.com/old']]) {
      const items = await collect(fromCsv([new TextEncoder().encode(`${header}\n${row}\n`)]));
      assert.deepEqual(items, [
        { line: 1, diagnostic: { rule: 'INPUT', level: 'warn', message: 'CSV columns ignored: url', line: 1 }, header: true },
        { line: 2, record: { loc: 'https://example.com/new' } },
      ], header);
    }
  });

  test('a header without loc is one clear error, marked as a header finding (no record read or dropped)', async () => {
    const items = await collect(fromCsv([new TextEncoder().encode('address,lastmod\nhttps://example.com/,2026-01-01\n')]));
    assert.deepEqual(items, [{ line: 1, diagnostic: { rule: 'INPUT', level: 'error', message: 'the CSV header has no "loc" (or "url") column; columns found: address, lastmod', line: 1 }, header: true }]);
  });

  test('a file stream left early (no loc column) ends without an unhandled error event', async () => {
    const items = await collect(fromCsv(createReadStream(new URL('../fixtures/input/no-loc-column.csv', import.meta.url))));
    assert.deepEqual(items, [{ line: 1, diagnostic: { rule: 'INPUT', level: 'error', message: 'the CSV header has no "loc" (or "url") column; columns found: address, last modified, title', line: 1 }, header: true }]);
    // Before, the read stream was left piped into a destroyed parser and emitted "Premature close" unhandled a moment later.
    await new Promise((resolve) => setTimeout(resolve, 50));
  });

  test('a source failing part way fails the CSV reader, rather than hanging it', async () => {
    async function* failing(): AsyncGenerator<Uint8Array> {
      yield new TextEncoder().encode('loc\nhttps://example.com/a\n');
      throw new Error('disk gone');
    }
    await assert.rejects(collect(fromCsv(failing())), { message: 'disk gone' });
  });

  test('a line over the cap is skipped unread, as in text and JSON Lines; the rows around it are read, however the bytes are cut', async () => {
    const long = 'https://example.com/' + 'x'.repeat(MAX_LINE_BYTES);
    const bytes = new TextEncoder().encode(`loc,lastmod\r\nhttps://example.com/a,2026-01-01\r\n\r\n${long},2026-01-02\r\n"https://example.com/b",2026-01-03\r\n${long}`);
    const expected: SourceItem[] = [
      { line: 2, record: { loc: 'https://example.com/a', lastmod: '2026-01-01' } },
      { line: 4, diagnostic: { rule: 'INPUT', level: 'error', message: `line skipped: longer than ${MAX_LINE_BYTES} bytes`, line: 4 } },
      { line: 5, record: { loc: 'https://example.com/b', lastmod: '2026-01-03' } },
      { line: 6, diagnostic: { rule: 'INPUT', level: 'error', message: `line skipped: longer than ${MAX_LINE_BYTES} bytes`, line: 6 } },
    ];
    for (const size of [bytes.length, 65_536, 1000]) {
      const chunks: Uint8Array[] = [];
      for (let at = 0; at < bytes.length; at += size) chunks.push(bytes.subarray(at, at + size));
      assert.deepEqual(await collect(fromCsv(chunks)), expected, `chunks of ${size}`);
    }
  });

  test('a dropped line between a bad row and blank lines keeps the findings in line order', async () => {
    const long = 'y'.repeat(MAX_LINE_BYTES + 1);
    const items = await collect(fromCsv([new TextEncoder().encode(`loc\nhttps://example.com/a\n\n${long}\nhttps://example.com/b"x\nhttps://example.com/c\n`)]));
    assert.deepEqual(items.map((i) => ('record' in i ? `${i.line} record` : `${i.line} ${i.diagnostic.message.slice(0, 20)}`)), [
      '2 record', '4 line skipped: longer', '5 CSV row skipped: Inv', '6 record',
    ]);
  });

  test('a record running past the cap over many lines (a quote left open) stops the input with one sentence', async () => {
    const lines = Array.from({ length: 30_000 }, (_, i) => `https://example.com/${i},2026-01-01`).join('\n');
    await assert.rejects(collect(fromCsv([new TextEncoder().encode(`loc,lastmod\nhttps://example.com/a,2026-01-01\n"https://example.com/b,2026-01-01\n${lines}\n`)])), {
      code: 'SM_INPUT_UNREADABLE',
      message: `the CSV record from line 3 runs past ${MAX_LINE_BYTES} bytes (a quote left open?); the input was not read further`,
    });
  });

  test('a message quoting input quotes a short excerpt of it', async () => {
    const field = `https://example.com/${'z'.repeat(500_000)}`;
    const items = await collect(fromCsv([new TextEncoder().encode(`loc,${'c'.repeat(200_000)}\n${field}"x,1\n`)]));
    assert.deepEqual(items, [
      { line: 1, diagnostic: { rule: 'INPUT', level: 'warn', message: `CSV columns ignored: ${'c'.repeat(37)}...`, line: 1 }, header: true },
      { line: 2, diagnostic: { rule: 'INPUT', level: 'error', message: `CSV row skipped: Invalid Opening Quote: a quote is found on field 0, value is "https://example.com/${'z'.repeat(57)}..."`, line: 2 } },
    ]);
  });
});

describe('line reader', () => {
  test('a line over the cap is reported, not buffered, and the next line is read', async () => {
    const long = new Uint8Array(MAX_LINE_BYTES + 10).fill(0x61);
    const bytes = new Uint8Array([...new TextEncoder().encode('first\n'), ...long, 0x0a, ...new TextEncoder().encode('after\n')]);
    const expected: Line[] = [
      { line: 1, text: 'first' },
      { line: 2, diagnostic: { rule: 'INPUT', level: 'error', message: `line skipped: longer than ${MAX_LINE_BYTES} bytes`, line: 2 } },
      { line: 3, text: 'after' },
    ];
    for (const size of [bytes.length, 65_536, 1000, 7]) {
      const chunks: Uint8Array[] = [];
      for (let at = 0; at < bytes.length; at += size) chunks.push(bytes.subarray(at, at + size));
      assert.deepEqual(await collect(readLines(chunks)), expected, `chunks of ${size}`);
    }
  });

  test('any text splits into the same lines however it is cut', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ unit: fc.constantFrom('a', 'é', '😀', '\n', '\r\n', '\r', ' ', '中'), maxLength: 60 }), fc.array(fc.integer({ min: 1, max: 8 }), { minLength: 1 }), async (text, cuts) => {
        const bytes = new TextEncoder().encode(text);
        const chunks: Uint8Array[] = [];
        for (let at = 0, i = 0; at < bytes.length; i++) {
          const size = cuts[i % cuts.length] ?? 1;
          chunks.push(bytes.subarray(at, at + size));
          at += size;
        }
        const lines = (await collect(readLines(chunks))).map((l) => ('text' in l ? l.text : '!'));
        const expected = text.split(/\r\n|\r|\n/);
        if (/[\r\n]$/.test(text) || text === '') expected.pop();
        assert.deepEqual(lines, expected);
      }),
      { seed: 99, numRuns: 500 },
    );
  });
});

test('format sniffing for standard input', () => {
  const bytes = (s: string) => new TextEncoder().encode(s);
  assert.equal(sniffFormat(bytes('{"loc":"https://example.com/"}\n')), 'jsonl');
  assert.equal(sniffFormat(bytes('\uFEFFloc,lastmod\nhttps://example.com/,2026-01-01\n')), 'csv');
  assert.equal(sniffFormat(bytes('URL\nhttps://example.com/\n')), 'csv');
  assert.equal(sniffFormat(bytes('https://example.com/\nhttps://example.com/a,b\n')), 'text');
});

test('format sniffing: a CSV header is found by a loc or url column anywhere, quoted or not; JSON Lines by a record or a JSON string', () => {
  const bytes = (s: string) => new TextEncoder().encode(s);
  for (const header of ['"url","lastmod"', 'lastmod,loc', '"lastmod" , "Loc"', 'priority,"URL",changefreq', '\n\n lastmod,url']) {
    assert.equal(sniffFormat(bytes(`${header}\r\n2026-01-01,https://example.com/\r\n`)), 'csv', header);
  }
  assert.equal(sniffFormat(bytes('loc\rhttps://example.com/\r')), 'csv', 'CR line ends');
  assert.equal(sniffFormat(bytes('"https://example.com/"\n"https://example.com/a"\n')), 'jsonl', 'bare JSON strings');
  // Not a header: a quoted cell only holding loc, a column only named like it, a URL with a comma.
  assert.equal(sniffFormat(bytes('"a,loc",b\n')), 'text');
  assert.equal(sniffFormat(bytes('location,lastmod\n')), 'text');
  assert.equal(sniffFormat(bytes('https://example.com/tags/a,url\n')), 'text');
});

describe('input that is no text', () => {
  const bytes = (...parts: (string | number[])[]) => new Uint8Array(parts.flatMap((p) => (typeof p === 'string' ? [...new TextEncoder().encode(p)] : p)));

  test('is named by its magic bytes where it has them, else by NUL bytes or bytes that are not UTF-8', () => {
    assert.equal(describeBinary(fixture('logo.png')), 'a PNG image');
    assert.equal(describeBinary(fixture('export.zip')), 'a zip archive (an .xlsx, .docx or .ods file is one too; export it as CSV)');
    assert.equal(describeBinary(fixture('urls.txt.gz')), 'gzip-compressed data');
    assert.equal(describeBinary(bytes([0xff, 0xd8, 0xff, 0xe0, 0, 0x10], 'JFIF')), 'a JPEG image');
    assert.equal(describeBinary(bytes('%PDF-1.7\n%\u00e2\n')), 'a PDF document');
    assert.equal(describeBinary(bytes([0x28, 0xb5, 0x2f, 0xfd, 0x24, 0x05])), 'zstd-compressed data');
    assert.equal(describeBinary(bytes('BZh91AY&SY')), 'bzip2-compressed data');
    assert.equal(describeBinary(bytes([0xff, 0xfe], 'h\0t\0')), 'UTF-16 text (save it as UTF-8)');
    const tar = new Uint8Array(512);
    tar.set(new TextEncoder().encode('urls.txt'), 0);
    tar.set(new TextEncoder().encode('ustar'), 257);
    assert.equal(describeBinary(tar), 'a tar archive');
    assert.equal(describeBinary(bytes('https://example.com/a\n', [0], 'x')), 'binary data (it holds NUL bytes)');
    // Seeded bytes with no NUL: not UTF-8.
    let state = 7;
    const noise = Uint8Array.from({ length: 300 }, () => 1 + ((state = (state * 1103515245 + 12345) >>> 0) % 255));
    assert.equal(describeBinary(noise), 'binary data (it is not UTF-8 text)');
  });

  test('text stays text: a Latin-1 line among UTF-8 ones, a BOM, a head cut inside a character, a name like "BZh" or "GIF" in a URL', () => {
    assert.equal(describeBinary(fixture('urls.txt')), undefined);
    assert.equal(describeBinary(fixture('records.csv')), undefined);
    assert.equal(describeBinary(bytes([0xef, 0xbb, 0xbf], 'loc\nhttps://example.com/caf', [0xc3])), undefined);
    assert.equal(describeBinary(bytes('BZh\nGIF8\nhttps://example.com/\n')), undefined);
    assert.equal(describeBinary(new Uint8Array(0)), undefined);
  });

  test('gzip is undone, whatever the name, and the format sniffed from the text inside', async () => {
    const items = await collect(readInput([fixture('records.jsonl.gz')]));
    assert.deepEqual(items, await collect(fromJsonLines([fixture('records.jsonl')])));
    assert.deepEqual(await collect(readInput([fixture('urls.txt.gz')], { format: 'text' })), [
      { line: 2, record: 'https://example.com/a' },
      { line: 3, record: 'https://example.com/b' },
      { line: 5, record: 'https://example.com/café' },
    ] satisfies SourceItem[]);
  });

  test('no text, or damaged gzip, is one sentence before any record', async () => {
    await assert.rejects(collect(readInput([fixture('logo.png')], { label: 'input "logo.png"' })), {
      code: 'SM_INPUT_NOT_TEXT', message: 'input "logo.png" is a PNG image, not text: build reads a list of URLs, JSON Lines or CSV',
    });
    await assert.rejects(collect(readInput([gzipSync(fixture('logo.png'))])), {
      code: 'SM_INPUT_NOT_TEXT', message: 'the input is a PNG image compressed with gzip, not text: build reads a list of URLs, JSON Lines or CSV',
    });
    const gz = fixture('urls.txt.gz');
    await assert.rejects(collect(readInput([gz.subarray(0, gz.length - 6)], { label: 'input "urls.txt.gz"' })), {
      code: 'SM_INPUT_UNREADABLE', message: 'cannot read input "urls.txt.gz": its gzip data is damaged (unexpected end of file)',
    });
  });
});
