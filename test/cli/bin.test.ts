import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { closeSync, openSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDirs } from '../helpers/temp-dir.ts';

const tempDir = tempDirs('bin');

test('a reader that closes the pipe early (`| head -1`) ends the CLI quietly with the SIGPIPE status, not an EPIPE trace', async () => {
  const urls = Array.from({ length: 200_000 }, (_, i) => `<url><loc>https://www.example.com/p/${i}</loc></url>`).join('\n');
  const dir = await tempDir();
  const file = join(dir, 'sitemap.xml.gz');
  writeFileSync(file, gzipSync(`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls}\n</urlset>\n`));
  const bin = fileURLToPath(new URL('../../src/bin.ts', import.meta.url));
  const child = spawn(process.execPath, [bin, 'parse', file], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const first = await new Promise<string>((resolve) => child.stdout.once('data', (chunk: Buffer) => resolve(chunk.toString().split('\n')[0] ?? '')));
  child.stdout.destroy();
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  assert.equal(first, 'https://www.example.com/p/0');
  // 128 + SIGPIPE, as for any Unix tool whose reader left: cut short is not success.
  assert.equal(code, 141);
  assert.doesNotMatch(stderr, /EPIPE|Unhandled/);
});

test('a folder as stdin (`parse - < dir`) is said to be one, for every command that reads stdin, not read as an empty file', async () => {
  const bin = fileURLToPath(new URL('../../src/bin.ts', import.meta.url));
  const dir = await tempDir();
  for (const args of [['parse', '-'], ['validate', '-'], ['build', '--input', '-', '--out', join(dir, 'out'), '--base-url', 'https://a.example/']]) {
    const folder = openSync(dir, 'r');
    try {
      const child = spawnSync(process.execPath, [bin, ...args], { stdio: [folder, 'pipe', 'pipe'], encoding: 'utf8' });
      assert.deepEqual([child.status, child.stdout, child.stderr], [1, '', 'sitemapkit: cannot read stdin: it is a folder\n'], args.join(' '));
    } finally {
      closeSync(folder);
    }
  }
});
