/** Folders made one level at a time, so a file system that will not make one is a refusal, never a hang. */
import { mkdir, stat } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import type { SitemapError } from '../errors.ts';

/**
 * Creates `target` and its missing parents one level at a time. Node's recursive mkdir never ends
 * where mkdir answers ENOENT under a folder that exists (as in /proc): it makes the parent, which
 * exists, and tries again. Here a level that cannot be made under an existing one is `refuse`d.
 * `onMade` is told the outermost folder made, so a run that publishes nothing can remove it again.
 */
export async function makeFolders(
  target: string,
  onMade: (first: string) => void,
  refuse: (parent: string, level: string, cause: unknown) => SitemapError,
): Promise<void> {
  const missing: string[] = [];
  let folder = resolve(target);
  // Up to the nearest folder that exists: at most one step a path segment.
  for (;;) {
    try {
      await stat(folder);
      break;
    } catch (error) {
      if ((error as { code?: unknown }).code !== 'ENOENT' || dirname(folder) === folder) throw error;
    }
    missing.push(folder);
    folder = dirname(folder);
  }
  let made = false;
  for (const level of missing.reverse()) {
    try {
      await mkdir(level);
      if (!made) onMade(level);
      made = true;
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      if (code === 'EEXIST' && (await stat(level)).isDirectory()) continue; // another run made it meanwhile
      if (code === 'ENOENT') throw refuse(dirname(level), level, error);
      throw error;
    }
  }
}
