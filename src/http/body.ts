/** A response body as the client hands it over: streamed, capped in bytes, bound by the attempt's timeout, failing as `SM_FETCH_FAILED`. */
import { SitemapError } from '../errors.ts';

export interface BodyLimits {
  maxBytes: number;
  /** The attempt's signal: the caller's abort and the timeout. */
  signal: AbortSignal;
  /** The caller's own signal, to tell an abort from a timeout. */
  callerSignal: AbortSignal | undefined;
  timeoutMs: number;
}

/** Streams the body, failing past `maxBytes` or when the attempt's timeout fires mid-body. */
export async function* readBody(reader: ReadableStreamDefaultReader<Uint8Array>, url: string, limits: BodyLimits): AsyncGenerator<Uint8Array> {
  const { maxBytes } = limits;
  let total = 0;
  let finished = false;
  try {
    for (;;) {
      let next: Awaited<ReturnType<typeof reader.read>>;
      try {
        next = await reader.read();
      } catch (cause) {
        const why = limits.callerSignal?.aborted === true ? 'aborted' : limits.signal.aborted ? `timed out after ${limits.timeoutMs} ms` : networkMessage(cause);
        throw new SitemapError('SM_FETCH_FAILED', `${url}: body not read to the end: ${why}`, { cause });
      }
      if (next.done) {
        finished = true;
        return;
      }
      const room = maxBytes - total;
      total += next.value.length;
      if (total > maxBytes) {
        // The caller gets exactly maxBytes bytes, so a parser with the same or a lower cap can report the size itself.
        if (room > 0) yield next.value.subarray(0, room);
        throw new SitemapError('SM_FETCH_FAILED', `${url}: body larger than ${maxBytes} bytes; reading stopped there`);
      }
      yield next.value;
    }
  } finally {
    if (!finished) await reader.cancel().catch(() => {});
    reader.releaseLock();
  }
}

export async function* emptyBody(): AsyncGenerator<Uint8Array> {}

/** Releases a response not read (a redirect, an error, an answer to be retried). */
export async function discard(response: Response): Promise<void> {
  await response.body?.cancel().catch(() => {});
}

export function networkMessage(cause: unknown): string {
  if (!(cause instanceof Error)) return oneLine(String(cause));
  // undici puts the useful part ("ECONNREFUSED", "other side closed") in the cause.
  const inner = cause.cause instanceof Error ? cause.cause.message : undefined;
  return oneLine(inner === undefined || inner === cause.message ? cause.message : `${cause.message}: ${inner}`);
}

/** TLS errors come with OpenSSL's line breaks; a message goes on one line of the tree. */
const oneLine = (message: string): string => message.replace(/\s+/g, ' ').trim();
