/**
 * Publishes a sitemap set into a folder atomically. Files are staged in a hidden folder inside the
 * output folder (same file system, so renames are atomic), then a commit marker is written and the
 * files are renamed into place, entry point last; files of the previous set that the new one no
 * longer has are removed. A run that dies before the marker leaves the old set untouched; one that
 * dies after it is rolled forward by the next run. Either way the next run clears the staging folder.
 */
import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { access, constants, mkdir, open, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGzip, constants as zlibConstants } from 'node:zlib';
import { SitemapError } from '../errors.ts';
import type { SitemapSink } from '../write/build.ts';

const STAGING_PREFIX = '.sitemapkit-staging-';
const COMMIT_MARKER = 'COMMIT.json';

export interface DirectorySinkOptions {
  /** Compress each file with gzip. */
  gzip: boolean;
  /** The file name stem, to recognise files of an earlier set. */
  filename: string;
  /** zlib level. @default 6 */
  gzipLevel?: number;
}

export async function openDirectorySink(outDir: string, options: DirectorySinkOptions): Promise<SitemapSink> {
  try {
    await mkdir(outDir, { recursive: true });
    await access(outDir, constants.W_OK);
  } catch (cause) {
    throw new SitemapError('SM_OUTPUT_UNWRITABLE', `cannot write to output folder "${outDir}": ${describeFsError(cause)}`, { cause });
  }
  await recoverInterruptedRuns(outDir, options.filename);
  const staging = join(outDir, `${STAGING_PREFIX}${randomBytes(6).toString('hex')}`);
  try {
    await mkdir(staging);
  } catch (cause) {
    throw new SitemapError('SM_OUTPUT_UNWRITABLE', `cannot create a staging folder in "${outDir}": ${describeFsError(cause)}`, { cause });
  }
  const level = options.gzipLevel ?? zlibConstants.Z_DEFAULT_COMPRESSION;

  return {
    async write(name, chunks) {
      const path = join(staging, name);
      try {
        if (!options.gzip) {
          const handle = await open(path, 'w');
          try {
            await handle.writev(chunks);
          } finally {
            await handle.close();
          }
          return {};
        }
        // zlib runs on the thread pool, so compressing this file overlaps building the next.
        const gzip = createGzip({ level });
        const file = createWriteStream(path);
        await pipeline(Readable.from(chunks, { objectMode: false }), gzip, file);
        return { compressedBytes: file.bytesWritten };
      } catch (cause) {
        throw new SitemapError('SM_OUTPUT_UNWRITABLE', `cannot write "${join(outDir, name)}": ${describeFsError(cause)}`, { cause });
      }
    },
    async commit(names) {
      try {
        await writeFile(join(staging, COMMIT_MARKER), JSON.stringify({ files: names }));
        await applyCommit(outDir, staging, names, options.filename);
      } catch (cause) {
        throw new SitemapError('SM_OUTPUT_UNWRITABLE', `cannot publish into "${outDir}": ${describeFsError(cause)}`, { cause });
      }
    },
    async abort() {
      await rm(staging, { recursive: true, force: true });
    },
  };
}

/** Moves staged files into place (entry point last), removes stale files of the set, then the staging folder. */
async function applyCommit(outDir: string, staging: string, names: readonly string[], stem: string): Promise<void> {
  const present = new Set(await readdir(staging));
  for (const name of names) {
    // A rolled-forward commit may have moved some files already.
    if (present.has(name)) await rename(join(staging, name), join(outDir, name));
  }
  const keep = new Set(names);
  const ours = setFilePattern(stem);
  for (const name of await readdir(outDir)) {
    if (ours.test(name) && !keep.has(name)) await rm(join(outDir, name), { force: true });
  }
  await rm(staging, { recursive: true, force: true });
}

async function recoverInterruptedRuns(outDir: string, stem: string): Promise<void> {
  for (const entry of await readdir(outDir, { withFileTypes: true })) {
    if (!entry.isDirectory() || !entry.name.startsWith(STAGING_PREFIX)) continue;
    const staging = join(outDir, entry.name);
    let names: unknown;
    try {
      names = (JSON.parse(await readFile(join(staging, COMMIT_MARKER), 'utf8')) as { files?: unknown }).files;
    } catch {
      names = undefined; // never committed: the previous set is still the published one
    }
    if (Array.isArray(names) && names.every((n): n is string => typeof n === 'string')) {
      await applyCommit(outDir, staging, names, stem);
    } else {
      await rm(staging, { recursive: true, force: true });
    }
  }
}

/** Names this tool writes for a stem: `sitemap.xml`, `sitemap-12.xml`, with or without `.gz`. */
function setFilePattern(stem: string): RegExp {
  const escaped = stem.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`^${escaped}(?:-\\d+)?\\.xml(?:\\.gz)?$`);
}

function describeFsError(error: unknown): string {
  const code = (error as { code?: unknown }).code;
  switch (code) {
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    case 'ENOTDIR':
    case 'EEXIST':
      return 'a file is in the way where a folder is needed';
    case 'ENOSPC':
      return 'no space left on the device';
    case 'EROFS':
      return 'the file system is read-only';
    default:
      return error instanceof Error ? error.message : String(error);
  }
}
