/** Temporary folders for a test file, removed when its tests end. */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after } from 'node:test';

export function tempDirs(prefix: string): () => Promise<string> {
  const dirs: string[] = [];
  after(async () => Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true }))));
  return async () => {
    const dir = await mkdtemp(join(tmpdir(), `sitemapkit-${prefix}-`));
    dirs.push(dir);
    return dir;
  };
}
