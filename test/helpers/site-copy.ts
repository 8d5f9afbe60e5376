/** A static-site fixture copied into a fresh folder (as `site/`), so each test's output and report stay its own; and the `<loc>`s of a file. */
import { cp } from 'node:fs/promises';
import { join } from 'node:path';

export async function siteCopyOf(fixture: string, tempDir: () => Promise<string>): Promise<string> {
  const cwd = await tempDir();
  await cp(fixture, join(cwd, 'site'), { recursive: true });
  return cwd;
}

export const locs = (xml: string): string[] => [...xml.matchAll(/<loc>([^<]*)<\/loc>/g)].map((m) => m[1] ?? '');
