/** What `parse` and `validate` read: a file, an http(s) URL or standard input, opened with one clear sentence for any failure. */
import { resolve } from 'node:path';
import { SitemapError } from '../../errors.ts';
import type { Diagnostic } from '../../model/diagnostic.ts';
import { fetchResource } from '../../http/client.ts';
import { checkMaxBytes, DEFAULT_MAX_BYTES, type ByteSource } from '../../read/parse.ts';
import type { CommandContext } from '../command.ts';
import { openFile } from '../files.ts';

export interface ReadFlags {
  base?: string;
  json: boolean;
  maxBytes?: number;
}

export interface OpenedSource {
  bytes: ByteSource;
  /** The file's own URL when it came from the web (relative locs resolve against it), else --base. */
  base?: string;
  name: string;
  /** Brotli, as a `.br` name says (a server's `Content-Encoding: br` is undone by fetch): Brotli has no magic bytes to tell it by. */
  compression?: 'br';
}

/** Files are read, and URLs printed, in pieces of this many bytes or characters. */
export const READ_BLOCK = 64 * 1024;

const HTTP = /^https?:\/\//i;
const BROTLI_NAME = /\.br$/i;

/** A path, an http(s) URL or `-` (standard input), opened for reading; failures are one clear sentence. */
export async function openSource(input: string, flags: ReadFlags, context: CommandContext): Promise<OpenedSource> {
  // Before anything is opened or fetched.
  checkMaxBytes(flags.maxBytes);
  if (flags.base !== undefined && !(HTTP.test(flags.base) && URL.canParse(flags.base))) throw new SitemapError('SM_BAD_BASE_URL', `--base "${flags.base}" is not an absolute http(s) URL`);
  const withBase = (source: OpenedSource): OpenedSource => (flags.base === undefined ? source : { ...source, base: flags.base });
  if (input === '-') return withBase({ bytes: context.stdin as AsyncIterable<Uint8Array>, name: 'stdin' });
  if (HTTP.test(input)) {
    // One byte over the parser's cap, so an oversized file is the parser's R3 finding rather than a fetch failure.
    const response = await fetchResource(input, { maxBytes: (flags.maxBytes ?? DEFAULT_MAX_BYTES) + 1 });
    if (!response.ok) throw new SitemapError('SM_INPUT_UNREADABLE', `cannot fetch ${input}: ${response.message}`);
    // A `.br` file served as it is, without `Content-Encoding: br` (which fetch would have undone).
    const brotli = BROTLI_NAME.test(new URL(response.finalUrl).pathname) && !/\bbr\b/i.test(response.headers.get('content-encoding') ?? '');
    return { bytes: response.body, base: flags.base ?? response.finalUrl, name: input, ...(brotli ? { compression: 'br' as const } : {}) };
  }
  const { bytes } = await openFile(resolve(context.cwd, input), `"${input}"`, READ_BLOCK, true);
  return withBase({ bytes, name: input, ...(BROTLI_NAME.test(input) ? { compression: 'br' as const } : {}) });
}

/** A finding named after the source it is about, for the report. */
export const located = (name: string) => (diagnostic: Diagnostic): Diagnostic => ({ ...diagnostic, file: name });
