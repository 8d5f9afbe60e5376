import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable, Writable } from 'node:stream';
import { after, test } from 'node:test';
import { run } from '../../src/cli/run.ts';
import { runCli } from '../helpers/cli.ts';
import { startServer } from '../helpers/http-server.ts';

const dir = mkdtempSync(join(tmpdir(), 'sitemapkit-run-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const urlset = (urls: readonly string[]): string => `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls.map((url) => `<url><loc>${url}</loc></url>\n`).join('')}</urlset>\n`;
const pages = (origin: string, count: number): string[] => Array.from({ length: count }, (_, i) => `${origin}/page/${i}`);

/** Standard output that takes `taken` writes, each after a pause (a slow reader), then fails the next one as `failure` says. */
function stdoutFailingAfter(taken: number, failure: NodeJS.ErrnoException): { stream: Writable; chunks: string[] } {
  const chunks: string[] = [];
  const stream = new Writable({
    highWaterMark: 1024,
    write(chunk: Buffer, _encoding, callback) {
      if (chunks.length >= taken) return callback(failure);
      chunks.push(chunk.toString());
      setTimeout(callback, 5);
    },
  });
  return { stream, chunks };
}

function io(stdout: Writable): Parameters<typeof run>[1] & { stderrText: () => string } {
  let stderr = '';
  return {
    stdin: Readable.from([]),
    stdout,
    stderr: new Writable({
      write(chunk: Buffer, _encoding, callback) {
        stderr += chunk.toString();
        callback();
      },
    }),
    cwd: dir,
    stderrText: () => stderr,
  };
}

test('help <command> is the command\'s own help, with its options; the list shows every command with its operands', async () => {
  for (const name of ['build', 'parse', 'validate', 'discover', 'changes']) {
    const help = await runCli(['help', name], { cwd: dir });
    assert.deepEqual(help, await runCli([name, '--help'], { cwd: dir }), name);
    assert.match(help.stdout, /\n {2}--json +print /, name);
  }
  const list = await runCli(['--help'], { cwd: dir });
  assert.deepEqual(
    list.stdout.split('\n').filter((line) => /^ {2}[a-z]/.test(line)).map((line) => line.trim().split(/ {2,}/)[0]),
    ['build [options]', 'parse [options] <source>', 'validate [options] <source>', 'discover [options] <site-url>', 'changes [options]', 'help [command]'],
  );
});

test('the reader of standard output leaving (EPIPE) stops the command with 141, quietly; what it took is all it got', async () => {
  const file = join(dir, 'big.xml');
  writeFileSync(file, urlset(pages('https://a.example', 20_000)));
  const { stream, chunks } = stdoutFailingAfter(2, Object.assign(new Error('write EPIPE'), { code: 'EPIPE' }));
  const cli = io(stream);
  assert.equal(await run(['parse', file], cli), 141);
  assert.equal(cli.stderrText(), '');
  // Two blocks of whole lines, the first URLs in order.
  const lines = chunks.join('').split('\n');
  assert.equal(lines.pop(), '');
  assert.deepEqual(lines, pages('https://a.example', lines.length));
  assert.equal(chunks.length, 2);
});

test('any other failure of standard output is not taken for a reader that left: one sentence on standard error, exit 1', async () => {
  const file = join(dir, 'small.xml');
  writeFileSync(file, urlset(pages('https://a.example', 3)));
  const { stream } = stdoutFailingAfter(0, Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC', syscall: 'write' }));
  const cli = io(stream);
  assert.equal(await run(['parse', file], cli), 1);
  assert.equal(cli.stderrText(), 'sitemapkit: the system failed an operation: ENOSPC: no space left on device, write (SITEMAPKIT_DEBUG=1 prints where it came from)\n');
});

test('a failure no command expected is one sentence asking for a report, not a crash; with debug, its stack follows', async () => {
  const file = join(dir, 'small.xml');
  writeFileSync(file, urlset(pages('https://a.example', 3)));
  const quiet = io(stdoutFailingAfter(0, new Error('stream broke')).stream);
  assert.equal(await run(['parse', file], quiet), 1);
  assert.equal(quiet.stderrText(), 'sitemapkit: unexpected failure, a bug in sitemapkit: stream broke (please report it with the command that caused it; SITEMAPKIT_DEBUG=1 prints where it came from)\n');
  const debug = { ...io(stdoutFailingAfter(0, new Error('stream broke')).stream), debug: true };
  assert.equal(await run(['parse', file], debug), 1);
  assert.match(debug.stderrText(), /^sitemapkit: unexpected failure, a bug in sitemapkit: stream broke \(please report it with the command that caused it\)\nError: stream broke\n {4}at /);
});

test('discover --urls hands page URLs over in blocks as they are read, waiting for a slow reader, all of them in order', async () => {
  const server = await startServer((request, response, origin) => {
    if (request.url === '/sitemap.xml') return void response.writeHead(200).end(urlset(pages(origin, 10_000)));
    response.writeHead(404).end();
  });
  try {
    const { stream, chunks } = stdoutFailingAfter(Infinity, new Error('unused'));
    const cli = io(stream);
    assert.equal(await run(['discover', server.origin, '--urls'], cli), 0);
    // Blocks of whole lines, each cut once it reaches 64 KiB, then the rest.
    const blocks = [''];
    for (const url of pages(server.origin, 10_000)) {
      blocks[blocks.length - 1] += `${url}\n`;
      if ((blocks.at(-1) as string).length >= 64 * 1024) blocks.push('');
    }
    assert.deepEqual(chunks, blocks);
    // Whatever the port's length, several blocks were full.
    assert.ok(blocks.length >= 5, String(blocks.length));
    assert.match(cli.stderrText(), /\nFound 1 sitemap listing 10,000 URLs\.\n$/);
  } finally {
    await server.close();
  }
});

test('discover --urls from sitemaps read at once, each filling blocks, into a slow reader: every URL is printed once, and the run ends', async () => {
  const children = 12;
  const each = 4_000;
  let requests = 0;
  const server = await startServer((request, response, origin) => {
    requests++;
    if (request.url === '/sitemap.xml') {
      const list = Array.from({ length: children }, (_, i) => `<sitemap><loc>${origin}/s/${i}.xml</loc></sitemap>`).join('');
      return void response.writeHead(200).end(`<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${list}</sitemapindex>`);
    }
    const child = /^\/s\/(\d+)\.xml$/.exec(request.url ?? '')?.[1];
    if (child !== undefined) return void response.writeHead(200).end(urlset(pages(`${origin}/${child}`, each)));
    response.writeHead(404).end();
  });
  try {
    const { stream, chunks } = stdoutFailingAfter(Infinity, new Error('unused'));
    const cli = io(stream);
    assert.equal(await run(['discover', server.origin, '--urls', '--concurrency', '4'], cli), 0);
    const printed = chunks.join('').split('\n').slice(0, -1);
    const expected = Array.from({ length: children }, (_, i) => pages(`${server.origin}/${i}`, each)).flat();
    assert.equal(printed.length, expected.length);
    assert.deepEqual(new Set(printed), new Set(expected));
    // Blocks are whole lines, and each child's URLs keep their order.
    for (let i = 0; i < children; i++) assert.deepEqual(printed.filter((url) => url.startsWith(`${server.origin}/${i}/`)), pages(`${server.origin}/${i}`, each));
    assert.ok(requests <= children + 10, `${requests} requests`); // the index, robots.txt and the well-known paths besides
  } finally {
    await server.close();
  }
});
