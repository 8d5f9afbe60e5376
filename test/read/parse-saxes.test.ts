/** Where saxes reads (after a DOCTYPE with an internal subset, or taking over): the same entries, findings and places as the fast path. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseSitemap } from '../../src/index.ts';
import { byteByByte, findings, locs, parseChunks, parseEveryWay, placed, randomSplits, rules, sameHoweverCut } from '../helpers/parse.ts';

describe('regressions', () => {
  it('where saxes reads, a character reference of any length is not taken for a bare & when a chunk cuts it', async () => {
    const zeros = '0'.repeat(70);
    const body = [
      '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
      `<url><loc>https://a.example/&#${zeros}65;</loc></url>`,
      `<url><loc>https://a.example/&#x${zeros}42;&amp;</loc></url>`,
      `<url><loc>https://a.example/&${'b'.repeat(70)}</loc></url>`,
      '</urlset>',
      '',
    ];
    const read = (chunks: Iterable<Uint8Array>): Promise<string[]> => placed(chunks);
    // Past the first KiB, which is read whole to sniff the format.
    const bytes = new TextEncoder().encode(`<?xml version="1.0"?>\n<!DOCTYPE urlset []>\n<!--${'p'.repeat(1100)}-->\n${body.join('\n')}`);
    const whole = await read([bytes]);
    assert.deepEqual(whole.filter((line) => !line.includes('DOCTYPE')), [
      'https://a.example/A 5:1',
      'https://a.example/B& 6:1',
      `https://a.example/&${'b'.repeat(70)} 7:1`,
      'R2 7:29 not well-formed XML: "&" that starts no entity reference ("https://a.example/&bbbbbbbbbbbbbbbbbbbbb"); read literally, write &amp;',
    ]);
    await sameHoweverCut(bytes, read, whole, 1150);
  });
  it('where saxes reads (after a DOCTYPE with an internal subset), a bare & is read as on the fast path: same entries, findings and positions, at every cut', async () => {
    const body = [
      '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">',
      '<url><loc>https://a.example/?a&b</loc></url>',
      '  <url><loc>https://a.example/2</loc><xhtml:link rel="alternate" hreflang="de" href="https://a.example/de?a&b=1&amp;c"/></url>',
      '<url><loc>https://a.example/3?x&amp;y&z=&#38;</loc><lastmod>2026-11-01</lastmod></url>',
      '<url><loc>https://a.example/4&</loc></url>',
      // References to characters XML forbids are read literally too.
      '<url><loc>https://a.example/5&#0;&#xFFFE;&#1114112;</loc></url>',
      '</urlset>',
      '',
    ];
    const read = (chunks: Iterable<Uint8Array>): Promise<string[]> => placed(chunks, (entry) => JSON.stringify(entry));
    const fast = await read([new TextEncoder().encode(`<?xml version="1.0"?>\n${body.join('\n')}`)]);
    assert.equal(fast.filter((line) => line.startsWith('{')).length, 5);
    // The DOCTYPE line moves everything one line down.
    // Excerpts aside: saxes hands on texts decoded, the fast path quotes them as written.
    const excerptless = (lines: string[]): string[] => lines.map((line) => line.replace(/ \(".*"\);/, ';'));
    const expected = excerptless(fast.map((line) => line.replace(/ (\d+):(\d+)( |$)/, (_, l: string, c: string, after: string) => ` ${Number(l) + 1}:${c}${after}`)));
    const text = `<?xml version="1.0"?>\n<!DOCTYPE urlset []>\n${body.join('\n')}`;
    const bytes = new TextEncoder().encode(text);
    const whole = await read([bytes]);
    assert.deepEqual(excerptless(whole.filter((line) => !line.includes('DOCTYPE'))), expected);
    await sameHoweverCut(bytes, read, whole);
  });
  it('where saxes reads, positions are the fast path\'s: tags and attributes over several lines, a forbidden character, any line end', async () => {
    const body = (nl: string): string =>
      [
        '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">',
        '  <url>',
        '    <loc>https://a.example/?a&b</loc>',
        '    <xhtml:link',
        '      rel="alternate" hreflang="de" href="https://a.example/?x&y"/>',
        '  </url>',
        '  <url\n  >',
        '    <loc>\n https://a.example/2?q&amp;r&s \n</loc>',
        '  </url>',
        '  <url><loc>https://a.example/3\u0001</loc><lastmod>2026-13-01</lastmod></url>',
        // Columns count UTF-16 units, as the fast path counts them; a forbidden character may follow any line end.
        '  <url><loc>https://a.example/\u{1F600}4\u0003</loc><lastmod>2026-13-01</lastmod></url>',
        '\u0002<url><loc>https://a.example/5</loc></url>',
        '</urlset>',
        '',
      ].join(nl);
    // Excerpts aside: saxes hands on texts decoded, the fast path quotes them as written.
    const read = async (text: string, chunks = (bytes: Uint8Array): Iterable<Uint8Array> => [bytes]): Promise<string[]> =>
      (await placed(chunks(new TextEncoder().encode(text)))).filter((line) => !line.includes('DOCTYPE')).map((line) => line.replace(/ \(".*"\);/, ';'));
    for (const nl of ['\n', '\r\n', '\r']) {
      const fast = await read(`<?xml version="1.0"?>${nl}${body(nl)}`);
      assert.equal(fast.length, 5 + 7, JSON.stringify(fast));
      const oneLineDown = fast.map((line) => line.replace(/ (\d+):(\d+)/, (_, l: string, c: string) => ` ${Number(l) + 1}:${c}`));
      const text = `<?xml version="1.0"?>${nl}<!DOCTYPE urlset []>${nl}${body(nl)}`;
      assert.deepEqual(await read(text), oneLineDown, JSON.stringify(nl));
      assert.deepEqual(await read(text, byteByByte), oneLineDown, `${JSON.stringify(nl)}, byte by byte`);
    }
  });
  it('where saxes reads, a document that spells U+FDD0 itself keeps it, and bare &s before and after it read the same at every cut', async () => {
    const entries = [
      '<url><loc>https://a.example/?a=1&b=2</loc></url>',
      '<url><loc>https://a.example/\uFDD0?a=1&b</loc></url>',
      '<url><loc>https://a.example/3?c&d</loc></url>',
      '</urlset>',
      '',
    ];
    const read = (chunks: Iterable<Uint8Array>): Promise<string[]> => placed(chunks);
    // Past the first 8 KiB, which are read whole to tell the format (FORMAT_LOOK_BYTES): cuts before it never reach the reader.
    const padding = `<!--${'p'.repeat(8200)}-->`;
    const root = '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">';
    const fast = await read([new TextEncoder().encode([`<?xml version="1.0"?>${padding}`, root, ...entries].join('\n'))]);
    assert.deepEqual(fast.slice(0, 3), ['https://a.example/?a=1&b=2 3:1', 'https://a.example/\uFDD0?a=1&b 4:1', 'https://a.example/3?c&d 5:1']);
    const bytes = new TextEncoder().encode([`<?xml version="1.0"?>${padding}<!DOCTYPE urlset []>`, root, ...entries].join('\n'));
    const whole = await read([bytes]);
    assert.deepEqual(whole.filter((line) => !line.includes('DOCTYPE')), fast);
    await sameHoweverCut(bytes, read, whole, 1150);

    // The root's start tag, replayed to saxes when a later construct hands over, holds both.
    const replayed = new TextEncoder().encode(
      [`<?xml version="1.0"?>${padding}`, '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" data-a="\uFDD0" data-note="a&b">', '<x:y xmlns:x=""/>', ...entries].join('\n'),
    );
    const replayedWhole = await read([replayed]);
    assert.deepEqual(replayedWhole.slice(0, 3), ['https://a.example/?a=1&b=2 4:1', 'https://a.example/\uFDD0?a=1&b 5:1', 'https://a.example/3?c&d 6:1']);
    await sameHoweverCut(replayed, read, replayedWhole, 1150);

    // A reference to U+FDD0 is the character, not a mark; one that saxes reads twice (an unquoted value) is not an error of its own.
    const references = '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://a.example/?x=&#xFDD0;&#64976;</loc></url><url a="&#xFDD0;"><loc>https://a.example/2</loc></url></urlset>';
    const viaSaxes = await parseChunks([new TextEncoder().encode(`<!DOCTYPE urlset []>${references}`)]);
    assert.deepEqual(locs(viaSaxes), ['https://a.example/?x=\uFDD0\uFDD0', 'https://a.example/2']);
    assert.deepEqual(rules(viaSaxes, 'error'), []);
    const unquoted = await parseChunks([new TextEncoder().encode(`<!DOCTYPE urlset []>${root}<url a=\uFDD0x><loc>https://a.example/</loc></url></urlset>`)]);
    assert.deepEqual(unquoted.diagnostics.filter((d) => d.level === 'error').map((d) => d.message), ['not well-formed XML: unquoted attribute value.']);
  });
  it('a prefix used without a declaration is reported once and read as meant: every entry and image kept, however the file was cut', async () => {
    const entry = (n: number): string => `<url><loc>https://a.example/${n}</loc><image:image><image:loc>https://a.example/${n}.png</image:loc></image:image></url>\n`;
    const text = `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xsi:schemaLocation="http://www.sitemaps.org/schemas/sitemap/0.9 x.xsd">\n${Array.from({ length: 300 }, (_, n) => entry(n)).join('')}</urlset>\n`;
    const bytes = new TextEncoder().encode(text);
    const whole = await parseChunks([bytes]);
    // Before, saxes read on from the first <image:image>, reported each element and stopped at the cap: 49 entries, no image.
    assert.equal(whole.entries.length, 300);
    assert.deepEqual(whole.entries[299], { loc: 'https://a.example/299', images: [{ loc: 'https://a.example/299.png' }] });
    assert.deepEqual(whole.diagnostics.map((d) => `${d.rule} ${d.line}:${d.column} ${d.message}`), [
      'R2 1:1 not well-formed XML: unbound namespace prefix "xsi" (no xmlns:xsi declares it); read as in an unknown namespace',
      'R2 2:36 not well-formed XML: unbound namespace prefix "image" (no xmlns:image declares it); read as http://www.google.com/schemas/sitemap-image/1.1, its namespace in sitemaps',
    ]);
    assert.deepEqual(await parseChunks(byteByByte(bytes)), whole, 'byte by byte');
    assert.deepEqual(await parseChunks(randomSplits(bytes, 4)), whole, 'random splits');

    // When saxes takes over later, the root it is handed declares the prefix as it was read.
    const handedOver = new TextEncoder().encode(text.replace('<url><loc>https://a.example/5</loc>', '<url><loc>https://a.example/5</loc><x:y xmlns:x=""/>'));
    const afterHandOver = await parseChunks([handedOver]);
    assert.equal(afterHandOver.entries.length, 300);
    assert.deepEqual(afterHandOver.entries[299], { loc: 'https://a.example/299', images: [{ loc: 'https://a.example/299.png' }] });

    // Where saxes reads from the start, the same: each prefix reported once, at its first tag.
    const viaSaxes = await parseChunks([new TextEncoder().encode(`<!DOCTYPE urlset []>\n${text}`)]);
    assert.deepEqual(viaSaxes.entries, whole.entries);
    assert.deepEqual(viaSaxes.diagnostics.filter((d) => d.level === 'error').map((d) => `${d.line}:${d.column} ${d.message}`), whole.diagnostics.map((d) => `${(d.line as number) + 1}:${d.column} ${d.message}`));
  });
  it('where saxes reads, an Error made in onDiagnostic keeps its stack (saxes\' own errors are made without)', async () => {
    const stacks: string[] = [];
    const text = '<!DOCTYPE urlset []><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://a.example/?a&b</loc></url></urlset>';
    const parsed = parseSitemap(new TextEncoder().encode(text), { onDiagnostic: () => stacks.push(new Error('probe').stack ?? '') });
    for await (const entry of parsed) assert.equal(entry.loc, 'https://a.example/?a&b');
    // The DOCTYPE's warning and the bare &.
    assert.equal(stacks.length, 2);
    for (const stack of stacks) assert.ok(stack.split('\n').length > 1, stack);
  });
  it('saxes, taking over, is given the open start tags with their bare & marked too, so it reads on', async () => {
    // Undeclaring a prefix is saxes' to report: it is handed the open <urlset> tag again first, value and all.
    const text = '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" data-note="a&b">\n<url><loc>https://a.example/1</loc></url>\n<url><loc>https://a.example/2</loc><x:y xmlns:x=""/></url>\n<url><loc>https://a.example/3</loc></url>\n</urlset>\n';
    const parsed = await parseChunks([new TextEncoder().encode(text)]);
    assert.deepEqual(locs(parsed), ['https://a.example/1', 'https://a.example/2', 'https://a.example/3']);
    assert.deepEqual(parsed.diagnostics.filter((d) => d.rule === 'R2').map((d) => `${d.line}:${d.column} ${d.message}`), [
      '1:73 not well-formed XML: "&" that starts no entity reference in an attribute ("a&b"); read literally, write &amp;',
      '3:51 not well-formed XML: invalid attempt to undefine prefix in XML 1.0',
      '3:36 not well-formed XML: unbound namespace prefix "x" (no xmlns:x declares it); read as in an unknown namespace',
    ]);
    // The element is named by its prefix, which is no namespace.
    assert.deepEqual(findings(parsed).filter((line) => line.startsWith('R33')), ['R33 warn 3:36 elements with the undeclared prefix x: ignored']);
  });
  it('input that ends inside a CDATA section or a comment: the end is reported, not the & inside it, and its content is no text', async () => {
    const start = '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n<url><loc>https://a.example/1</loc></url>\n<url><loc>';
    for (const rest of ['<![CDATA[https://a.example/?a=1&b', 'https://a.example/<!-- a&b --']) {
      // At the end of the input.
      const column = '<url><loc>'.length + rest.length + 1;
      for (const prolog of ['', '<!DOCTYPE urlset []>\n']) {
        const bytes = new TextEncoder().encode(prolog + start + rest);
        const line = prolog === '' ? 3 : 4;
        const { whole, others } = await parseEveryWay(bytes, {}, 3);
        assert.deepEqual([locs(whole), findings(whole).filter((f) => !f.startsWith('R2 warn'))], [
          ['https://a.example/1'],
          [`R2 error ${line}:${column} not well-formed XML: unclosed tag: loc`, `R2 error ${line}:${column} not well-formed XML: unexpected end.`],
        ], `${prolog}${rest}`);
        for (const other of others) assert.deepEqual(other, whole);
      }
    }
  });
});
