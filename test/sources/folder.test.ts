import assert from 'node:assert/strict';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'node:test';
import { readSiteFolder, type FileVerdict } from '../../src/sources/folder.ts';
import { tempDirs } from '../helpers/temp-dir.ts';

const tempDir = tempDirs('folder');

async function site(pages: number): Promise<string> {
  const root = join(await tempDir(), 'site');
  await mkdir(root, { recursive: true });
  await Promise.all(Array.from({ length: pages }, (_, i) => writeFile(join(root, `p${String(i).padStart(4, '0')}.html`), `<html><head><title>${i}</title>${i % 10 === 3 ? '<meta name="robots" content="noindex">' : ''}</head><body><p>Page ${i}</p></body></html>`)));
  return root;
}

test('with workers allowed (they take batches once booted) or none: the same verdicts, records and fingerprints, in walk order', async () => {
  const root = await site(700);
  const collect = async (workers: number): Promise<FileVerdict[]> => {
    const out: FileVerdict[] = [];
    for await (const verdict of readSiteFolder({ root, baseUrl: 'https://example.com/', workers })) out.push(verdict);
    return out;
  };
  const inline = await collect(0);
  assert.equal(inline.length, 700);
  assert.equal(inline.filter((v) => v.verdict === 'noindex').length, 70);
  assert.deepEqual(inline.slice(0, 2).map((v) => v.path), ['p0000.html', 'p0001.html']);
  const listed = inline.filter((v) => v.record !== undefined);
  assert.deepEqual(listed.map((v) => v.record?.line), Array.from({ length: 630 }, (_, i) => i + 1));
  assert.match(listed[0]?.record?.fingerprint ?? '', /^[0-9a-f]{40}$/);
  assert.equal(new Set(listed.map((v) => v.record?.fingerprint)).size, 630);
  assert.deepEqual(await collect(2), inline);
});

test('a page gone between the walk and its reading fails the run naming it, from a worker or from this thread', async () => {
  for (const workers of [0, 2]) {
    const root = await site(1000);
    const verdicts = readSiteFolder({ root, baseUrl: 'https://example.com/', workers });
    assert.equal((await verdicts.next()).value?.path, 'p0000.html');
    await rm(join(root, 'p0998.html'));
    await assert.rejects(
      (async () => {
        for await (const verdict of verdicts) void verdict;
      })(),
      (error: Error & { code?: string }) => error.code === 'SM_INPUT_UNREADABLE' && error.message === `cannot read page "p0998.html" in folder "${root}": it does not exist`,
      `workers ${workers}`,
    );
  }
});

test('the worker: says it is ready, answers a batch with the verdicts this thread gives, and a failure with its code and sentence', async () => {
  const { Worker } = await import('node:worker_threads');
  const { makeJudge } = await import('../../src/sources/site-judge.ts');
  const root = await site(20);
  const options = { root, baseUrl: 'https://example.com/', cleanUrls: true };
  const worker = new Worker(new URL('../../src/sources/site-worker.ts', import.meta.url), { workerData: options });
  const messages: unknown[] = [];
  const next = (): Promise<unknown> => new Promise((resolve) => worker.once('message', resolve));
  try {
    messages.push(await next());
    const paths = Array.from({ length: 20 }, (_, i) => `p${String(i).padStart(4, '0')}.html`);
    worker.postMessage({ seq: 7, paths });
    messages.push(await next());
    worker.postMessage({ seq: 8, paths: ['p0001.html', 'missing.html'] });
    messages.push(await next());
    const judge = await makeJudge(options);
    assert.deepEqual(messages, [
      'ready',
      { seq: 7, verdicts: paths.map(judge) },
      { seq: 8, error: { code: 'SM_INPUT_UNREADABLE', message: `cannot read page "missing.html" in folder "${root}": it does not exist` } },
    ]);
  } finally {
    await worker.terminate();
  }
});

test('character references in the values read are decoded (entities, loaded at the first one), on this thread and in a worker; a byte order mark is no content', async () => {
  const { Worker } = await import('node:worker_threads');
  const root = join(await tempDir(), 'site');
  await mkdir(join(root, 'y'), { recursive: true });
  await writeFile(join(root, 'x.html'), '<html><head><link rel="canonical" href="https://example.com/y/?a=1&amp;b=2&#x26;c"></head><body></body></html>');
  await writeFile(join(root, 'y/index.html'), '\ufeff<html><head><meta name="robots" content="noindex&#44; follow"></head></html>');
  await writeFile(join(root, 'z.html'), '<html><head><title>Z</title></head><body><p>z</p></body></html>');
  await writeFile(join(root, 'bom.html'), '\ufeff<html><head><title>Z</title></head><body><p>z</p></body></html>');
  const options = { root, baseUrl: 'https://example.com/', workers: 0 };
  const verdicts: FileVerdict[] = [];
  for await (const verdict of readSiteFolder(options)) verdicts.push(verdict);
  const by = new Map(verdicts.map((v) => [v.path, v]));
  assert.equal(by.get('x.html')?.reason, 'canonical is https://example.com/y/?a=1&b=2&c');
  assert.equal(by.get('y/index.html')?.verdict, 'noindex');
  assert.equal(by.get('bom.html')?.record?.fingerprint, by.get('z.html')?.record?.fingerprint);
  // A worker's judge loads entities on its own thread: the same verdicts (records are numbered by the caller).
  const worker = new Worker(new URL('../../src/sources/site-worker.ts', import.meta.url), { workerData: options });
  try {
    const next = (): Promise<unknown> => new Promise((resolve) => worker.once('message', resolve));
    assert.equal(await next(), 'ready');
    worker.postMessage({ seq: 1, paths: verdicts.map((v) => v.path) });
    const reply = (await next()) as { verdicts: FileVerdict[] };
    for (const v of reply.verdicts) if (v.record !== undefined) v.record.line = (by.get(v.path)?.record?.line as number);
    assert.deepEqual(reply.verdicts, verdicts);
  } finally {
    await worker.terminate();
  }
});
