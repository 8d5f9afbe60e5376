/** What the reader asks of its source and caller: a base that is a URL, a stream let go when reading stops. */
import assert from 'node:assert/strict';
import { createReadStream, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { parseSitemap, validateSitemap } from '../../src/index.ts';

describe('regressions', () => {
  it('a base that is no URL is a SitemapError (SM_BAD_BASE_URL) for parse and validate, not a TypeError', async () => {
    assert.throws(() => parseSitemap(new Uint8Array(0), { base: 'http://' }), { code: 'SM_BAD_BASE_URL' });
    await assert.rejects(validateSitemap(new Uint8Array(0), { base: 'not a url' }), { code: 'SM_BAD_BASE_URL' });
  });
  it('a source left early is let go: a file stream is destroyed (its descriptor closed) when reading stops, or when the consumer breaks off', async (t) => {
    const path = join(tmpdir(), `sitemapkit-left-early-${process.pid}.xml`);
    t.after(() => rmSync(path, { force: true }));
    // An HTML page that is not well-formed either: reading stops at its first fault, with plenty more to come.
    writeFileSync(path, `<html><body>${'<p>Salt & pepper</p>\n'.repeat(20_000)}</body></html>`);
    const stopped = createReadStream(path, { highWaterMark: 16 * 1024 });
    const parsed = parseSitemap(stopped);
    for await (const entry of parsed) assert.ok(entry.loc);
    assert.deepEqual(parsed.counts, { 'R5:error': 1, 'R2:error': 1 });
    assert.ok(parsed.bytes < 200_000, `read ${parsed.bytes} bytes`);
    // Before, the stream was left open, and its descriptor closed only by the garbage collector, with a warning.
    assert.equal(stopped.destroyed, true);
    const brokenOff = createReadStream(path, { highWaterMark: 16 * 1024 });
    for await (const entry of parseSitemap(brokenOff)) if (entry.loc !== '') break;
    assert.equal(brokenOff.destroyed, true);
  });
});
