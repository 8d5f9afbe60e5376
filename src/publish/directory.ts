/**
 * Publishes a sitemap set into a folder atomically. Files are staged in a hidden folder inside the
 * output folder (same file system, so renames are atomic), then a commit marker is written and the
 * files are renamed into place, entry point last; files of the previous set that the new one no
 * longer has are removed. A run that dies before the marker leaves the old set untouched; one that
 * dies after it is rolled forward by the next run. Either way the next run clears the staging folder.
 * The marker then becomes the set's manifest (`.sitemapkit-<stem>.json`): only files a manifest lists
 * are ever removed, so a user's own `sitemap-2024.xml` beside ours is safe. A published file the new
 * set keeps (`keep`), or writes again with the same bytes, is neither staged nor moved: it stays with
 * its bytes and mtime, and the new manifest lists it.
 *
 * The live index only ever lists files whose bytes are the ones it was written for, even if a run is
 * killed between two renames: a changed file the live set lists is published under its other name
 * (`sitemap-2.xml` ↔ `sitemap-2b.xml`), so nothing the live index lists is replaced before the index
 * itself, and the old file goes only after.
 *
 * Several runs may share a folder. A run first claims its stem (`.sitemapkit-lock-<stem>`, one file
 * in it naming the run): of runs of one stem only one holds it, the others are refused at once. A
 * staging folder's name says whose it is (host, pid, stem), and a run recovers only those whose owner
 * is gone, so it never pulls the files from under a live run; a gone owner's claim passes on.
 * Nor may two sets share a file (`sitemap` splits into `sitemap-1.xml`, the single file of the stem
 * `sitemap-1`): a run whose files another set's manifest lists refuses before it commits.
 */
