/**
 * `parseSitemap`: any sitemap-like body → entries, streaming. gzip is found by its magic bytes
 * (R4), Brotli by the caller's word (`compression`), other binary formats by theirs (R5), the encoding by BOM and declaration (R1), the format by content: XML (urlset, index, RSS,
 * Atom), a plain-text list (R30) or robots.txt `Sitemap:` lines (R27). Memory stays bounded: the
 * decompressed size is capped and entries are handed out as each chunk is read.
 */
import { isAscii, isUtf8 } from 'node:buffer';
import { Readable } from 'node:stream';
import { constants as zlibConstants, createBrotliDecompress, createGunzip } from 'node:zlib';
import { SitemapError } from '../errors.ts';
import type { Diagnostic } from '../model/diagnostic.ts';
import { type FindingCounts, FindingTally } from '../model/findings.ts';
import { magicOf } from '../model/magic.ts';
import { MAX_SITEMAP_BYTES } from '../rules/limits.ts';
import { type EntryPlace, SitemapAssembler } from './xml/assemble.ts';
import { type ChunkDecoder, firstInventedReplacement, firstInventedUtf16Replacement, hasControlBytes, SNIFF_BYTES, sniffEncoding } from './decode.ts';
import { type GzipEnd, gunzipMembers } from './gzip.ts';
import { fieldHolder, fieldOffset } from './xml/locate.ts';
import { positionIn, type XmlPosition } from './xml/positions.ts';
import { sitemapPlaces, wholeLines } from '../robots/lines.ts';
import { sitemapsInRobotsTxt } from '../robots/read.ts';
import { XmlTokenizer } from './xml/tokenizer.ts';
import type { ParsedEntry, ParseOptions, SitemapKind } from './types.ts';

/** The body, as bytes. Each chunk handed over is the reader's, as with a Node stream's: a source must not fill its memory again afterwards. */
export type ByteSource = AsyncIterable<Uint8Array> | Iterable<Uint8Array> | Uint8Array;

/** Twice the protocol's limit (R3): an oversized file is still read far enough to be reported and used. */
export const DEFAULT_MAX_BYTES = 2 * MAX_SITEMAP_BYTES;
/** The highest `maxBytes`: ten times the protocol's limit, and below V8's longest string, which one text of a hostile file could otherwise reach. */
export const MAX_READ_BYTES = 10 * MAX_SITEMAP_BYTES;
/** robots.txt beyond this is not read (Google reads 500 KiB). */
export const MAX_ROBOTS_BYTES = 512 * 1024;
/** A gzip inside a gzip is unwrapped once more (some servers compress a `.gz` again); no deeper. */
const MAX_GZIP_LAYERS = 2;
const GZIP_MAGIC = [0x1f, 0x8b];
/**
 * Inflate output per thread-pool round trip. zlib starts the next piece only when the parser
 * thread comes back for it, so each piece costs that thread a wait: large pieces make few waits.
 */
const GUNZIP_CHUNK = 256 * 1024;
/** Pieces as the parser gets them: decoded strings this large stay out of V8's large-object space. */
const TEXT_CHUNK = 64 * 1024;
/** Compressed input is cut in pieces of this size (see #gunzip). */
const GUNZIP_INPUT_CHUNK = 64 * 1024;
/**
 * A compressed file up to this size is kept while it is inflated, so that the output lost when gunzip
 * fails on it can be recovered: a sitemap at the protocol's 50 MB gzips to a few MB.
 */
