/**
 * Cuts a stream of serialized `<url>` lines into sitemap files: a file closes when the next entry
 * would pass the URL count, the uncompressed byte size (R3, R15) or the news count (R37).
 * The body leaves as 64 KiB byte chunks while the file is built (never one string per tag), so the
 * sink can compress and write it on the way; the head comes last, as it names the namespaces used (R24).
 */
import { utf8Length } from './escape.ts';
import { URLSET_CLOSE, urlsetOpen } from './serialize.ts';

export interface SplitLimits {
  maxUrls: number;
  maxBytes: number;
  maxNews: number;
}

export interface SitemapPart {
  urls: number;
  bytes: number;
  /** The newest lastmod inside, as written, for the index (R19). */
  newestLastmod?: string;
}

/** Text is encoded to bytes every 64 KiB: big enough for zlib and write, small enough to hand on at once. */
const CHUNK_CHARS = 64 * 1024;
const encoder = new TextEncoder();
const CLOSE_BYTES = URLSET_CLOSE.length;

export class PartBuilder {
  readonly #limits: SplitLimits;
  readonly #stylesheet: string | undefined;
  #chunk: Uint8Array | undefined;
  #pending = '';
  #urls = 0;
  #news = 0;
  #bodyBytes = 0;
  #nsBits = 0;
  #newestEpoch = Number.NEGATIVE_INFINITY;
  #newestLastmod: string | undefined;
  readonly #headerBytesByNs: number[] = [];

  constructor(limits: SplitLimits, stylesheet: string | undefined) {
    this.#limits = limits;
    this.#stylesheet = stylesheet;
  }

  get urls(): number {
    return this.#urls;
  }

  /** Whether an entry of this size fits in an empty file at all. */
  fitsAlone(bytes: number, nsBits: number): boolean {
    return this.#headerBytes(nsBits) + bytes + CLOSE_BYTES <= this.#limits.maxBytes;
  }

  /** Adds the entry of `bytes` UTF-8 bytes, or returns false (adding nothing) when it would break a limit of this file. */
  tryAdd(xml: string, bytes: number, nsBits: number, hasNews: boolean, lastmod?: string, lastmodEpoch?: number): boolean {
    if (this.#urls >= this.#limits.maxUrls) return false;
    if (hasNews && this.#news >= this.#limits.maxNews) return false;
    const union = this.#nsBits | nsBits;
    if (this.#headerBytes(union) + this.#bodyBytes + bytes + CLOSE_BYTES > this.#limits.maxBytes) return false;
    this.#nsBits = union;
    this.#bodyBytes += bytes;
    this.#urls++;
    if (hasNews) this.#news++;
    if (lastmodEpoch !== undefined && lastmodEpoch > this.#newestEpoch) {
      this.#newestEpoch = lastmodEpoch;
      this.#newestLastmod = lastmod;
    }
    this.#pending += xml;
    if (this.#pending.length >= CHUNK_CHARS) {
      this.#chunk = encoder.encode(this.#pending);
      this.#pending = '';
    }
    return true;
  }

  /** The body chunk `tryAdd` just completed, if it did; the caller hands it to the sink at once. */
  takeChunk(): Uint8Array | undefined {
    const chunk = this.#chunk;
    this.#chunk = undefined;
    return chunk;
  }

  /** Finishes the file and resets the builder for the next one: the head, the rest of the body with the closing tag, and the totals. */
  finish(): { head: Uint8Array; tail: Uint8Array; part: SitemapPart } {
    const open = urlsetOpen(this.#nsBits, this.#stylesheet);
    const head = encoder.encode(open);
    const tail = encoder.encode(this.#pending + URLSET_CLOSE);
    const part: SitemapPart = { urls: this.#urls, bytes: head.length + this.#bodyBytes + CLOSE_BYTES };
    if (this.#newestLastmod !== undefined) part.newestLastmod = this.#newestLastmod;
    this.#chunk = undefined;
    this.#pending = '';
    this.#urls = 0;
    this.#news = 0;
    this.#bodyBytes = 0;
    this.#nsBits = 0;
    this.#newestEpoch = Number.NEGATIVE_INFINITY;
    this.#newestLastmod = undefined;
    return { head, tail, part };
  }

  #headerBytes(nsBits: number): number {
    let bytes = this.#headerBytesByNs[nsBits];
    if (bytes === undefined) {
      bytes = utf8Length(urlsetOpen(nsBits, this.#stylesheet));
      this.#headerBytesByNs[nsBits] = bytes;
    }
    return bytes;
  }
}