import { createHash, randomBytes } from 'node:crypto';
import { access, constants, lstat, mkdir, open, readdir, readFile, rename, rm, rmdir, stat, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { kill, pid } from 'node:process';
import { constants as zlibConstants } from 'node:zlib';
import { SitemapError } from '../errors.ts';
import type { SitemapSink } from '../model/pipeline.ts';
import { makeFolders } from './folders.ts';
import { streamingGzip, type StreamingGzip } from './gzip.ts';

const STAGING_PREFIX = '.sitemapkit-staging-';
const COMMIT_MARKER = 'COMMIT.json';

/** This machine in staging folder names: a pid tells whether its run is alive only where it ran. */
const HOST = createHash('sha256').update(hostname()).digest('hex').slice(0, 8);
/** `.sitemapkit-staging-<host>-<pid>-<random>-<stem>`; the stem is empty for a folder claimed for recovery of an unknown set. */
const OWNED_STAGING = /^\.sitemapkit-staging-([0-9a-f]{8})-([1-9][0-9]*)-[0-9a-f]{12}-(.*)$/;
/** Names of this process's staging folders in use: by pid alone they look like those of a dead earlier process with the same pid. */
const ours = new Set<string>();
/** Whether a run on another machine is alive cannot be asked; its staging folder untouched this long is taken for a dead run's. */
const FOREIGN_STALE_MS = 24 * 60 * 60 * 1000;

/** What a commit publishes; written as the commit marker, kept as the manifest of the published set. */
interface Commit {
  stem: string;
  files: string[];
  /** The state run that published the set (`--state`), so a run killed after committing its state is known published or not. */
  run?: string;
}

interface Owner {
  host: string;
  pid: number;
  stem: string;
}

/** An opened folder: this run's staging folder, its claim on the stem, and the set published when it was claimed. */
interface Opened {
  folder: string;
  claim: Claim;
  live: Commit | undefined;
}

/** A stem claimed by this run: its lock folder and the owner file in it. */
interface Claim {
  lock: string;
  owner: string;
}

/** `.sitemapkit-lock-<stem>`: while a run publishes a stem, this folder holds one file naming the run. */
const LOCK_PREFIX = '.sitemapkit-lock-';
/** `owner-<host>-<pid>-<random>`. */
const LOCK_OWNER = /^owner-([0-9a-f]{8})-([1-9][0-9]*)-[0-9a-f]{12}$/;
/** Each failed attempt means another run claimed or released the stem meanwhile: this bounds a livelock, not a wait. */
const MAX_CLAIM_ATTEMPTS = 8;

const manifestName = (stem: string): string => `.sitemapkit-${stem}.json`;
const MANIFEST = /^\.sitemapkit-(.+)\.json$/;
const stagingName = (stem: string): string => `${STAGING_PREFIX}${HOST}-${pid}-${randomBytes(6).toString('hex')}-${stem}`;

export interface DirectorySinkOptions {
  /** Compress each file with gzip, unless `create` says otherwise for a file. */
  gzip: boolean;
  /** The entry point is `<stem>.xml.gz` rather than `<stem>.xml`. @default gzip */
  gzipIndex?: boolean;
  /** The file name stem, to recognise files of an earlier set. */
  filename: string;
  /** zlib level, 0–9. @default 6 */
  gzipLevel?: number;
  /** The state run's token, recorded in the manifest. */
  run?: string;
}

/**
 * The output folder is opened when the builder asks for its first file, which it does once it has
 * checked its options: a run with bad options leaves no trace.
 */
export function openDirectorySink(outDir: string, options: DirectorySinkOptions): SitemapSink {
  const { gzipLevel } = options;
  if (gzipLevel !== undefined && !(Number.isInteger(gzipLevel) && gzipLevel >= 0 && gzipLevel <= 9)) {
    throw new SitemapError('SM_BAD_OPTION', `gzipLevel must be a whole number from 0 to 9, got ${gzipLevel}`);
  }
  const level = gzipLevel ?? zlibConstants.Z_DEFAULT_COMPRESSION;
  const entryPoint = `${options.filename}${(options.gzipIndex ?? options.gzip) ? '.xml.gz' : '.xml'}`;
  let opening: Promise<Opened> | undefined;
  /** The outermost folder this run created on the way to `outDir`: a run that publishes nothing removes it again. */
  let made: string | undefined;
  const openFolder = (): Promise<Opened> => {
    if (opening === undefined) {
      opening = openStaging(outDir, options.filename, entryPoint, (first) => (made = first));
      opening.catch(() => {}); // a failure surfaces through the first write or finish; this only keeps it from counting as unhandled
    }
    return opening;
  };
  const staging = async (): Promise<string> => (await openFolder()).folder;
  let released = false;
  /** Gives the stem up once, after the commit or the abort. */
  const release = async (): Promise<void> => {
    const opened = await opening?.catch(() => undefined);
    if (opened === undefined || released) return;
    released = true;
    await releaseStem(outDir, opened.claim);
  };
  let waited = false;
  /** The builder waits for the folder with the first body chunk, so an unusable folder fails a long run early. */
  const opened = (written: Promise<void> | undefined): Promise<void> | undefined => {
    if (waited) return written;
    waited = true;
    return Promise.all([staging(), written]).then(() => undefined);
  };
  let committed = false;
  /** Published files the new set keeps as they are (`keep`), and the names staged: a name is one or the other. */
  const kept = new Set<string>();
  const stagedNames = new Set<string>();
  const stage = (name: string): void => {
    if (kept.has(name)) throw bothKeptAndWritten(name);
    stagedNames.add(name);
  };

  const fail = (name: string, cause: unknown): SitemapError =>
    new SitemapError('SM_OUTPUT_UNWRITABLE', `cannot write "${join(outDir, name)}": ${describeFsError(cause)}`, { cause });
  const compressing = new Set<StreamingGzip>();
  /** Stages a finished file under the name it is published as (`placeFile`), unless it is published as it is already; returns that name, and whether it was. */
  const publish = async (name: string, folder: string, live: Commit | undefined, bytes: readonly Uint8Array[]): Promise<{ name: string; unchanged?: true }> => {
    const placed = await placeFile(outDir, name, name === entryPoint, live, bytes);
    stagedNames.add(placed.name);
    if (placed.unchanged) return { name: placed.name, unchanged: true };
    await writeChunks(join(folder, placed.name), bytes);
    return { name: placed.name };
  };

  return {
    create(file) {
      if (!(file?.gzip ?? options.gzip)) {
        // The head comes last and must lead the file, so an uncompressed file waits in memory until finished.
        const chunks: Uint8Array[] = [];
        return {
          write(chunk) {
            chunks.push(chunk);
            return opened(undefined);
          },
          async finish(name, head, tail) {
            stage(name);
            const { folder, live } = await openFolder();
            try {
              return await publish(name, folder, live, [head, ...chunks, tail]);
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
        write: (chunk) => opened(gzip.write(chunk)),
        async finish(name, head, tail) {
          stage(name);
          const { folder, live } = await openFolder();
          try {
            const file = await gzip.finish(head, tail);
            compressing.delete(gzip);
            return { compressedBytes: file.reduce((n, part) => n + part.length, 0), ...(await publish(name, folder, live, file)) };
          } catch (cause) {
            throw fail(name, cause);
          }
        },
      };
    },
    async open() {
      await staging();
    },
    async keep(name) {
      if (stagedNames.has(name)) throw bothKeptAndWritten(name);
      // The folder is opened first: an interrupted run rolled forward may have published the set.
      await staging();
      const published = await readCommit(join(outDir, manifestName(options.filename)));
      if (published?.files.includes(name) !== true || !(await isFile(join(outDir, name)))) {
        throw new SitemapError('SM_OUTPUT_CONFLICT', `cannot keep "${name}": the "${options.filename}" set published in "${outDir}" has no such file`);
      }
      kept.add(name);
    },
    async commit(names) {
      const folder = await staging();
      try {
        const files = [...names, ...[...kept].filter((name) => !names.includes(name))];
        await refuseFilesOfOtherSets(outDir, options.filename, files);
        await refuseForeignFiles(outDir, options.filename, (await openFolder()).live, files);
        const commit: Commit = { stem: options.filename, files };
        if (options.run !== undefined) commit.run = options.run;
        await writeFile(join(folder, COMMIT_MARKER), JSON.stringify(commit));
        committed = true;
        await applyCommit(outDir, folder, commit);
        ours.delete(basename(folder));
        await release();
      } catch (cause) {
        if (cause instanceof SitemapError) throw cause;
        throw new SitemapError('SM_OUTPUT_UNWRITABLE', `cannot publish into "${outDir}": ${describeFsError(cause)}`, { cause });
      }
    },
    async abort() {
      for (const gzip of compressing) gzip.destroy();
      const folder = (await opening?.catch(() => undefined))?.folder;
      if (folder !== undefined) {
        // Past the marker the set is published in part: the folder stays for the next run to roll forward.
        if (!committed) await rm(folder, { recursive: true, force: true });
        ours.delete(basename(folder));
      }
      await release();
      if (!committed && made !== undefined) await removeEmptyFolders(outDir, made);
    },
  };
}

/**
 * The state run that published the `stem` set in `outDir` (its manifest's `run`), once an interrupted
 * publish of that set is rolled forward or cleared: a run that wrote its commit marker counts as
 * published, as the next run completes it. Undefined when no set is published there.
 */
export async function publishedRun(outDir: string, stem: string): Promise<string | undefined> {
  if (!(await isFolder(outDir))) return undefined;
  const claim = await claimStem(outDir, stem);
  try {
    await recoverInterruptedRuns(outDir, '', stem);
  } catch (error) {
    if (error instanceof SitemapError) throw error;
    throw new SitemapError('SM_OUTPUT_UNWRITABLE', `cannot recover an interrupted run in "${outDir}": ${describeFsError(error)}`, { cause: error });
  } finally {
    await releaseStem(outDir, claim);
  }
  return (await readCommit(join(outDir, manifestName(stem))))?.run;
}

async function isFolder(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isDirectory();
  } catch {
    return false;
  }
}

function bothKeptAndWritten(name: string): SitemapError {
  return new SitemapError('SM_OUTPUT_CONFLICT', `"${name}" is both kept as published and written again; a file of the set is one or the other`);
}

async function isFile(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isFile();
  } catch {
    return false;
  }
}

/**
 * Claims the stem, creates this run's staging folder, then recovers the folders of runs that are
 * gone. Of runs of one stem starting together exactly one claims it; the others make no staging
 * folder. A set holding the entry point every run writes is found here, before a long build rather
 * than after.
 */
async function openStaging(outDir: string, stem: string, entryPoint: string, onMade: (first: string) => void): Promise<Opened> {
  try {
    await makeFolders(outDir, onMade, (parent, level, cause) =>
      new SitemapError('SM_OUTPUT_UNWRITABLE', `cannot write to output folder "${outDir}": the file system at "${parent}" does not allow creating the folder "${level}"`, { cause }));
    if (!(await stat(outDir)).isDirectory()) throw new SitemapError('SM_OUTPUT_UNWRITABLE', `cannot write to output folder "${outDir}": it is a file, not a folder`);
    await access(outDir, constants.W_OK);
  } catch (cause) {
    if (cause instanceof SitemapError) throw cause;
    throw new SitemapError('SM_OUTPUT_UNWRITABLE', `cannot write to output folder "${outDir}": ${describeFsError(cause)}`, { cause });
  }
  const claim = await claimStem(outDir, stem);
  const name = stagingName(stem);
  const folder = join(outDir, name);
  ours.add(name);
  let live: Commit | undefined;
  try {
    try {
      await mkdir(folder);
    } catch (cause) {
      throw new SitemapError('SM_OUTPUT_UNWRITABLE', `cannot create a staging folder in "${outDir}": ${describeFsError(cause)}`, { cause });
    }
    await recoverInterruptedRuns(outDir, name, stem);
    await refuseFilesOfOtherSets(outDir, stem, [entryPoint]);
    // Read under the claim and after recovery: no other run changes the set until this one commits.
    live = await readCommit(join(outDir, manifestName(stem)));
    await refuseForeignFiles(outDir, stem, live, [entryPoint]);
  } catch (error) {
    await rm(folder, { recursive: true, force: true });
    ours.delete(name);
    await releaseStem(outDir, claim);
    if (error instanceof SitemapError) throw error;
    throw new SitemapError('SM_OUTPUT_UNWRITABLE', `cannot recover an interrupted run in "${outDir}": ${describeFsError(error)}`, { cause: error });
  }
  return { folder, claim, live };
}

/**
 * The name a finished file is published under, and whether the file there is it already. A file of
 * the live set whose bytes are the same stays as it is (bytes and mtime). A changed file the live set
 * lists takes its other name, `sitemap-2.xml` ↔ `sitemap-2b.xml`: it is moved into place before the
 * index that lists it, and the live index keeps listing the old file, untouched, until the new index
 * replaces it in one rename. The entry point keeps its name; its rename is that switch.
 */
async function placeFile(outDir: string, name: string, isEntryPoint: boolean, live: Commit | undefined, bytes: readonly Uint8Array[]): Promise<{ name: string; unchanged: boolean }> {
  if (live === undefined) return { name, unchanged: false };
  const other = otherName(name);
  for (const candidate of isEntryPoint ? [name] : [name, other]) {
    if (live.files.includes(candidate) && (await holds(join(outDir, candidate), bytes))) return { name: candidate, unchanged: true };
  }
  return { name: !isEntryPoint && live.files.includes(name) ? other : name, unchanged: false };
}

/** `sitemap-2.xml` → `sitemap-2b.xml`, `sitemap-2.xml.gz` → `sitemap-2b.xml.gz`. */
function otherName(name: string): string {
  const extension = /\.xml(\.gz)?$/.exec(name)?.[0] ?? '';
  return `${name.slice(0, name.length - extension.length)}b${extension}`;
}

/** Whether the file at `path` holds exactly `bytes`, read 64 KiB at a time and only when the sizes agree. */
async function holds(path: string, bytes: readonly Uint8Array[]): Promise<boolean> {
  let handle;
  try {
    handle = await open(path, 'r');
  } catch (error) {
    if (hasCode(error, 'ENOENT')) return false;
    throw error;
  }
  try {
    if ((await handle.stat()).size !== bytes.reduce((n, part) => n + part.length, 0)) return false;
    const buffer = new Uint8Array(64 * 1024);
    let position = 0;
    for (const part of bytes) {
      for (let offset = 0; offset < part.length; ) {
        const length = Math.min(buffer.length, part.length - offset);
        const { bytesRead } = await handle.read(buffer, 0, length, position);
        if (bytesRead !== length || Buffer.compare(buffer.subarray(0, length), part.subarray(offset, offset + length)) !== 0) return false;
        offset += length;
        position += length;
      }
    }
    return true;
  } finally {
    await handle.close();
  }
}

/**
 * Claims `stem` for this run, or fails with SM_OUTPUT_CONFLICT naming the live run that has it. The
 * lock folder is made whole under a staging name and renamed into place: a rename onto a folder that
 * holds a file fails, so of runs starting together exactly one succeeds, and none sees a lock folder
 * without its owner. A gone owner's claim passes by renaming its owner file to this run's, which
 * likewise only one run can do (the others find the file gone and look again).
 */
async function claimStem(outDir: string, stem: string): Promise<Claim> {
  const owner = `owner-${HOST}-${pid}-${randomBytes(6).toString('hex')}`;
  const lock = join(outDir, `${LOCK_PREFIX}${stem}`);
  const readyName = stagingName('');
  const ready = join(outDir, readyName);
  ours.add(readyName);
  ours.add(owner);
  try {
    try {
      await mkdir(ready);
      await writeFile(join(ready, owner), '');
    } catch (cause) {
      if (hasCode(cause, 'ENOENT')) throw new SitemapError('SM_OUTPUT_UNWRITABLE', `cannot write to output folder "${outDir}": the file system does not allow creating a folder in it`, { cause });
      throw new SitemapError('SM_OUTPUT_UNWRITABLE', `cannot write to output folder "${outDir}": ${describeFsError(cause)}`, { cause });
    }
    for (let attempt = 0; attempt < MAX_CLAIM_ATTEMPTS; attempt++) {
      try {
        await rename(ready, lock);
        return { lock, owner };
      } catch (error) {
        if (!hasCode(error, 'ENOTEMPTY') && !hasCode(error, 'EEXIST')) throw error;
      }
      let holder: string | undefined;
      try {
        holder = (await readdir(lock)).find((entry) => LOCK_OWNER.test(entry));
      } catch (error) {
        if (hasCode(error, 'ENOENT')) continue; // released meanwhile
        throw error;
      }
      if (holder === undefined) {
        throw new SitemapError('SM_OUTPUT_CONFLICT', `"${lock}" claims the "${stem}" set but names no run; remove it if no run is publishing into "${outDir}"`);
      }
      const [, host = '', holderPid = ''] = LOCK_OWNER.exec(holder) ?? [];
      const who: Owner = { host, pid: Number(holderPid), stem };
      if (!(await isGone(join(lock, holder), holder, who))) throw liveRun(outDir, who);
      try {
        await rename(join(lock, holder), join(lock, owner));
        return { lock, owner };
      } catch (error) {
        if (!hasCode(error, 'ENOENT')) throw error; // else another run took it over first
      }
    }
    throw new SitemapError('SM_OUTPUT_CONFLICT', `cannot claim the "${stem}" set in "${outDir}": other runs claimed and released it ${MAX_CLAIM_ATTEMPTS} times meanwhile`);
  } catch (error) {
    ours.delete(owner);
    throw error;
  } finally {
    await rm(ready, { recursive: true, force: true });
    ours.delete(readyName);
  }
}

/** Gives a claim up: the lock folder leaves its place in one rename, then goes. A failure leaves it to be taken over as a gone run's. */
async function releaseStem(outDir: string, claim: Claim): Promise<void> {
  const gone = stagingName('');
  ours.add(gone);
  try {
    await rename(claim.lock, join(outDir, gone));
    await rm(join(outDir, gone), { recursive: true, force: true });
  } catch {
    // The owner file names this process: once it is out of `ours`, a later run takes the claim over.
  } finally {
    ours.delete(gone);
    ours.delete(claim.owner);
  }
}

function liveRun(outDir: string, owner: Owner): SitemapError {
  return new SitemapError('SM_OUTPUT_CONFLICT', `another run (process ${owner.pid}${owner.host === HOST ? '' : ' on another machine'}) is publishing the "${owner.stem}" set into "${outDir}"; runs into one folder at once need different file names`);
}

function hasCode(error: unknown, code: string): boolean {
  return (error as { code?: unknown }).code === code;
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

/**
 * Fails when another set published in the folder lists one of `names`: committing would overwrite
 * its file, and its index would then point at ours (or the next run of either would delete it).
 */
async function refuseFilesOfOtherSets(outDir: string, stem: string, names: readonly string[]): Promise<void> {
  const wanted = new Set(names);
  for (const entry of await readdir(outDir)) {
    const other = MANIFEST.exec(entry)?.[1];
    if (other === undefined || other === stem) continue;
    const shared = (await readCommit(join(outDir, entry)))?.files.filter((name) => wanted.has(name)) ?? [];
    if (shared.length > 0) {
      throw new SitemapError(
        'SM_OUTPUT_CONFLICT',
        `"${shared[0]}" in "${outDir}" belongs to the "${other}" set published there (${entry}); this run's file names overlap it, so nothing was published. Choose another file name stem (--filename)`,
      );
    }
  }
}

/**
 * Fails when a file of `names` is in the folder but not in the set's manifest: no sitemapkit run
 * wrote it (another generator's `sitemap.xml`, one written by hand), and files not listed are never replaced.
 */
async function refuseForeignFiles(outDir: string, stem: string, live: Commit | undefined, names: readonly string[]): Promise<void> {
  for (const name of names) {
    if (live?.files.includes(name) === true) continue;
    let found;
    try {
      found = await lstat(join(outDir, name));
    } catch (error) {
      if (hasCode(error, 'ENOENT')) continue;
      throw error;
    }
    throw new SitemapError(
      'SM_OUTPUT_CONFLICT',
      `"${name}" in "${outDir}" is a ${found.isDirectory() ? 'folder' : 'file'} that sitemapkit did not write (the "${stem}" set's ${manifestName(stem)} does not list it), so nothing was published: remove it, or stop the tool that wrote it from writing it, or choose another file name stem (--filename)`,
    );
  }
}

/** Removes `dir` and its parents up to `outermost` while they are empty (another run may have put files there since). */
async function removeEmptyFolders(dir: string, outermost: string): Promise<void> {
  for (let folder = dir; ; folder = dirname(folder)) {
    try {
      await rmdir(folder);
    } catch {
      return;
    }
    if (folder === outermost || dirname(folder) === folder) return;
  }
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

/**
 * Rolls forward or clears the staging folders of runs that are gone; fails if a live run publishes
 * `stem` too (a run of a version that took no claim). Another set's commit is rolled forward only
 * under that set's claim, so it never lands in the middle of a run of that set, which rolls it
 * forward itself.
 */
async function recoverInterruptedRuns(outDir: string, own: string, stem: string): Promise<void> {
  for (const entry of await readdir(outDir, { withFileTypes: true })) {
    if (!entry.isDirectory() || !entry.name.startsWith(STAGING_PREFIX) || entry.name === own) continue;
    const owner = ownerOf(entry.name);
    if (!(await isGone(join(outDir, entry.name), entry.name, owner))) {
      if (owner?.stem === stem) throw liveRun(outDir, owner);
      continue;
    }
    const commit = await readCommit(join(outDir, entry.name, COMMIT_MARKER));
    if (commit === undefined || commit.stem === stem) {
      await recover(outDir, entry.name, commit?.stem ?? '');
      continue;
    }
    let claim: Claim;
    try {
      claim = await claimStem(outDir, commit.stem);
    } catch (error) {
      if (error instanceof SitemapError && error.code === 'SM_OUTPUT_CONFLICT') continue;
      throw error;
    }
    try {
      await recover(outDir, entry.name, commit.stem);
    } finally {
      await releaseStem(outDir, claim);
    }
  }
}

function ownerOf(name: string): Owner | undefined {
  const match = OWNED_STAGING.exec(name);
  if (match === null) return undefined;
  const [, host = '', owner = '', stem = ''] = match;
  return { host, pid: Number(owner), stem };
}

/** Whether the run owning `path` (named `name`) is gone. */
async function isGone(path: string, name: string, owner: Owner | undefined): Promise<boolean> {
  // A name without an owner was made before owners were recorded.
  if (owner === undefined) return true;
  if (owner.host !== HOST) {
    try {
      return Date.now() - (await stat(path)).mtimeMs > FOREIGN_STALE_MS;
    } catch {
      return true; // gone already: recover() finds nothing to claim
    }
  }
  if (owner.pid === pid) return !ours.has(name);
  try {
    kill(owner.pid, 0); // signal 0 only asks whether the process exists
    return false;
  } catch (error) {
    return (error as { code?: unknown }).code === 'ESRCH';
  }
}

/**
 * Claims a dead run's staging folder by renaming it to one of this run's (of runs finding it at once,
 * one rename succeeds), then rolls its commit forward or, without a marker, drops it: without one the
 * run never committed and the previous set is still the published one.
 */
async function recover(outDir: string, name: string, stem: string): Promise<void> {
  const claimedName = stagingName(stem);
  const claimed = join(outDir, claimedName);
  ours.add(claimedName);
  try {
    try {
      await rename(join(outDir, name), claimed);
    } catch (error) {
      if ((error as { code?: unknown }).code === 'ENOENT') return; // another run claimed it first
      throw error;
    }
    const commit = await readCommit(join(claimed, COMMIT_MARKER));
    if (commit === undefined) await rm(claimed, { recursive: true, force: true });
    else await applyCommit(outDir, claimed, commit);
  } finally {
    ours.delete(claimedName);
  }
}

async function readCommit(path: string): Promise<Commit | undefined> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(await readFile(path, 'utf8'));
  } catch {
    return undefined;
  }
  const { stem, files, run } = (parsed ?? {}) as { stem?: unknown; files?: unknown; run?: unknown };
  const isName = (n: unknown): n is string => typeof n === 'string' && /^[A-Za-z0-9._-]+$/.test(n) && n !== '.' && n !== '..';
  if (!isName(stem) || !Array.isArray(files) || !files.every(isName)) return undefined;
  return typeof run === 'string' ? { stem, files, run } : { stem, files };
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
