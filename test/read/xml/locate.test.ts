import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fieldOffset } from '../../../src/read/xml/locate.ts';
import { positionIn } from '../../../src/read/xml/positions.ts';

describe('locating a field in its entry', () => {
  const entry = [
    '<url>',
    '  <loc>https://a.example/</loc>',
    '  <!-- <lastmod>not this</lastmod> -->',
    '  <lastmod>2024-13-01</lastmod>',
    '  <image:image><image:loc>https://a.example/1.jpg</image:loc></image:image>',
    '  <image:image><image:title><![CDATA[<image:loc>]]></image:title><image:loc>ftp://a.example/2.jpg</image:loc></image:image>',
    '  <video:video><video:title>T</video:title><video:price currency="EUR">1</video:price><video:tag>a</video:tag><video:price currency="usd">2</video:price>',
    '    <video:uploader info="https://a.example/?a=1>2">U</video:uploader></video:video>',
    '  <news:news><news:publication><news:name>N</news:name><news:language>EN</news:language></news:publication></news:news>',
    '  <xhtml:link rel="alternate" hreflang="de" href="https://a.example/de"/><xhtml:link rel="alternate" hreflang="english" href="https://a.example/en"/>',
    '</url>',
    '<url><loc>https://a.example/next</loc><lastmod>2024-01-01</lastmod></url>',
  ].join('\n');
  const at = (field: string): string | undefined => {
    const offset = fieldOffset(entry, field, 'urlset');
    if (offset === undefined) return undefined;
    const { line, column } = positionIn(entry, offset, { line: 10, column: 3 });
    return `${line}:${column} ${entry.slice(offset, entry.indexOf('>', offset) + 1)}`;
  };

  it('core fields, past comments', () => {
    assert.equal(at('loc'), '11:3 <loc>');
    assert.equal(at('lastmod'), '13:3 <lastmod>');
    assert.equal(at('priority'), undefined);
  });
  it('the n-th group and its fields, past CDATA that looks like markup', () => {
    assert.equal(at('images[2].loc'), '15:66 <image:loc>');
    assert.equal(at('images[1]'), '14:3 <image:image>');
    assert.equal(at('videos[1].prices[2]'), '16:111 <video:price currency="usd">');
    assert.equal(at('videos[1].tags'), '16:87 <video:tag>');
    assert.equal(at('news.publication.language'), '18:56 <news:language>');
    assert.equal(at('alternates[2].hreflang'), '19:74 <xhtml:link rel="alternate" hreflang="english" href="https://a.example/en"/>');
  });
  it('a field with no element of its own goes to the nearest one holding it; an attribute value holding > is no tag end', () => {
    assert.equal(at('videos[1].uploader.name'), '17:5 <video:uploader info="https://a.example/?a=1>');
    assert.equal(at('videos[1].thumbnail_loc'), '16:3 <video:video>');
    assert.equal(at('news.publication_date'), '18:3 <news:news>');
  });
  it('stops at the end of the entry: the next one is not searched', () => {
    assert.equal(fieldOffset('<url><loc>https://a.example/</loc></url><url><lastmod>2024</lastmod></url>', 'lastmod', 'urlset'), undefined);
    assert.equal(fieldOffset('<url/><url><loc>x</loc></url>', 'loc', 'urlset'), undefined);
  });
  it('feeds: an item link is its loc, its pubDate or updated its lastmod', () => {
    const item = '<item><title>T</title><link>https://a.example/</link><pubDate>yesterday</pubDate></item>';
    assert.equal(fieldOffset(item, 'lastmod', 'rss'), item.indexOf('<pubDate>'));
    assert.equal(fieldOffset('<entry><link href="x"/><updated>u</updated></entry>', 'loc', 'atom'), 7);
  });
  it('line ends of every kind', () => {
    for (const end of ['\n', '\r\n', '\r']) {
      const text = `<url>${end}  <loc>x</loc>${end}${end}  <lastmod>y</lastmod></url>`;
      assert.deepEqual(positionIn(text, text.indexOf('<lastmod>'), { line: 1, column: 9 }), { line: 4, column: 3 });
      assert.deepEqual(positionIn(text, 0, { line: 1, column: 9 }), { line: 1, column: 9 });
    }
  });
});
