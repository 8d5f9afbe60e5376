/**
 * Publishes a sitemap set into a folder atomically. Files are staged in a hidden folder inside the
 * output folder (same file system, so renames are atomic), then a commit marker is written and the
 * files are renamed into place, entry point last; files of the previous set that the new one no
 * longer has are removed. A run that dies before the marker leaves the old set untouched; one that
 * dies after it is rolled forward by the next run. Either way the next run clears the staging folder.
 * The marker then becomes the set's manifest (`.sitemapkit-<stem>.json`): only files a manifest lists
 * are ever removed, so a user's own `sitemap-2024.xml` beside ours is safe.
 */
import { randomBytes } from 'node:crypto';
import { access, constants, mkdir, open, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { constants as zlibConstants } from 'node:zlib';
import { SitemapError } from '../errors.ts';
import type { SitemapSink } from '../write/build.ts';
import { streamingGzip, type StreamingGzip } from './gzip.ts';

const STAGING_PREFIX = '.sitemapkit-staging-';
const COMMIT_MARKER = 'COMMIT.json';

/** What a commit publishes; written as the commit marker, kept as the manifest of the published set. */
interface Commit {
  stem: string;
  files: string[];
}

const manifestName = (stem: string): string => `.sitemapkit-${stem}.json`;

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
  await recoverInterruptedRuns(outDir);
  const staging = join(outDir, `${STAGING_PREFIX}${randomBytes(6).toString('hex')}`);
  try {
    await mkdir(staging);
  } catch (cause) {
    throw new SitemapError('SM_OUTPUT_UNWRITABLE', `cannot create a staging folder in "${outDir}": ${describeFsError(cause)}`, { cause });
  }
  const level = options.gzipLevel ?? zlibConstants.Z_DEFAULT_COMPRESSION;

  const fail = (name: string, cause: unknown): SitemapError =>
    new SitemapError('SM_OUTPUT_UNWRITABLE', `cannot write "${join(outDir, name)}": ${describeFsError(cause)}`, { cause });
  const compressing = new Set<StreamingGzip>();

  return {
    create() {
      if (!options.gzip) {
        // The head comes last and must lead the file, so an uncompressed file waits in memory until finished.
        const chunks: Uint8Array[] = [];
        return {
          write(chunk) {
            chunks.push(chunk);
            return undefined;
          },
          async finish(name, head, tail) {
            try {
              await writeChunks(join(staging, name), [head, ...chunks, tail]);
              return {};
            } catch (cause) {
              throw fail(name, cause);
            }
          },
        };
      }
      // The body is compressed on the thread pool as it is built; only compressed bytes wait for the head.
      const gzip = streamingGzip(level);
      compressing.add(gzip);
      return {
        write: (chunk) => gzip.write(chunk),
        async finish(name, head, tail) {
          try {
            const file = await gzip.finish(head, tail);
            compressing.delete(gzip);
            await writeChunks(join(staging, name), file);
            return { compressedBytes: file.reduce((n, part) => n + part.length, 0) };
          } catch (cause) {
            throw fail(name, cause);
          }
        },
      };
    },
    async commit(names) {
      try {
        const commit: Commit = { stem: options.filename, files: [...names] };
        await writeFile(join(staging, COMMIT_MARKER), JSON.stringify(commit));
        await applyCommit(outDir, staging, commit);
      } catch (cause) {
        throw new SitemapError('SM_OUTPUT_UNWRITABLE', `cannot publish into "${outDir}": ${describeFsError(cause)}`, { cause });
      }
    },
    async abort() {
      for (const gzip of compressing) gzip.destroy();
      await rm(staging, { recursive: true, force: true });
    },
  };
}

/**
 * Moves staged files into place (entry point last), removes the files the previous manifest lists that
 * the new set lacks, makes the marker the new manifest, then drops the staging folder.
 */
async function applyCommit(outDir: string, staging: string, commit: Commit): Promise<void> {
  const present = new Set(await readdir(staging));
  for (const name of commit.files) {
    // A rolled-forward commit may have moved some files already.
    if (present.has(name)) await rename(join(staging, name), join(outDir, name));
  }
  const keep = new Set(commit.files);
  const previous = await readCommit(join(outDir, manifestName(commit.stem)));
  for (const name of previous?.files ?? []) {
    if (!keep.has(name)) await rm(join(outDir, name), { force: true });
  }
  await rename(join(staging, COMMIT_MARKER), join(outDir, manifestName(commit.stem)));
  await rm(staging, { recursive: true, force: true });
}

/** One gathered write: the chunks of a file go to the kernel in a single call. */
async function writeChunks(path: string, chunks: readonly Uint8Array[]): Promise<void> {
  const handle = await open(path, 'w');
  try {
    await handle.writev(chunks);
  } finally {
    await handle.close();
  }
}

async function recoverInterruptedRuns(outDir: string): Promise<void> {
  for (const entry of await readdir(outDir, { withFileTypes: true })) {
    if (!entry.isDirectory() || !entry.name.startsWith(STAGING_PREFIX)) continue;
    const staging = join(outDir, entry.name);
    const commit = await readCommit(join(staging, COMMIT_MARKER));
    // Without a marker the run never committed: the previous set is still the published one.
    if (commit === undefined) await rm(staging, { recursive: true, force: true });
    else await applyCommit(outDir, staging, commit);
  }
}

async function readCommit(path: string): Promise<Commit | undefined> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(await readFile(path, 'utf8'));
  } catch {
    return undefined;
  }
  const { stem, files } = (parsed ?? {}) as { stem?: unknown; files?: unknown };
  const isName = (n: unknown): n is string => typeof n === 'string' && /^[A-Za-z0-9._-]+$/.test(n) && n !== '.' && n !== '..';
  if (!isName(stem) || !Array.isArray(files) || !files.every(isName)) return undefined;
  return { stem, files };
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
