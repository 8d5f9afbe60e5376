import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { validateSitemap } from '../../src/index.ts';
import { byteByByte, randomSplits, readFixture } from '../helpers/parse.ts';

/** Its entries 1, 2 and 4 share one shape: 1 is read tag by tag (and teaches it), 2 and 4 are taken whole; 3 has a tvshow (R36), so is read tag by tag, with two prices in its second video. */
const FIXTURE = 'video-price.xml';
const DEPRECATED = 'is deprecated and ignored by Google since 2022';
/** R36's findings in the fixture, each at the <video:price> (or <video:tvshow>) it is about. */
const EXPECTED = [
  `R36 warn 10:7 videos[1].prices videos[1].prices ${DEPRECATED}`,
  `R36 warn 20:7 videos[1].prices videos[1].prices ${DEPRECATED}`,
  `R36 warn 36:7 videos[2].tvshow videos[2].tvshow ${DEPRECATED}; ignored here too`,
  `R36 warn 37:7 videos[2].prices videos[2].prices ${DEPRECATED}`,
  'R36 error 38:7 videos[2].prices[2] videos[2].prices[2]: a price needs a non-negative value and an ISO 4217 currency such as "EUR"',
  `R36 warn 48:7 videos[1].prices videos[1].prices ${DEPRECATED}`,
];
/** The fixture with a comment on its first line past the 8 KiB read whole to tell the format, so that cuts in the input reach the reader. */
const padded = (text: string): Uint8Array => new TextEncoder().encode(text.replace('?>\n', `?><!--${'p'.repeat(8200)}-->\n`));
const show = (d: { rule: string; level: string; line?: number; column?: number; field?: string; message: string }): string =>
  `${d.rule} ${d.level} ${d.line}:${d.column} ${d.field} ${d.message}`;
const validate = async (chunks: Iterable<Uint8Array>): Promise<string[]> => (await validateSitemap(chunks)).diagnostics.map(show);

describe('video (R36): the deprecated <video:price>', () => {
  it('is reported at the <video:price> element, on the template path and tag by tag alike, however the input was cut', async () => {
    const text = new TextDecoder().decode(readFixture(FIXTURE));
    const bytes = padded(text);
    const whole = await validate([bytes]);
    assert.deepEqual(whole, EXPECTED);
    assert.deepEqual(await validate(byteByByte(bytes)), whole, 'byte by byte');
    for (let seed = 1; seed <= 10; seed++) assert.deepEqual(await validate(randomSplits(bytes, seed)), whole, `random splits, seed ${seed}`);
    // Where saxes reads (after a DOCTYPE with an internal subset): the same, one line down.
    const saxesBytes = padded(text.replace('?>\n', '?>\n<!DOCTYPE urlset []>\n'));
    const oneLineDown = whole.map((line) => line.replace(/ (\d+):/, (_, l: string) => ` ${Number(l) + 1}:`));
    const saxes = await validate([saxesBytes]);
    assert.deepEqual(saxes.filter((line) => !line.includes('DOCTYPE')), oneLineDown);
    for (let seed = 1; seed <= 3; seed++) assert.deepEqual(await validate(randomSplits(saxesBytes, seed)), saxes, `where saxes reads, random splits, seed ${seed}`);
  });
});
