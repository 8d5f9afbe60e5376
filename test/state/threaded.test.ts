import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { isSitemapError } from '../../src/errors.ts';
import { openSqliteState } from '../../src/state/sqlite.ts';
import type { UrlWrite } from '../../src/state/store.ts';
import { ThreadedStateStore } from '../../src/state/threaded.ts';
import { tempDirs } from '../helpers/temp-dir.ts';

const tempDir = tempDirs('state-threaded');
const owner = { pid: process.pid, host: 'here', started: 1_000 };

const row = (id: number, extra: Partial<UrlWrite> = {}): UrlWrite => ({
  id, url: `https://example.com/${id}`, fingerprint: undefined, bare: id * 7, xml: '</url>\n', bytes: 40, nsBits: 0, hasNews: false, lastmod: undefined, lastmodEpoch: undefined,
  slot: 0, changedAt: undefined, addedAt: 1_000, replaces: undefined, update: false, changed: false, path: undefined, ...extra,
});

test('the store on a worker thread: rows written ahead cross whole (undefined, strings, NaN-free numbers), lookups and batches come back, a commit is kept', async () => {
  const path = join(await tempDir(), 'state.db');
  const store = await ThreadedStateStore.open(path);
  try {
    const start = await store.begin({ owner, now: 1_000, wasPublished: async () => false });
    assert.equal(start.maxId, 0);
    // More rows than one message takes, so some go before the lookup and the rest with it.
    const rows = Array.from({ length: 5_000 }, (_, k) => row(k + 1, k === 2 ? { fingerprint: 'ünïcode ✓', lastmod: '2026-11-28T10:15:42+00:00', lastmodEpoch: 1_764_324_942_000, path: 'a/b.html', hasNews: true, nsBits: 3 } : {}));
    for (let at = 0; at < rows.length; at += 256) await store.write(rows.slice(at, at + 256));
    const [third, missing] = await store.lookup(['https://example.com/3', 'https://example.com/none']);
    assert.deepEqual(third, { id: 3, url: 'https://example.com/3', fingerprint: 'ünïcode ✓', bare: 21, lastmod: '2026-11-28T10:15:42+00:00', changedAt: undefined, slot: 0, goneSince: undefined, bytes: 40, hasNews: true });
    assert.equal(missing, undefined);
    let alive = 0;
    for await (const batch of store.alive(10_000)) alive += batch.length;
    assert.equal(alive, 5_000);
    await store.commit([{ slot: 0, name: 'sitemap-1.xml', urls: 5_000, body: 200_000, bytes: 200_100, news: 1, nsBits: 3, newestLastmod: undefined, newestEpoch: undefined, run: 1 }], 'format', 'scheme');
    await store.published();
  } finally {
    await store.close();
  }
  const again = await openSqliteState(path);
  try {
    assert.equal(again.isEmpty(), false);
    const start = await again.begin({ owner, now: 2_000, wasPublished: async () => false });
    assert.deepEqual([start.maxId, start.alive, start.format, start.scheme], [5_000, 5_000, 'format', 'scheme']);
    await again.abort();
  } finally {
    again.close();
  }
});

test('a write that fails on the worker fails the next call, so nothing after it commits; the state is left as it was', async () => {
  const path = join(await tempDir(), 'state.db');
  const store = await ThreadedStateStore.open(path);
  try {
    await store.begin({ owner, now: 1_000, wasPublished: async () => false });
    // Two rows under one id: the second breaks the primary key.
    await store.write([row(1), row(2), row(2)]);
    await assert.rejects(store.commit([], 'format', 'scheme'), (error: unknown) => isSitemapError(error) && error.code === 'SM_STATE_UNREADABLE' && /constraint failed/.test(error.message));
    await assert.rejects(store.published(), (error: unknown) => isSitemapError(error));
    await store.abort();
  } finally {
    await store.close();
  }
  const again = await openSqliteState(path);
  try {
    assert.equal(again.isEmpty(), true);
  } finally {
    again.close();
  }
});