const GUNZIP_RETAINED_BYTES = 8 * 1024 * 1024;
const ROBOTS_FIELDS = ['user-agent', 'disallow', 'allow', 'sitemap', 'crawl-delay', 'host', 'clean-param'];
const ROBOTS_LINE = new RegExp(`^(?:${ROBOTS_FIELDS.join('|')})[ \\t]*:`, 'i');
const HTTP_URL = /^https?:\/\/[^\s/?#]+/i;
/** A line of a text sitemap longer than this is skipped unread (R30): a URL has at most 2,048 characters (R9). */
const MAX_TEXT_LINE = 64 * 1024;
/** Bytes looked at to tell the format: the encoding's (SNIFF_BYTES), and text printed ahead of the XML (several PHP warnings fit). */
const FORMAT_LOOK_BYTES = 8 * 1024;
/** A line that starts an XML declaration or a sitemap's root, after other text (ASCII, so found in the bytes of any ASCII-compatible encoding). */
const XML_AFTER_TEXT = /^<(?:\?xml|urlset|sitemapindex)[\s>]/m;
/** HTML that PHP (and Xdebug) print ahead of a script's output when it warns. */
const HTML_BEFORE_XML = /^\s*<(?:br|b|font|table|pre|p|div|span|strong|i|em|small|code)[\s/>]/i;
const ASCII = /^[\0-\x7f]*$/;
/** `<!doctype html`, in any case but XML's own `DOCTYPE`, after whitespace only (captured). */
const HTML_DOCTYPE = /^([ \t\r\n]*)<!(?!DOCTYPE)[Dd][Oo][Cc][Tt][Yy][Pp][Ee][ \t\r\n]+[Hh][Tt][Mm][Ll][\s>]/;
/** What may come before the first `<` of an XML file: whitespace (a BOM too) and control characters, which the XML reader reports. */
const LEADING_SPACE_OR_CONTROLS = /^[\s\x00-\x08\x0B\x0C\x0E-\x1F]+/;

const EMPTY_MESSAGE = 'not well-formed XML: the file is empty (no root element)';

/** Findings kept in a result's list unless `maxDiagnostics` says otherwise (all are counted). */
export const DEFAULT_MAX_DIAGNOSTICS = 1000;

/** A constructor that returns the object it is given, so a subclass adds its private fields to that object. */
const Returning = class {
  constructor(object: object) {
    return object;
  }
} as new (object: object) => object;

/**
 * An entry's place, kept on the entry in private fields with the parse that made it: invisible to
 * its users (keys, JSON, deep equality), and gone with it. Not a WeakMap of entries to places: its
 * ephemerons slow every collection.
 */
class Placed extends Returning {
  #place: EntryPlace;
  #parse: ParsedSitemap;

  constructor(entry: ParsedEntry, place: EntryPlace, parse: ParsedSitemap) {
    super(entry);
    this.#place = place;
    this.#parse = parse;
  }

  static place(entry: ParsedEntry, place: EntryPlace, parse: ParsedSitemap): void {
    if (!(#place in entry)) new Placed(entry, place, parse);
  }

  /** The place `parse` gave `entry`; none for what another parse made, or what is no entry at all. */
  static of(entry: unknown, parse: ParsedSitemap): EntryPlace | undefined {
    return typeof entry === 'object' && entry !== null && #place in entry && (entry as Placed).#parse === parse ? (entry as Placed).#place : undefined;
  }
}

/** A parse in progress: iterate it once for the entries; `kind`, `diagnostics` and the counts fill in as it goes. */
export class ParsedSitemap implements AsyncIterable<ParsedEntry> {
  kind: SitemapKind = 'unknown';
  /** The first `maxDiagnostics` findings. */
  readonly diagnostics: Diagnostic[] = [];
  /** Findings per `rule:level`, over all of them. */
  readonly counts: FindingCounts = {};
  /** Decompressed bytes read. */
  bytes = 0;
  /** The body was gzip (R4), or Brotli as `compression` said. */
  compressed = false;
  entries = 0;
  readonly #source: ByteSource;
  readonly #options: ParseOptions;
  readonly #base: URL | undefined;
  readonly #tally = new FindingTally(this.counts);
  #started = false;
  /** Said to be Brotli, and not: that one finding says it all. */
  #notBrotli = false;

  constructor(source: ByteSource, options: ParseOptions = {}) {
    this.#source = source;
    this.#options = options;
    checkMaxBytes(options.maxBytes);
    if (typeof options.base === 'string' && !URL.canParse(options.base)) throw new SitemapError('SM_BAD_BASE_URL', `base "${options.base}" is not an absolute URL`);
    this.#base = options.base === undefined ? undefined : new URL(options.base);
  }

  /**
   * Line and column where an entry starts, or with `field` (a path such as `images[2].loc`, as
   * `Diagnostic.field` gives it) where the element that field was read from starts, or the nearest
   * one holding it. Needs `trackPositions`; a text or robots.txt entry is placed at its URL.
   */
  positionOf(entry: ParsedEntry, field?: string): XmlPosition | undefined {
    const place = Placed.of(entry, this);
    if (place === undefined || field === undefined) return place?.start;
    for (let path: string | undefined = field; place.fields !== undefined && path !== undefined; path = fieldHolder(path)) {
      const start = place.fields.get(path);
      if (start !== undefined) return start;
    }
    const at = place.source === undefined ? undefined : fieldOffset(place.source, field, this.kind);
    return at === undefined ? place.start : positionIn(place.source as string, at, place.start);
  }

  /** Errors (level `error`) so far. */
  get errors(): number {
    return this.#tally.errors;
  }

  /**
   * Findings counted but not in `diagnostics`: past `maxDiagnostics`, and well-formedness errors
   * past the first 100 (MAX_MALFORMED_REPORTS), which are counted only.
   */
  get diagnosticsOmitted(): number {
    return this.#tally.total - this.diagnostics.length;
  }

  readonly report = (diagnostic: Diagnostic): void => {
    this.#tally.add(diagnostic);
    if (this.diagnostics.length < (this.#options.maxDiagnostics ?? DEFAULT_MAX_DIAGNOSTICS)) this.diagnostics.push(diagnostic);
    this.#options.onDiagnostic?.(diagnostic);
  };

  /** Entries one by one. Internally they come a chunk's worth at a time, so the cost per entry is one settled promise. */
  [Symbol.asyncIterator](): AsyncIterator<ParsedEntry> {
    const batches = this.batches()[Symbol.asyncIterator]();
    let batch: readonly ParsedEntry[] = [];
    let index = 0;
    const refill = async (): Promise<IteratorResult<ParsedEntry>> => {
      while (index >= batch.length) {
        const next = await batches.next();
        if (next.done === true) return { done: true, value: undefined };
        batch = next.value;
        index = 0;
      }
      return { done: false, value: batch[index++] as ParsedEntry };
    };
    const take = (): Promise<IteratorResult<ParsedEntry>> | IteratorResult<ParsedEntry> =>
      index < batch.length ? { done: false, value: batch[index++] as ParsedEntry } : refill();
    // A call made while a refill is under way waits for it, or two refills would each take a batch and the first one's rest be lost.
    let refilling: Promise<unknown> | undefined;
    return {
      next: (): Promise<IteratorResult<ParsedEntry>> => {
        // Most calls find their entry in the batch at hand: a promise made settled, without an async function's machinery.
        if (refilling === undefined && index < batch.length) return Promise.resolve({ done: false, value: batch[index++] as ParsedEntry });
        const result = refilling === undefined ? refill() : refilling.then(take, take);
        refilling = result;
        const settle = (): void => {
          if (refilling === result) refilling = undefined;
        };
        result.then(settle, settle);
        return result;
      },
      return: async (): Promise<IteratorResult<ParsedEntry>> => {
        await batches.return?.(undefined);
        return { done: true, value: undefined };
      },
    };
  }

  /**
   * The whole decompressed text in UTF-8 instead of entries (for schema validation), the same caps
   * applying: the bytes as they are when they are UTF-8 already, else decoded (bytes the encoding
   * does not allow made U+FFFD, as when reading) and encoded again. Undefined as soon as it would be
   * longer than `limit` bytes: what is not wanted is not held.
   */
  async utf8(limit: number): Promise<Uint8Array | undefined> {
    if (this.#started) throw new TypeError('a ParsedSitemap can be read only once');
    this.#started = true;
    const source = this.#source;
    // A file given whole that is UTF-8 already, within both limits: itself, not a copy.
    if (source instanceof Uint8Array && this.#options.compression === undefined && !(source[0] === GZIP_MAGIC[0] && source[1] === GZIP_MAGIC[1]) && source.length <= Math.min(limit, this.#options.maxBytes ?? DEFAULT_MAX_BYTES)) {
      if (sniffEncoding(source.subarray(0, SNIFF_BYTES), () => undefined, isAscii).encoding === 'utf-8' && isUtf8(source)) return source;
    }
    const bytes = this.#capped(await this.#decompressed(toAsync(source), 0));
    const [head, cuts, rest] = await peek(bytes, SNIFF_BYTES);
    const { decoder } = sniffEncoding(head, this.report, isAscii);
    const parts: Uint8Array[] = [];
    let length = 0;
    const take = (part: Uint8Array): boolean => {
      length += part.length;
      if (length > limit) return false;
      parts.push(part);
      return true;
    };
    const all = prepend(cuts, rest);
    try {
      if (decoder.encoding === 'utf-8') {
        for await (const chunk of all) if (!take(chunk)) return undefined;
        const whole = concat(parts, length);
        if (isUtf8(whole)) return whole;
        parts.length = 0;
        length = 0;
        const decoded = new TextDecoder('utf-8').decode(whole);
        for (let at = 0, end = 0; at < decoded.length; at = end) {
          end = Math.min(decoded.length, at + TEXT_CHUNK);
          // A surrogate pair is not cut in two (each half alone would be encoded as U+FFFD).
          if (end < decoded.length && (decoded.charCodeAt(end - 1) & 0xfc00) === 0xd800) end--;
          if (!take(new TextEncoder().encode(decoded.slice(at, end)))) return undefined;
        }
        return concat(parts, length);
      }
      const onInvalid = (): void => this.report({ rule: 'R1', level: 'error', message: invalidBytesMessage(decoder.encoding) });
      for await (const text of decodeChunks(all, decoder, onInvalid)) if (!take(new TextEncoder().encode(text))) return undefined;
      return concat(parts, length);
    } finally {
      await all.return(undefined);
    }
  }

  /** The entries as arrays, one per chunk read: the fastest way through a large file. */
  async *batches(): AsyncGenerator<readonly ParsedEntry[]> {
    if (this.#started) throw new TypeError('a ParsedSitemap can be iterated only once');
    this.#started = true;
    const bytes = this.#capped(await this.#decompressed(toAsync(this.#source), 0));
    const [head, cuts, rest] = await peek(bytes, FORMAT_LOOK_BYTES);
    const magic = magicOf(head);
    if (magic?.family === 'binary') {
      // An image or an archive read as text would be lines or characters of garbage, each a finding: one says what it is.
      this.report({ rule: 'R5', level: 'error', message: `the ${this.compressed ? 'decompressed data' : 'file'} is ${magic.what}, not a sitemap; it is not read` });
      await rest.return?.();
      return;
    }
    if (head.length === 0) {
      if (this.#notBrotli) return;
      // No document at all, so not well-formed XML (§2.1: one root element); a text list needs a URL too.
      this.report({ rule: 'R2', level: 'error', message: EMPTY_MESSAGE });
      return;
    }
    const { decoder } = sniffEncoding(head, this.report, isAscii);
    const controls: ControlCheck = { checked: decoder.encoding === 'utf-8' };
    // Where in the text the first bytes the encoding does not allow are: the XML reader reports them there once it has got to them.
    const invalid: InvalidBytes = { at: -1, reportNow: false };
    const text = decodeChunks(prepend(cuts, rest), decoder, (offset) => {
      invalid.at = offset;
      if (invalid.reportNow) this.report({ rule: 'R1', level: 'error', message: invalidBytesMessage(decoder.encoding) });
    }, controls);
    const peeked = await peekText(text);
    if (peeked.blank !== undefined) {
      const { chars, controls, content } = peeked.blank;
      const what = controls ? 'whitespace and control characters' : 'whitespace';
      // Only blank is no document at all (R2, as for a short blank file); content that far in is no sitemap's (R5).
      this.report(
        content
          ? { rule: 'R5', level: 'error', message: `the file's content starts after ${chars} characters of ${what}; a sitemap's starts within its first ${MAX_LEADING_BLANK}, so it is not read` }
          : { rule: 'R2', level: 'error', message: `not well-formed XML: the file holds only ${what} (no root element)` },
      );
      return;
    }
    const [first, textRest] = peeked.text;
    // A stray control character before the markup does not make an XML file a list of lines: the XML reader reports it.
    const body = first.replace(LEADING_SPACE_OR_CONTROLS, '');
    // Looked for in the first bytes, which every way of cutting the input hands over whole.
    const look = new TextDecoder('latin1').decode(head.subarray(head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf ? 3 : 0, FORMAT_LOOK_BYTES));
    // An HTML page (a soft 404) spelling its doctype the HTML way is no XML: one finding for it, not one per character the XML reader trips on.
    const htmlDoctype = HTML_DOCTYPE.exec(look);
    if (htmlDoctype !== null) {
      const before = look.slice(0, htmlDoctype[1]?.length ?? 0);
      const lineStart = Math.max(before.lastIndexOf('\n'), before.lastIndexOf('\r')) + 1;
      const at = { line: before.split(/\r\n|\r|\n/).length, column: before.length - lineStart + 1 };
      this.report({ rule: 'R2', level: 'error', message: 'not well-formed XML: "<!doctype" is the HTML spelling (XML writes <!DOCTYPE)', ...at });
      this.report({ rule: 'R5', level: 'error', message: 'an HTML page, not a sitemap; expected <urlset> or <sitemapindex> (or an RSS or Atom feed)', ...at });
      // The rest is not read: the source is let go.
      await textRest.return?.();
      return;
    }
    // Nor does text before it (a PHP notice printed ahead of the XML): the XML reader reports it, and reads the sitemap after it.
    if (body.startsWith('<') || XML_AFTER_TEXT.test(look)) {
      // PHP's notices in HTML (`<br />`, `<b>Notice</b>`) would make `<br>` the root and end reading: they are blanked, line ends kept, so the XML reader reads past them as it reads past a plain notice, and every position stays where it was.
      const html = HTML_BEFORE_XML.test(look) ? XML_AFTER_TEXT.exec(look) : null;
      let xmlText = prependText(first, textRest);
      // An ASCII prefix: as many characters as bytes.
      if (html !== null && html.index > 0 && ASCII.test(look.slice(0, html.index))) {
        const before = look.slice(0, html.index);
        this.report({ rule: 'R2', level: 'error', message: `not well-formed XML: HTML before the XML (a PHP warning printed ahead of it?) is skipped to line ${before.split(/\r\n|\r|\n/).length}`, line: 1, column: 1 });
        xmlText = blanked(xmlText, html.index);
      }
      yield* this.#xml(xmlText, controls, invalid, invalidBytesMessage(decoder.encoding));
      return;
    }
    invalid.reportNow = true;
    if (invalid.at !== -1) this.report({ rule: 'R1', level: 'error', message: invalidBytesMessage(decoder.encoding) });
    if (body !== '') {
      // Told from the first bytes, decoded whole, so that how the input was cut cannot change the answer.
      const lines = new TextDecoder(decoder.encoding).decode(head.subarray(0, FORMAT_LOOK_BYTES));
      yield* this.#lines(prependText(first, textRest), isRobots(lines, head.length < FORMAT_LOOK_BYTES));
      return;
    }
    // Only whitespace so far: a source that failed after it fails here, rather than look like an empty file.
    await textRest.next();
    this.report({ rule: 'R2', level: 'error', message: `not well-formed XML: the file holds only whitespace${first.trim() === '' ? '' : ' and control characters'} (no root element)` });
  }

  async *#xml(text: AsyncIterable<string>, controls: ControlCheck, invalid: InvalidBytes, invalidMessage: string): AsyncGenerator<readonly ParsedEntry[]> {
    let queue: ParsedEntry[] = [];
    const position = (): XmlPosition => tokenizer.position();
    const assembler = new SitemapAssembler({
      base: this.#base,
      report: this.report,
      count: (rule, level, count) => this.#tally.add({ rule, level }, count),
      position,
      source: (): string | undefined => tokenizer.heldFromToken(),
      emit: (entry, place) => {
        queue.push(entry);
        if (place !== undefined) Placed.place(entry, place, this);
      },
      trackPositions: this.#options.trackPositions === true,
      onKind: (kind) => {
        this.kind = kind;
      },
    });
    const tokenizer = new XmlTokenizer(assembler);
    const flush = (): ParsedEntry[] => {
      const batch = queue;
      this.entries += batch.length;
      queue = [];
      return batch;
    };
    let written = 0;
    for await (const chunk of text) {
      const at = invalid.at - written;
      if (at >= 0 && at < chunk.length) {
        // Reported in its place among the findings, and only if reading gets there.
        tokenizer.write(chunk.slice(0, at), controls.checked);
        if (!assembler.stopped && !tokenizer.stopped) this.report({ rule: 'R1', level: 'error', message: invalidMessage, ...tokenizer.writtenTo() });
        tokenizer.write(chunk.slice(at), controls.checked);
      } else {
        tokenizer.write(chunk, controls.checked);
      }
      written += chunk.length;
      if (queue.length > 0) yield flush();
      if (assembler.stopped) return;
      // What is left is not read: no need to decompress and decode it.
      if (tokenizer.stopped) break;
    }
    tokenizer.end();
    assembler.finish();
    if (queue.length > 0) yield flush();
    // The counts, not the list: the list may keep none (maxDiagnostics).
    if (this.kind === 'unknown' && this.entries === 0 && !Object.keys(this.counts).some((key) => key.startsWith('R5:'))) {
      this.report({ rule: 'R5', level: 'error', message: 'no root element: this is not a sitemap' });
    }
  }

  /** Plain-text sitemaps (R30) and robots.txt (R27). */
  async *#lines(text: AsyncIterable<string>, robots: boolean): AsyncGenerator<readonly ParsedEntry[]> {
    this.kind = robots ? 'robots' : 'text';
    if (robots) {
      let whole = '';
      // Counted as UTF-8, as discover counts the bytes it fetches.
      let bytes = 0;
      // A body cut off part way: its whole lines are read, then the failure is passed on.
      let failure: { error: unknown } | undefined;
      try {
        for await (const chunk of text) {
          whole += chunk;
          bytes += Buffer.byteLength(chunk);
          if (bytes > MAX_ROBOTS_BYTES) {
            this.report({ rule: 'R27', level: 'warn', message: `robots.txt is larger than ${MAX_ROBOTS_BYTES} bytes; the rest is not read` });
            whole = wholeLines(new TextDecoder().decode(new TextEncoder().encode(whole).subarray(0, MAX_ROBOTS_BYTES)));
            break;
          }
        }
      } catch (error) {
        failure = { error };
        whole = wholeLines(whole);
      }
      const url = this.#base?.href ?? 'http://robots.invalid/robots.txt';
      const entries: ParsedEntry[] = [];
      const places = sitemapPlaces(whole);
      // Each value takes the next line it stands on.
      const place = (value: string): XmlPosition | undefined => places.get(value)?.shift();
      for (const sitemap of sitemapsInRobotsTxt(url, whole)) {
        const value = sitemap.trim();
        const start = place(value);
        const entry = { loc: value };
        if (start !== undefined && this.#options.trackPositions === true) Placed.place(entry, { start }, this);
        entries.push(entry);
        // A relative value is resolved against robots.txt's own URL when it is known, as discover does (R27 allows it, with a warning).
        const resolved = !HTTP_URL.test(value) && this.#base !== undefined && URL.canParse(value, this.#base.href) ? new URL(value, this.#base).href : undefined;
        if (resolved !== undefined && HTTP_URL.test(resolved)) {
          this.report({ rule: 'R27', level: 'warn', message: `Sitemap: URL should be absolute: "${value}" (read as ${resolved})`, url: resolved, ...start });
          entry.loc = resolved;
        } else if (!HTTP_URL.test(value)) this.report({ rule: 'R27', level: 'warn', message: `Sitemap: "${value}" is not an absolute http(s) URL`, url: value, ...start });
      }
      this.entries += entries.length;
      if (entries.length > 0) yield entries;
      if (failure !== undefined) throw failure.error;
      return;
    }
    let line = 0;
    const take = (raw: string, into: ParsedEntry[]): void => {
      line++;
      const value = raw.trim();
      if (value === '') return;
      if (!HTTP_URL.test(value) || /\s/.test(value)) {
        this.report({ rule: 'R30', level: 'error', message: `line is not an absolute http(s) URL: "${clip(value)}"; skipped`, line, column: 1 });
        return;
      }
      const entry = { loc: value };
      if (this.#options.trackPositions === true) Placed.place(entry, { start: { line, column: raw.length - raw.trimStart().length + 1 } }, this);
      into.push(entry);
    };
    // The line not ended yet; only the new text is split, so a long line costs no more than its length.
    let carry = '';
    // Characters of a line past MAX_TEXT_LINE, dropped as they come: a line of megabytes is no URL, and is not kept whole.
    let overlong = 0;
    // The chunk before ended with a CR: an LF starting this one is the rest of that line's CRLF.
    let afterReturn = false;
    for await (let chunk of text) {
      if (afterReturn && chunk.startsWith('\n')) chunk = chunk.slice(1);
      afterReturn = chunk.endsWith('\r');
      if (chunk === '') continue;
      const lines = chunk.split(/\r\n|\r|\n/);
      const rest = lines.pop() ?? '';
      const batch: ParsedEntry[] = [];
      for (let i = 0; i < lines.length; i++) {
        const raw = i === 0 ? carry + (lines[0] as string) : (lines[i] as string);
        const length = (i === 0 ? overlong : 0) + raw.length;
        if (length > MAX_TEXT_LINE) {
          line++;
          this.report({ rule: 'R30', level: 'error', message: `line is longer than ${MAX_TEXT_LINE} characters (${length}); skipped`, line, column: 1 });
        } else take(raw, batch);
        if (i === 0) overlong = 0;
      }
      if (lines.length > 0) carry = '';
      if (overlong > 0) overlong += rest.length;
      else if (carry.length + rest.length > MAX_TEXT_LINE) {
        overlong = carry.length + rest.length;
        carry = '';
      } else carry += rest;
      this.entries += batch.length;
      if (batch.length > 0) yield batch;
    }
    const last: ParsedEntry[] = [];
    if (overlong > 0) {
      line++;
      this.report({ rule: 'R30', level: 'error', message: `line is longer than ${MAX_TEXT_LINE} characters (${overlong}); skipped`, line, column: 1 });
    } else take(carry, last);
    this.entries += last.length;
    if (last.length > 0) yield last;
  }

  /** Undoes Brotli (as the caller says) and gzip (found by its magic bytes, whatever the name), up to two layers. */
  async #decompressed(bytes: AsyncIterable<Uint8Array>, layer: number): Promise<AsyncIterable<Uint8Array>> {
    if (layer === 0 && this.#options.compression === 'br') {
      this.compressed = true;
      return this.#decompressed(this.#unbrotli(bytes), 1);
    }
    const [head, cuts, rest] = await peek(bytes, 2);
    const all = prepend(cuts, rest);
    if (head[0] !== GZIP_MAGIC[0] || head[1] !== GZIP_MAGIC[1]) return layer === 0 ? inPieces(all) : all;
    if (layer >= MAX_GZIP_LAYERS) {
      this.report({ rule: 'R4', level: 'error', message: `gzip nested more than ${MAX_GZIP_LAYERS} deep; not unwrapped` });
      return all;
    }
    if (layer > 0) this.report({ rule: 'R4', level: 'warn', message: 'the file is gzipped twice; unwrapped both layers' });
    this.compressed = true;
    return this.#decompressed(this.#gunzip(all), layer + 1);
  }

  async *#gunzip(bytes: AsyncIterable<Uint8Array>): AsyncGenerator<Uint8Array> {
    const gunzip = createGunzip({ chunkSize: GUNZIP_CHUNK });
    // A failing source (a dropped connection) is the caller's failure, not damage in the data: what
    // came before it is inflated and read (a sync flush, where ending the input would call it
    // truncated), then its error is passed on.
    let failure: { error: unknown } | undefined;
    // The input from its start while it is no more than GUNZIP_RETAINED_BYTES (whole pieces, a multiple of GUNZIP_INPUT_CHUNK), to be read again should gunzip fail on it (gzip.ts).
    const retained: Uint8Array[] = [];
    let fed = 0;
    async function* untilFailure(): AsyncGenerator<Uint8Array> {
      try {
        // zlib recovers more or less of a damaged stream depending on how its input was cut; fixed cuts make the result the same.
        for await (const piece of rechunk(bytes, GUNZIP_INPUT_CHUNK)) {
          fed += piece.length;
          if (fed <= GUNZIP_RETAINED_BYTES) retained.push(piece);
          yield piece;
        }
      } catch (error) {
        failure = { error };
      }
    }
    const input = Readable.from(untilFailure(), { objectMode: false });
    let inflating = true;
    input.on('end', () => {
      // Gunzip is done (or failed), and the rest of the input was taken to be looked at.
      if (!inflating) return;
      if (failure === undefined) gunzip.end();
      else gunzip.flush(zlibConstants.Z_SYNC_FLUSH, () => gunzip.push(null));
    });
    input.pipe(gunzip, { end: false });
    let delivered = 0;
    let gunzipError: unknown;
    try {
      try {
        for await (const chunk of gunzip as AsyncIterable<Uint8Array>) {
          delivered += chunk.length;
          yield* pieces(chunk);
        }
      } catch (error) {
        gunzipError = error;
      }
      inflating = false;
      // What follows the gzip data is judged on the input read to its end or past what is kept, never on how far it happened to be read ahead.
      input.unpipe(gunzip);
      // eslint-disable-next-line @typescript-eslint/no-unused-vars -- each piece is kept as it is taken (untilFailure)
      for await (const _ of input.iterator({ destroyOnReturn: false })) if (fed > GUNZIP_RETAINED_BYTES) break;
      const whole = fed <= GUNZIP_RETAINED_BYTES;
      const kept = (): Uint8Array => concat(retained, retained.reduce((sum, piece) => sum + piece.length, 0));
      // Where gunzip stopped taking input: on a failure, within the piece that failed.
      const taken = gunzip.bytesWritten;
      if (gunzipError === undefined) {
        // zlib stops without a word at a zero byte after a member (padding, to it): anything else after that is reported.
        const tail = taken < fed && taken < GUNZIP_RETAINED_BYTES && failure === undefined ? kept().subarray(taken) : undefined;
        if (tail?.some((byte) => byte !== 0) === true) this.#reportIgnored(tail.length, whole);
      } else if (taken >= GUNZIP_RETAINED_BYTES) {
        this.#reportDamage(gunzipError);
      } else {
        yield* this.#gunzipAgain(kept(), whole, delivered, gunzipError);
      }
    } finally {
      input.destroy();
      gunzip.destroy();
    }
    if (failure !== undefined) throw failure.error;
  }

  /** Brotli undone as it streams; damage is an R4 error, the output before it read. */
  async *#unbrotli(bytes: AsyncIterable<Uint8Array>): AsyncGenerator<Uint8Array> {
    const brotli = createBrotliDecompress({ chunkSize: GUNZIP_CHUNK });
    // As for gzip: a failing source is the caller's failure; what came before it is decompressed and read first.
    let failure: { error: unknown } | undefined;
    async function* untilFailure(): AsyncGenerator<Uint8Array> {
      try {
        yield* bytes;
      } catch (error) {
        failure = { error };
      }
    }
    const input = Readable.from(untilFailure(), { objectMode: false });
    input.on('end', () => {
      if (failure === undefined) brotli.end();
      else brotli.flush(zlibConstants.BROTLI_OPERATION_FLUSH, () => brotli.push(null));
    });
    input.pipe(brotli, { end: false });
    let delivered = 0;
    try {
      for await (const chunk of brotli as AsyncIterable<Uint8Array>) {
        delivered += chunk.length;
        yield* pieces(chunk);
      }
    } catch (error) {
      const reason = (error as Error).message;
      if (delivered === 0) {
        this.#notBrotli = true;
        this.report({ rule: 'R4', level: 'error', message: `the file is not Brotli data, as its name or Content-Encoding says (${reason}); it is not read` });
      } else this.report({ rule: 'R4', level: 'error', message: `the Brotli data is damaged (${reason}); read up to the damage` });
    } finally {
      input.destroy();
      brotli.destroy();
    }
    if (failure !== undefined) throw failure.error;
  }

  /** After gunzip failed on the first `kept` bytes (all of the input if `whole`): read again member by member, what gunzip did not deliver handed on. */
  async *#gunzipAgain(kept: Uint8Array, whole: boolean, delivered: number, gunzipError: unknown): AsyncGenerator<Uint8Array> {
    const members = gunzipMembers(kept, GUNZIP_CHUNK);
    let skip = delivered;
    let next: IteratorResult<Uint8Array, GzipEnd>;
    try {
      for (next = await members.next(); next.done !== true; next = await members.next()) {
        const chunk = next.value;
        if (skip >= chunk.length) skip -= chunk.length;
        else {
          yield* pieces(chunk.subarray(skip));
          skip = 0;
        }
      }
    } finally {
      await members.return({ ignored: 0 });
    }
    const end = next.value;
    if (end.damage !== undefined) this.#reportDamage(new Error(end.damage));
    // All of it read back without fault, yet gunzip failed: its word stands.
    else if (end.ignored === 0) this.#reportDamage(gunzipError);
    else this.#reportIgnored(end.ignored, whole);
  }

  #reportDamage(error: unknown): void {
    this.report({ rule: 'R4', level: 'error', message: `the gzip data is damaged (${(error as Error).message}); read up to the damage` });
  }

  #reportIgnored(count: number, exact: boolean): void {
    const bytes = `${exact ? '' : 'more than '}${count} ${count === 1 ? 'byte' : 'bytes'}`;
    this.report({ rule: 'R4', level: 'warn', message: `${bytes} after the gzip data ${count === 1 && exact ? 'is' : 'are'} not gzip; ignored` });
  }

  /** Stops at `maxBytes` decompressed: gzip bombs and runaway bodies end there with a finding. */
  async *#capped(bytes: AsyncIterable<Uint8Array>): AsyncGenerator<Uint8Array> {
    const max = this.#options.maxBytes ?? DEFAULT_MAX_BYTES;
    try {
      for await (const chunk of bytes) {
        const room = max - this.bytes;
        if (chunk.length > room) {
          if (room > 0) yield chunk.subarray(0, room);
          this.bytes = max;
          // Past the protocol's limit, that is what the file breaks; below it, only the limit the caller set is known to be passed.
          const bytes = `${max} bytes${this.compressed ? ' (decompressed)' : ''}`;
          if (max >= MAX_SITEMAP_BYTES) this.report({ rule: 'R3', level: 'error', message: `stopped reading at ${bytes}; the rest of the file is not read` });
          else this.report({ rule: 'INPUT', level: 'error', message: `stopped reading at ${bytes}, the limit set by maxBytes (--max-bytes); the rest of the file is not read or checked` });
          return;
        }
        this.bytes += chunk.length;
        yield chunk;
      }
    } catch (error) {
      // Cut off part way, but already past the limit: that much is known.
      if (this.bytes > MAX_SITEMAP_BYTES) {
        this.report({ rule: 'R3', level: 'error', message: `the file is more than ${this.bytes} bytes${this.compressed ? ' uncompressed' : ''}; a sitemap may be at most ${MAX_SITEMAP_BYTES}` });
      }
      throw error;
    }
    if (this.bytes > MAX_SITEMAP_BYTES) {
      this.report({ rule: 'R3', level: 'error', message: `the file is ${this.bytes} bytes${this.compressed ? ' uncompressed' : ''}; a sitemap may be at most ${MAX_SITEMAP_BYTES}` });
    }
  }
}

/** Refuses a `maxBytes` that is no whole number or past MAX_READ_BYTES (SM_BAD_OPTION). */
export function checkMaxBytes(maxBytes: number | undefined): void {
  if (maxBytes !== undefined && !(Number.isInteger(maxBytes) && maxBytes >= 0 && maxBytes <= MAX_READ_BYTES)) {
    throw new SitemapError('SM_BAD_OPTION', `maxBytes (--max-bytes) must be a whole number from 0 to ${MAX_READ_BYTES}, got ${maxBytes}`);
  }
}

/** Parses a sitemap, index, feed, text list or robots.txt; iterate the result for its entries. */
export function parseSitemap(source: ByteSource, options?: ParseOptions): ParsedSitemap {
  return new ParsedSitemap(source, options);
}

/**
 * Told by the first line that is neither blank nor a comment: a text sitemap may open with a
 * `# generated by…` line too (an R30 error there). Comments only: robots.txt. `text` is the start of
 * the file (all of it when `whole`); a line it cuts short is told by its start, so far as that goes.
 */
function isRobots(text: string, whole: boolean): boolean {
  const lines = text.split(/\r\n|\r|\n/);
  for (const [i, line] of lines.entries()) {
    const trimmed = line.trimStart();
    if (trimmed === '' || trimmed.startsWith('#')) continue;
    if (ROBOTS_LINE.test(trimmed)) return true;
    const cutShort = !whole && i === lines.length - 1;
    return cutShort && ROBOTS_FIELDS.some((field) => field.startsWith(trimmed.toLowerCase()));
  }
  return true;
}

async function* toAsync(source: ByteSource): AsyncGenerator<Uint8Array> {
  if (source instanceof Uint8Array) {
    yield source;
    return;
  }
  for await (const chunk of source) yield typeof chunk === 'string' ? new TextEncoder().encode(chunk) : chunk;
}

/**
 * The first `n` bytes (fewer only at the end), the pieces they came in, and an iterator over the
 * rest. A source that fails after some bytes fails on the rest: what came before the failure is
 * still read. The pieces are handed on as they came (`prepend`), so that how the input was cut
 * reaches the XML reader, its first bytes included, as it would without the look.
 */
async function peek(bytes: AsyncIterable<Uint8Array>, n: number): Promise<[Uint8Array, Uint8Array[], AsyncIterator<Uint8Array>]> {
  const iterator = bytes[Symbol.asyncIterator]();
  const parts: Uint8Array[] = [];
  let length = 0;
  try {
    while (length < n) {
      const next = await iterator.next();
      if (next.done === true) break;
      parts.push(next.value);
      length += next.value.length;
    }
  } catch (error) {
    if (length === 0) throw error;
    return [concat(parts, length), parts, failing(error)];
  }
  return [concat(parts, length), parts, iterator];
}

/** An iterator that fails with `error` when asked for more. */
function failing<T>(error: unknown): AsyncIterator<T> {
  return {
    next: () => Promise.reject(error as Error),
    return: async () => ({ done: true, value: undefined }),
  };
}

async function* prepend(head: readonly Uint8Array[], rest: AsyncIterator<Uint8Array>): AsyncGenerator<Uint8Array> {
  try {
    for (const piece of head) if (piece.length > 0) yield piece;
    for (let next = await rest.next(); next.done !== true; next = await rest.next()) yield next.value;
  } finally {
    // Left early too (reading stopped, or the consumer broke off): the source is let go, a file closed.
    await rest.return?.();
  }
}

/** Text before the first character that is neither whitespace nor a control character, held to tell the format: a sitemap's content starts well within it. */
const MAX_LEADING_BLANK = 1024 * 1024;

/** What peekText found: the text up to its first content (and the rest), or, past MAX_LEADING_BLANK characters of blank text, how much there was and whether content came after it. */
type Peeked = { text: [string, AsyncIterator<string>]; blank?: undefined } | { blank: { chars: number; controls: boolean; content: boolean } };

async function peekText(text: AsyncIterable<string>): Promise<Peeked> {
  const iterator = text[Symbol.asyncIterator]();
  // Each piece looked at once and joined at the end: a long run of whitespace stays linear.
  const parts: string[] = [];
  let held = 0;
  try {
    // As the choice between XML and lines makes it: control characters do not count.
    for (let next = await iterator.next(); next.done !== true; next = await iterator.next()) {
      parts.push(next.value);
      held += next.value.length;
      if (next.value.replace(LEADING_SPACE_OR_CONTROLS, '') !== '') break;
      if (held > MAX_LEADING_BLANK) return { blank: await blankRun(parts, held, iterator) };
    }
  } catch (error) {
    if (parts.length === 0) throw error;
    return { text: [parts.join(''), failing(error)] };
  }
  return { text: [parts.join(''), iterator] };
}

/** Reads on through a run of blank text without holding it: its length, whether it held control characters, whether content came after it (the source let go then). */
async function blankRun(parts: string[], held: number, iterator: AsyncIterator<string>): Promise<{ chars: number; controls: boolean; content: boolean }> {
  let controls = parts.some((part) => part.trim() !== '');
  let chars = held;
  parts.length = 0;
  for (let next = await iterator.next(); next.done !== true; next = await iterator.next()) {
    const rest = next.value.replace(LEADING_SPACE_OR_CONTROLS, '');
    controls ||= next.value.slice(0, next.value.length - rest.length).trim() !== '';
    chars += next.value.length - rest.length;
    if (rest !== '') {
      await iterator.return?.();
      return { chars, controls, content: true };
    }
  }
  return { chars, controls, content: false };
}

/** The text with its first `count` characters made spaces, line ends kept (however the pieces are cut). */
async function* blanked(text: AsyncIterable<string>, count: number): AsyncGenerator<string> {
  let left = count;
  for await (const piece of text) {
    const cut = Math.min(left, piece.length);
    left -= cut;
    yield cut === 0 ? piece : piece.slice(0, cut).replace(/[^\r\n]/g, ' ') + piece.slice(cut);
  }
}

async function* prependText(head: string, rest: AsyncIterator<string>): AsyncGenerator<string> {
  try {
    if (head !== '') yield head;
    for (let next = await rest.next(); next.done !== true; next = await rest.next()) yield next.value;
  } finally {
    await rest.return?.();
  }
}

/**
 * For UTF-8, C0 control characters are looked for in the bytes, faster than the tokenizer can in
 * the text; `checked` stays true while none was found. Decoding may run a chunk ahead of the
 * tokenizer, so a find turns it off early, never late.
 */
interface ControlCheck {
  checked: boolean;
}

/** The text offset of the first bytes the encoding does not allow (-1: none yet), and whether to report them as soon as found (no XML reader to place them). */
interface InvalidBytes {
  at: number;
  reportNow: boolean;
}

const invalidBytesMessage = (encoding: string): string =>
  encoding === 'utf-8' ? 'bytes that are not valid UTF-8 (replaced with U+FFFD)' : 'an unpaired surrogate, which is not valid UTF-16 (replaced with U+FFFD)';

/**
 * Decoded text; for UTF-8 and UTF-16, the offset in it of the first character made up for bytes
 * the encoding does not allow goes to `onInvalid` before the chunk holding it is handed on.
 */
async function* decodeChunks(bytes: AsyncIterable<Uint8Array>, decoder: ChunkDecoder, onInvalid: (offset: number) => void, controls?: ControlCheck): AsyncGenerator<string> {
  const utf16 = decoder.encoding === 'utf-16le' || decoder.encoding === 'utf-16be';
  let invalid = decoder.encoding !== 'utf-8' && !utf16;
  let decoded = 0;
  let bytesRead = 0;
  // The byte-order mark the UTF-16 decoder drops (a file that declares UTF-16 may have none).
  let bomBytes = -1;
  // The last three bytes of the previous chunk: a character, a literal U+FFFD among them, may straddle the cut.
  let carried: Uint8Array = new Uint8Array(0);
  const check = (chunk: Uint8Array, text: string): void => {
    // The bytes of a UTF-8 byte-order mark in this chunk: the decoder drops it, so the text starts after them.
    let utf8BomHere = 0;
    if (bytesRead < 3) {
      // A byte-order mark may come cut over the first chunks; until three bytes are read, `carried` holds them all.
      const lead = concat([carried, chunk], carried.length + chunk.length);
      if (bomBytes === -1 && (lead.length >= 2 || chunk.length === 0)) bomBytes = utf16 && ((lead[0] === 0xff && lead[1] === 0xfe) || (lead[0] === 0xfe && lead[1] === 0xff)) ? 2 : 0;
      if (!utf16 && lead[0] === 0xef && lead[1] === 0xbb && lead[2] === 0xbf) utf8BomHere = 3 - bytesRead;
    }
    if (!invalid && text.indexOf('\uFFFD') !== -1) {
      const at = utf16
        ? firstInventedUtf16Replacement(carried, chunk, bytesRead, text, bomBytes + 2 * decoded, decoder.encoding === 'utf-16le')
        : utf8BomHere > 0
          ? firstInventedReplacement(new Uint8Array(0), chunk.subarray(utf8BomHere), text)
          : firstInventedReplacement(carried, chunk, text);
      if (at !== -1) {
        invalid = true;
        onInvalid(decoded + at);
      }
    }
    decoded += text.length;
    bytesRead += chunk.length;
    carried = chunk.length >= 3 ? chunk.subarray(chunk.length - 3) : concat([carried, chunk], carried.length + chunk.length).slice(-3);
  };
  for await (const chunk of bytes) {
    if (controls?.checked === true && hasControlBytes(chunk)) controls.checked = false;
    const text = decoder.decode(chunk, { stream: true });
    check(chunk, text);
    if (text !== '') yield text;
  }
  const tail = decoder.decode();
  check(new Uint8Array(0), tail);
  if (tail !== '') yield tail;
}

/**
 * The same bytes in pieces of at most TEXT_CHUNK, without copying: a whole file given as one
 * buffer would otherwise be one string, and reading could stop (at a cap) only at its end.
 */
async function* inPieces(bytes: AsyncIterable<Uint8Array>): AsyncGenerator<Uint8Array> {
  for await (const chunk of bytes) yield* pieces(chunk);
}

function* pieces(chunk: Uint8Array): Generator<Uint8Array> {
  for (let at = 0; at < chunk.length; at += TEXT_CHUNK) yield chunk.subarray(at, at + TEXT_CHUNK);
}

/** The same bytes in pieces of exactly `size` (the last may be shorter, and so may one cut short by the source failing). */
async function* rechunk(bytes: AsyncIterable<Uint8Array>, size: number): AsyncGenerator<Uint8Array> {
  let piece = new Uint8Array(size);
  let filled = 0;
  try {
    for await (let chunk of bytes) {
      while (chunk.length > 0) {
        const n = Math.min(size - filled, chunk.length);
        piece.set(chunk.subarray(0, n), filled);
        filled += n;
        chunk = chunk.subarray(n);
        if (filled === size) {
          yield piece;
          piece = new Uint8Array(size);
          filled = 0;
        }
      }
    }
  } catch (error) {
    if (filled > 0) yield piece.subarray(0, filled);
    throw error;
  }
  if (filled > 0) yield piece.subarray(0, filled);
}

function concat(parts: readonly Uint8Array[], length: number): Uint8Array {
  return parts.length === 1 ? (parts[0] as Uint8Array) : Buffer.concat(parts, length);
}

function clip(text: string): string {
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}
