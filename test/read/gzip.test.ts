import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { gzipSync } from 'node:zlib';
import { gunzipMembers } from '../../src/read/gzip.ts';

const text = (members: { output: Uint8Array[] }): string => Buffer.concat(members.output).toString();

/** `gzipSync`'s member with header fields added (RFC 1952, 2.3): FEXTRA, FNAME, FCOMMENT and FHCRC. */
function withHeaderFields(body: string): Buffer {
  const plain = gzipSync(body);
  const header = Buffer.from(plain.subarray(0, 10));
  header[3] = 0x04 | 0x08 | 0x10 | 0x02;
  const extra = Buffer.from([4, 0, 0x41, 0x70, 0, 0]);
  const fields = Buffer.concat([extra, Buffer.from('sitemap.xml\0comment\0'), Buffer.from([0x12, 0x34])]);
  return Buffer.concat([header, fields, plain.subarray(10)]);
}

describe('gzip members read one after another', () => {
  it('members with every optional header field, then trailing bytes counted as ignored', () => {
    const members = gunzipMembers(Buffer.concat([withHeaderFields('<urlset>'), gzipSync('</urlset>'), Buffer.from('tail')]), 1000);
    assert.deepEqual([text(members), members.outputBytes, members.ignored, members.damage], ['<urlset></urlset>', 17, 4, undefined]);
  });
  it('trailing zeros are padding, not ignored bytes', () => {
    assert.equal(gunzipMembers(Buffer.concat([gzipSync('a'), Buffer.alloc(9)]), 10).ignored, 0);
  });
  it('a header that does not hold up (reserved flags, another method, cut short) starts no member', () => {
    const reserved = gzipSync('b');
    reserved[3] = 0x20;
    const method = gzipSync('b');
    method[2] = 7;
    for (const bad of [reserved, method, gzipSync('b').subarray(0, 6)]) {
      const members = gunzipMembers(Buffer.concat([gzipSync('a'), bad]), 10);
      assert.deepEqual([text(members), members.ignored, members.damage], ['a', bad.length, undefined]);
    }
  });
  it('damage in a member: the members before it, and why', () => {
    const wrongCrc = gzipSync('bb');
    wrongCrc[wrongCrc.length - 8] = (wrongCrc[wrongCrc.length - 8] as number) ^ 1;
    const wrongLength = gzipSync('bb');
    wrongLength[wrongLength.length - 1] = (wrongLength[wrongLength.length - 1] as number) ^ 1;
    const cases: [Buffer, string][] = [
      [wrongCrc, 'incorrect data check'],
      [wrongLength, 'incorrect length check'],
      [gzipSync('bb').subarray(0, -3), 'unexpected end of file'],
    ];
    for (const [bad, damage] of cases) {
      const members = gunzipMembers(Buffer.concat([gzipSync('a'), bad]), 10);
      assert.deepEqual([text(members), members.damage], ['a', damage]);
    }
  });
  it('output past the bound is damage, not memory', () => {
    const members = gunzipMembers(gzipSync('x'.repeat(100_000)), 1000);
    assert.equal(members.outputBytes, 0);
    assert.match(members.damage ?? '', /1000/);
  });
});
