/**
 * The ceilings under every reader, for context (no target is measured against them): the same
 * files gunzipped only (`gunzip`), then with a byte `indexOf` scan counting `<loc>` (`scan`), then
 * decoded to strings and scanned (`decode`), which is the least a reader that works on strings pays.
 */
import { createReadStream, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createGunzip, gunzipSync } from 'node:zlib';
import { fixtureDir, GUNZIP_CHUNK, localPath, readFixtureMeta } from './read-common.ts';
import { report } from './records.ts';

const dir = fixtureDir();
const mode = process.argv[3] ?? 'gunzip';
if (mode !== 'gunzip' && mode !== 'scan' && mode !== 'decode') throw new Error(`unknown mode ${mode}`);
const LOC = '<loc>';
const LOC_BYTES = Buffer.from(LOC);

const started = process.hrtime.bigint();
// The index is small: a regex over it is enough to list the children.
const indexText = gunzipSync(readFileSync(join(dir, readFixtureMeta(dir).index))).toString('utf8');
const children = [...indexText.matchAll(/<loc>([^<]*)<\/loc>/g)].map((m) => m[1] ?? '');
let urls = 0;
let bytes = 0;
for (const loc of children) {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  // The last few characters of the previous chunk, so a `<loc>` cut in two is still found once.
  let tailBytes: Buffer = Buffer.alloc(0);
  let tail = '';
  await pipeline(createReadStream(localPath(dir, loc)), createGunzip({ chunkSize: GUNZIP_CHUNK }), async (chunks: AsyncIterable<Buffer>) => {
    for await (const chunk of chunks) {
      bytes += chunk.length;
      if (mode === 'scan') {
        const data = tailBytes.length === 0 ? chunk : Buffer.concat([tailBytes, chunk]);
        for (let i = data.indexOf(LOC_BYTES); i !== -1; i = data.indexOf(LOC_BYTES, i + LOC_BYTES.length)) urls++;
        tailBytes = data.subarray(Math.max(0, data.length - (LOC_BYTES.length - 1)));
      } else if (mode === 'decode') {
        const text = tail + decoder.decode(chunk, { stream: true });
        for (let i = text.indexOf(LOC); i !== -1; i = text.indexOf(LOC, i + LOC.length)) urls++;
        tail = text.slice(Math.max(0, text.length - (LOC.length - 1)));
      }
    }
  });
}
if (bytes === 0) throw new Error('nothing read');
// `gunzip` sees no URL: it reports the fixture's count, so the rate compares with the others.
report(mode === 'gunzip' ? 'gunzip only' : mode === 'scan' ? 'gunzip + indexOf <loc>' : 'gunzip + decode + indexOf', mode === 'gunzip' ? readFixtureMeta(dir).urls : urls, started);
