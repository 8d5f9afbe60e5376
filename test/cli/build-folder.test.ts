import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { runCli } from '../helpers/cli.ts';
import { tempDirs } from '../helpers/temp-dir.ts';

const tempDir = tempDirs('cli-folder');
const BASE = ['--base-url', 'https://example.com/'];

test('bad options exit 2 and create neither the output folder nor a staging folder', async () => {
  const cwd = await tempDir();
  await writeFile(join(cwd, 'five.txt'), Array.from({ length: 5 }, (_, i) => `https://example.com/${i}\n`).join(''));
  for (const bad of [['--max-urls', '0'], ['--max-urls', '60000'], ['--max-bytes', '60000000'], ['--filename', 'a/b']]) {
    const result = await runCli(['build', '-i', 'five.txt', '-o', 'out', ...BASE, ...bad], { cwd });
    assert.equal(result.code, 2, bad.join(' '));
    assert.deepEqual(await readdir(cwd), ['five.txt'], bad.join(' '));
  }
});

test('two builds into one folder at once, from two processes with different --filename, both publish', async () => {
  const cwd = await tempDir();
  await writeFile(join(cwd, 'blog.txt'), Array.from({ length: 5 }, (_, i) => `https://example.com/blog/${i}\n`).join(''));
  const bin = fileURLToPath(new URL('../../src/bin.ts', import.meta.url));
  const products = spawn(process.execPath, [bin, 'build', '-i', '-', '-o', 'out', ...BASE, '--filename', 'products', '--json'], { cwd, stdio: ['pipe', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  products.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  products.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => products.on('close', resolve));
  // Enough for a 64 KiB body chunk: the run has opened its staging folder and waits for more input.
  products.stdin.write(Array.from({ length: 3000 }, (_, i) => `https://example.com/products/${i}\n`).join(''));
  const out = join(cwd, 'out');
  for (let tries = 0; !(await readdir(out).catch(() => [])).some((name) => name.startsWith('.sitemapkit-staging-')); tries++) {
    assert.ok(tries < 200, `no staging folder appeared; stderr: ${stderr}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const blog = await runCli(['build', '-i', 'blog.txt', '-o', 'out', ...BASE, '--filename', 'blog'], { cwd });
  assert.equal(blog.code, 0, blog.stderr);
  products.stdin.end('https://example.com/products/last\n');
  assert.equal(await exited, 0, stderr);
  assert.equal((JSON.parse(stdout) as { urls: number }).urls, 3001);
  assert.deepEqual((await readdir(out)).sort(), ['.sitemapkit-blog.json', '.sitemapkit-products.json', 'blog.xml', 'products.xml']);
  assert.match(await readFile(join(out, 'products.xml'), 'utf8'), /products\/last/);
});

test('an output folder the file system will not create (under /proc) is refused in one sentence, exit 1, without hanging', { skip: process.platform !== 'linux', timeout: 60_000 }, async () => {
  const cwd = await tempDir();
  await writeFile(join(cwd, 'five.txt'), Array.from({ length: 5 }, (_, i) => `https://example.com/${i}\n`).join(''));
  const bin = fileURLToPath(new URL('../../src/bin.ts', import.meta.url));
  // A child process with a deadline: a run that spins forever is killed and shows as a null status.
  const result = spawnSync(process.execPath, [bin, 'build', '-i', 'five.txt', '-o', '/proc/sitemapkit-out/maps', ...BASE], { cwd, encoding: 'utf8', timeout: 30_000 });
  assert.equal(result.status, 1, `status ${result.status}, signal ${result.signal}`);
  assert.equal(result.stderr, 'sitemapkit: cannot write to output folder "/proc/sitemapkit-out/maps": the file system at "/proc" does not allow creating the folder "/proc/sitemapkit-out"\n');
  assert.equal(result.stdout, '');
});
