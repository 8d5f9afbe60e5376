/** Files the CLI reads: a missing file, a folder, no permission or a read failing later is one clear sentence naming the file. */
import { open, type FileHandle } from 'node:fs/promises';
import { SitemapError } from '../errors.ts';

export interface OpenedFile {
  bytes: AsyncIterable<Uint8Array>;
  /** Known for a regular file only: a pipe or a device has no size to come. */
  size?: number;
  close: () => Promise<void>;
}

/** Opens `path` (named `label` in messages) for reading in pieces of `highWaterMark` bytes; `close` when done, unless `autoClose` (when the bytes end or are left). */
export async function openFile(path: string, label: string, highWaterMark: number, autoClose = false): Promise<OpenedFile> {
  let handle: FileHandle | undefined;
  try {
    handle = await open(path, 'r');
    const stat = await handle.stat();
    // A folder opens, and fails only at the first read.
    if (stat.isDirectory()) throw Object.assign(new Error('it is a folder'), { code: 'EISDIR' });
    const opened = handle;
    const bytes = failingClearly(opened.createReadStream({ highWaterMark, autoClose }), label);
    return stat.isFile() ? { bytes, size: stat.size, close: () => opened.close() } : { bytes, close: () => opened.close() };
  } catch (cause) {
    await handle?.close();
    throw unreadable(label, cause);
  }
}

async function* failingClearly(stream: AsyncIterable<Uint8Array>, label: string): AsyncGenerator<Uint8Array> {
  try {
    yield* stream;
  } catch (cause) {
    throw unreadable(label, cause);
  }
}

function unreadable(label: string, cause: unknown): SitemapError {
  const code = (cause as { code?: string }).code;
  const reason = code === 'ENOENT' ? 'no such file' : code === 'EACCES' ? 'permission denied' : code === 'EISDIR' ? 'it is a folder' : (cause as Error).message;
  return new SitemapError('SM_INPUT_UNREADABLE', `cannot read ${label}: ${reason}`, { cause });
}
