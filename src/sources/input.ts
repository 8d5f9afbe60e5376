/**
 * An input's bytes made text before any record is read: gzip (found by its magic bytes, whatever the
 * name) is decompressed as it streams, and input that is no text (an image, an archive, NUL bytes,
 * not UTF-8) is refused with one sentence naming what it looks like, so nothing is published from it.
 */
import { Readable, pipeline } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { SitemapError } from '../errors.ts';
import { describeBinary, HEAD_BYTES, isGzip } from './kind.ts';

type Bytes = AsyncIterable<Uint8Array> | Iterable<Uint8Array>;

/**
 * The input as text: its first `HEAD_BYTES` (to sniff the format from) and all its bytes, gzip undone.
 * Throws `SM_INPUT_NOT_TEXT` when it is no text; `label` names it: `input "urls.txt"`, `standard input`.
 */
export async function textOf(source: Bytes, label: string): Promise<{ head: Uint8Array; bytes: AsyncIterable<Uint8Array> }> {
  const raw = await peek(source);
  if (!isGzip(raw.head)) {
    const what = describeBinary(raw.head);
    if (what !== undefined) throw notText(`${label} is ${what}`);
    return raw;
  }
  const text = await peek(gunzip(raw.bytes, label));
  const what = describeBinary(text.head);
  if (what !== undefined) throw notText(`${label} is ${what} compressed with gzip`);
  return text;
}

function notText(what: string): SitemapError {
  // Text in another encoding (UTF-16) is text still: what it lacks is UTF-8, which its own hint says.
  return new SitemapError('SM_INPUT_NOT_TEXT', `${what}${/\btext\b/.test(what) ? '' : ', not text'}: build reads a list of URLs, JSON Lines or CSV`);
}

/** The first `HEAD_BYTES` (fewer if the input is shorter), and all the bytes again from the start. */
async function peek(source: Bytes): Promise<{ head: Uint8Array; bytes: AsyncIterable<Uint8Array> }> {
  const iterator = (Symbol.asyncIterator in source ? source[Symbol.asyncIterator]() : toAsync(source));
  const taken: Uint8Array[] = [];
  let length = 0;
  let ended = false;
  while (length < HEAD_BYTES) {
    const next = await iterator.next();
    if (next.done === true) {
      ended = true;
      break;
    }
    taken.push(next.value);
    length += next.value.length;
  }
  const head = new Uint8Array(Math.min(length, HEAD_BYTES));
  let at = 0;
  for (const chunk of taken) {
    if (at === head.length) break;
    const part = chunk.subarray(0, head.length - at);
    head.set(part, at);
    at += part.length;
  }
  async function* replay(): AsyncGenerator<Uint8Array> {
    yield* taken;
    if (ended) return;
    for (let next = await iterator.next(); next.done !== true; next = await iterator.next()) yield next.value;
  }
  return { head, bytes: replay() };
}

async function* toAsync(source: Iterable<Uint8Array>): AsyncGenerator<Uint8Array> {
  yield* source;
}

/** gzip members one after another, as `gzip -d` reads them; damaged data is one sentence. */
async function* gunzip(bytes: AsyncIterable<Uint8Array>, label: string): AsyncGenerator<Uint8Array> {
  const inflated = createGunzip();
  // pipeline, not pipe: a failing source fails the gunzip, and a reader leaving early ends the source.
  pipeline(Readable.from(bytes), inflated, () => {});
  try {
    for await (const chunk of inflated as AsyncIterable<Uint8Array>) yield chunk;
  } catch (cause) {
    if ((cause as { code?: unknown }).code === undefined || !String((cause as { code: unknown }).code).startsWith('Z_')) throw cause;
    throw new SitemapError('SM_INPUT_UNREADABLE', `cannot read ${label}: its gzip data is damaged (${(cause as Error).message.toLowerCase()})`, { cause });
  }
}
