import assert from 'node:assert/strict';
import { test } from 'node:test';
import { crc32, gunzipSync } from 'node:zlib';
import fc from 'fast-check';
import { crc32Combine, streamingGzip } from '../../src/publish/gzip.ts';

test('crc32Combine gives the CRC-32 of the concatenation', () => {
  fc.assert(
    fc.property(fc.uint8Array({ maxLength: 64 }), fc.uint8Array({ maxLength: 5000 }), (a, b) => {
      assert.equal(crc32Combine(crc32(a), crc32(b), b.length), crc32(Buffer.concat([a, b])));
    }),
    { seed: 11, numRuns: 300 },
  );
});

test('a head joined after the body gives one gzip member holding head + body + tail', async () => {
  const encoder = new TextEncoder();
  const head = encoder.encode('<?xml version="1.0" encoding="UTF-8"?>\n<urlset>\n');
  const chunks = Array.from({ length: 12 }, (_, n) => encoder.encode(`<url><loc>https://example.com/${n}/</loc></url>\n`.repeat(1500)));
  const tail = encoder.encode('</urlset>\n');
  const gzip = streamingGzip(6);
  for (const chunk of chunks) await gzip.write(chunk);
  const file = Buffer.concat(await gzip.finish(head, tail));
  const expected = Buffer.concat([head, ...chunks, tail]);
  assert.ok(gunzipSync(file).equals(expected));
  // One member: the trailer covers all of it (a reader that stops after the first member sees everything).
  assert.equal(file.readUInt32LE(file.length - 8), crc32(expected));
  assert.equal(file.readUInt32LE(file.length - 4), expected.length);
});
