import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { crc32, gzipSync } from 'node:zlib';
import { gunzipMembers } from '../../src/read/gzip.ts';

/** The members' output as text, and what followed them. */
async function read(data: Uint8Array): Promise<{ text: string; ignored: number; damage: string | undefined }> {
  const members = gunzipMembers(data, 16 * 1024);
  const output: Uint8Array[] = [];
  let next = await members.next();
  for (; next.done !== true; next = await members.next()) output.push(next.value);
  return { text: Buffer.concat(output).toString(), ignored: next.value.ignored, damage: next.value.damage };
}

/** `gzipSync`'s member with header fields added (RFC 1952, 2.3): FEXTRA, FNAME, FCOMMENT and FHCRC (right, or off by one). */
function withHeaderFields(body: string, headerCrcOff = 0): Buffer {
  const plain = gzipSync(body);
  const header = Buffer.from(plain.subarray(0, 10));
  header[3] = 0x04 | 0x08 | 0x10 | 0x02;
  const extra = Buffer.from([4, 0, 0x41, 0x70, 0, 0]);
  const before = Buffer.concat([header, extra, Buffer.from('sitemap.xml\0comment\0')]);
  const headerCrc = Buffer.alloc(2);
  headerCrc.writeUInt16LE((crc32(before) + headerCrcOff) & 0xffff);
  return Buffer.concat([before, headerCrc, plain.subarray(10)]);
}

describe('gzip members read one after another', () => {
  it('members with every optional header field, then trailing bytes counted as ignored', async () => {
    assert.deepEqual(await read(Buffer.concat([withHeaderFields('<urlset>'), gzipSync('</urlset>'), Buffer.from('tail')])), { text: '<urlset></urlset>', ignored: 4, damage: undefined });
  });
  it('trailing zeros are padding, not ignored bytes', async () => {
    assert.deepEqual(await read(Buffer.concat([gzipSync('a'), Buffer.alloc(9)])), { text: 'a', ignored: 0, damage: undefined });
  });
  it('damage in a member, its header included: the members before it, and why', async () => {
    const wrongCrc = gzipSync('bb');
    wrongCrc[wrongCrc.length - 8] = (wrongCrc[wrongCrc.length - 8] as number) ^ 1;
    const wrongLength = gzipSync('bb');
    wrongLength[wrongLength.length - 1] = (wrongLength[wrongLength.length - 1] as number) ^ 1;
    const reserved = gzipSync('b');
    reserved[3] = 0x20;
    const method = gzipSync('b');
    method[2] = 7;
    // As with gunzip, a member's output is handed on as it comes; its trailer is checked at its end.
    const cases: [Buffer, string, string][] = [
      [wrongCrc, 'abb', 'incorrect data check'],
      [wrongLength, 'abb', 'incorrect length check'],
      [gzipSync('bb').subarray(0, -3), 'abb', 'unexpected end of file'],
      [gzipSync('bb').subarray(0, 6), 'a', 'unexpected end of file'],
      [reserved, 'a', 'unknown header flags set'],
      [method, 'a', 'unknown compression method'],
      [withHeaderFields('bb', 1), 'a', 'header crc mismatch'],
    ];
    for (const [bad, text, damage] of cases) assert.deepEqual(await read(Buffer.concat([gzipSync('a'), bad])), { text, ignored: 0, damage }, damage);
  });
  it('output comes in pieces, and a reader that stops early stops the inflating', async () => {
    const members = gunzipMembers(gzipSync('x'.repeat(1_000_000)), 64 * 1024);
    const first = await members.next();
    assert.equal(first.done, false);
    assert.ok((first.value as Uint8Array).length <= 64 * 1024);
    assert.deepEqual(await members.return({ ignored: 0 }), { done: true, value: { ignored: 0 } });
  });
});
