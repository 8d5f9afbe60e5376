import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseSitemap, validateSitemap } from '../../src/index.ts';
import type { VideoRecord } from '../../src/model/record.ts';
import { byteByByte, parseChunks, randomSplits, readFixture } from '../helpers/parse.ts';

/** Its entries 1–3, 6 and 8 share one shape (learnt, then taken whole); 4, 5 (two videos) and 7 break R36 (a repeat, a deprecated part) and are read tag by tag. */
const FIXTURE = 'video-repeats-deprecated.xml';
const DEPRECATED = 'is deprecated and ignored by Google since 2022; ignored here too';
/** R36's findings in the fixture, each at the element it is about. */
const EXPECTED = [
  `R36 error 44:7 videos[1].restriction more than one <video:restriction> in a <video:video>; the first is kept`,
  `R36 error 46:7 videos[1].platform more than one <video:platform> in a <video:video>; the first is kept`,
  `R36 warn 55:7 videos[1].player_loc the allow_embed attribute of videos[1].player_loc ${DEPRECATED}`,
  `R36 warn 55:7 videos[1].player_loc the autoplay attribute of videos[1].player_loc ${DEPRECATED}`,
  `R36 warn 57:7 videos[1].tvshow videos[1].tvshow ${DEPRECATED}`,
  `R36 warn 69:7 videos[2].tvshow videos[2].tvshow ${DEPRECATED}`,
  `R36 error 71:7 videos[2].platform more than one <video:platform> in a <video:video>; the first is kept`,
  `R36 warn 91:7 videos[1].player_loc the autoplay attribute of videos[1].player_loc ${DEPRECATED}`,
  `R36 warn 93:7 videos[1].tvshow videos[1].tvshow ${DEPRECATED}`,
];
/** The fixture with a comment on its first line past the 8 KiB read whole to tell the format, so that cuts in the input reach the reader. */
const padded = (text: string): Uint8Array => new TextEncoder().encode(text.replace('?>\n', `?><!--${'p'.repeat(8200)}-->\n`));
const show = (d: { rule: string; level: string; line?: number; column?: number; field?: string; message: string }): string =>
  `${d.rule} ${d.level} ${d.line}:${d.column} ${d.field} ${d.message}`;

describe('video (R36): a second restriction or platform, and the deprecated tvshow and player_loc attributes', () => {
  it('are reported at their elements, on the template path and tag by tag alike, however the input was cut', async () => {
    const text = new TextDecoder().decode(readFixture(FIXTURE));
    const bytes = padded(text);
    const read = async (chunks: Iterable<Uint8Array>): Promise<string[]> => {
      const parsed = parseSitemap(chunks, { trackPositions: true });
      const places: string[] = [];
      for await (const entry of parsed) places.push(`${entry.loc} ${parsed.positionOf(entry)?.line}`);
      return [...places, ...parsed.diagnostics.map(show)];
    };
    const whole = await read([bytes]);
    assert.deepEqual(whole.slice(8), EXPECTED);
    assert.deepEqual(await read(byteByByte(bytes)), whole, 'byte by byte');
    for (let seed = 1; seed <= 10; seed++) assert.deepEqual(await read(randomSplits(bytes, seed)), whole, `random splits, seed ${seed}`);
    // Where saxes reads (after a DOCTYPE with an internal subset): the same, one line down.
    const saxesBytes = padded(text.replace('?>\n', '?>\n<!DOCTYPE urlset []>\n'));
    const oneLineDown = whole.map((line) => line.replace(/ (\d+)(:\d+)?( |$)/, (_, l: string, c = '', after: string) => ` ${Number(l) + 1}${c}${after}`));
    const saxes = await read([saxesBytes]);
    assert.deepEqual(saxes.filter((line) => !line.includes('DOCTYPE')), oneLineDown);
    for (let seed = 1; seed <= 3; seed++) assert.deepEqual(await read(randomSplits(saxesBytes, seed)), saxes, `where saxes reads, random splits, seed ${seed}`);
  });

  it('keep the first restriction and platform, and leave the deprecated parts out of the record', async () => {
    const { entries } = await parseChunks([readFixture(FIXTURE)]);
    const videos = (entries as { loc: string; videos: VideoRecord[] }[]).map((entry) => entry.videos);
    assert.equal(videos.length, 8);
    const [fourth] = videos[3] as VideoRecord[];
    assert.deepEqual([fourth?.restriction, fourth?.platform], [{ relationship: 'allow', countries: ['IE', 'GB'] }, { relationship: 'allow', platforms: ['web'] }]);
    const [fifth, sixth] = videos[4] as VideoRecord[];
    assert.deepEqual(fifth, {
      thumbnail_loc: 'https://cdn.example.com/5.jpg',
      title: 'Video 5',
      description: 'About video 5',
      player_loc: 'https://www.example.com/player?v=5',
      restriction: { relationship: 'allow', countries: ['IE', 'GB'] },
      platform: { relationship: 'allow', platforms: ['web', 'tv'] },
    });
    assert.deepEqual(sixth?.platform, { relationship: 'allow', platforms: ['web'] });
    // The entries that break no rule are read as the first.
    for (const n of [0, 1, 2, 5, 7]) assert.deepEqual(Object.keys((videos[n] as VideoRecord[])[0] as VideoRecord), Object.keys((videos[0] as VideoRecord[])[0] as VideoRecord));
  });

  it('validate reports each once, with the other video findings, and no more', async () => {
    const result = await validateSitemap(readFixture(FIXTURE));
    assert.deepEqual(result.diagnostics.map(show), EXPECTED);
    assert.equal(result.valid, false);
    // A field the record keeps (category, gallery_loc, price) is the validator's to call deprecated, and only its.
    const ns = 'xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:video="http://www.google.com/schemas/sitemap-video/1.1"';
    const video = '<video:thumbnail_loc>https://a.example/t.jpg</video:thumbnail_loc><video:title>T</video:title><video:description>D</video:description><video:content_loc>https://a.example/v.mp4</video:content_loc>';
    const body = `<url><loc>https://a.example/</loc><video:video>${video}<video:category>C</video:category><video:price currency="EUR">1</video:price><video:tvshow><video:show_title>S</video:show_title></video:tvshow></video:video></url>`;
    const kept = await validateSitemap(new TextEncoder().encode(`<urlset ${ns}>\n${body}\n</urlset>`));
    assert.deepEqual(kept.diagnostics.map((d) => `${d.rule} ${d.level} ${d.field} ${d.message}`).sort(), [
      'R36 warn videos[1].category videos[1].category is deprecated and ignored by Google since 2022',
      'R36 warn videos[1].prices videos[1].prices is deprecated and ignored by Google since 2022',
      `R36 warn videos[1].tvshow videos[1].tvshow ${DEPRECATED}`,
    ]);
  });
});
