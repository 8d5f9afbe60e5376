/**
 * The file writer: the open files of a build by slot, each a `PartBuilder` (the exact limits) whose
 * body chunks go to a sink file as they come; closed files are named, listed in the index and
 * staged; at the end the entry point: the index, or the only file itself (unless only the URL files
 * are gzipped: the entry point keeps its `.xml` name, so a single file is listed by an index too).
 */
import { SitemapError } from '../errors.ts';
import type { SitemapFileWriter, SitemapSink, WrittenFile } from '../model/pipeline.ts';
import type { SitemapIndexEntry } from '../model/record.ts';
import { MAX_SITEMAPS_PER_INDEX } from '../rules/limits.ts';
import { utf8Length } from './escape.ts';
import type { OpenFiles, SerializedEntry } from './plan.ts';
import { serializeSitemapIndex } from './serialize.ts';
import { PartBuilder, type SitemapPart, type SplitLimits } from './split.ts';

export interface FileSetOptions {
  /** The folder URL the files are served from, ending in `/`. */
  base: URL;
  /** File name stem: `sitemap.xml`, `sitemap-1.xml`… */
  stem: string;
  /** The URL files are gzipped (`sitemap-1.xml.gz`…); then the entry point is always an index, so it stays `sitemap.xml`. */
  gzip: boolean;
  /** The entry point is gzipped too (`sitemap.xml.gz`, a single file then being the entry point itself); implies `gzip`. */
  gzipIndex: boolean;
  stylesheet: string | undefined;
  /** Per file; `maxBytes` holds for the index too. */
  limits: SplitLimits;
  /** The entry point is an index even of one file (a state's build: the first file keeps its name as files are added). @default false */
  alwaysIndex?: boolean;
}

/** Finishing one file (the end of its compression, the disk write) overlaps building the next. */
const MAX_WRITES_IN_FLIGHT = 1;

interface OpenFile {
  builder: PartBuilder;
  /** Created with the file's first body chunk (or when it closes), so a file closed empty never reaches the sink. */
  writer: SitemapFileWriter | undefined;
}

/** A closed file's content and totals, waiting to be named and staged. */
interface ClosedFile {
  slot: number;
  writer: SitemapFileWriter;
  head: Uint8Array;
  tail: Uint8Array;
  part: SitemapPart;
}

interface StagedFile {
  slot: number;
  name: string;
  part: SitemapPart;
  written: Promise<{ compressedBytes?: number; name?: string; unchanged?: boolean }>;
}

/** A file of the set by slot, under the name it is published as. */
export interface PublishedFile {
  slot: number;
  name: string;
  part: SitemapPart;
}

export class FileSet implements OpenFiles {
  readonly #sink: SitemapSink;
  readonly #options: FileSetOptions;
  readonly #open: (OpenFile | undefined)[] = [];
  readonly #used = new Set<number>();
  /** Builders of closed files, reset and ready for the next. */
  readonly #spare: PartBuilder[] = [];
  /** Answers `fitsAlone`, which depends only on the limits and the stylesheet. */
  readonly #probe: PartBuilder;
  readonly #staged: StagedFile[] = [];
  readonly #inFlight: Promise<unknown>[] = [];
  /** The first file closed: named once it is known whether more follow (alone, it is the entry point). */
  #held: ClosedFile | undefined;
  /** The index is a file too: it may not pass the byte limit either, and cannot be split. */
  #indexBytes: number;
  #urls = 0;
  #wait: Promise<void> | undefined;
  #published: PublishedFile[] = [];

  constructor(sink: SitemapSink, options: FileSetOptions) {
    this.#sink = sink;
    this.#options = options;
    this.#probe = new PartBuilder(options.limits, options.stylesheet);
    this.#indexBytes = utf8Length(serializeSitemapIndex([], options.stylesheet));
  }

  /** URLs added so far. */
  get urls(): number {
    return this.#urls;
  }

  /** Files named and handed to the sink so far. */
  get staged(): number {
    return this.#staged.length;
  }

  open(slot: number): void {
    if (!Number.isInteger(slot) || slot < 0 || this.#used.has(slot)) throw new RangeError(`file slot ${slot} cannot be opened: slots are whole numbers from 0, each used once`);
    this.#used.add(slot);
    this.#open[slot] = { builder: this.#spare.pop() ?? new PartBuilder(this.#options.limits, this.#options.stylesheet), writer: undefined };
  }

  tryAdd(slot: number, entry: SerializedEntry): boolean {
    const file = this.#open[slot];
    if (file === undefined) throw new RangeError(`file slot ${slot} is not open`);
    const { builder } = file;
    if (!builder.tryAdd(entry.xml, entry.bytes, entry.nsBits, entry.hasNews, entry.lastmod, entry.lastmodEpoch)) return false;
    this.#urls++;
    const chunk = builder.takeChunk();
    if (chunk !== undefined) this.#wait = (file.writer ??= this.#createUrlFile()).write(chunk);
    return true;
  }

  /** The sink's request to wait after the entry just added (e.g. for a compressor to catch up), if it made one. */
  takeWait(): Promise<void> | undefined {
    const wait = this.#wait;
    this.#wait = undefined;
    return wait;
  }

  fitsAlone(entry: SerializedEntry): boolean {
    return this.#probe.fitsAlone(entry.bytes, entry.nsBits);
  }

  /**
   * Keeps the published file `name` in `slot` as it is (`SitemapSink.keep`): listed in the index with
   * `part`'s totals, never re-serialized. Returns false, keeping nothing, when the published set has no
   * such file (the caller writes the slot again).
   */
  async keep(slot: number, name: string, part: SitemapPart): Promise<boolean> {
    if (!Number.isInteger(slot) || slot < 0 || this.#used.has(slot)) throw new RangeError(`file slot ${slot} cannot be kept: slots are whole numbers from 0, each used once`);
    try {
      await this.#sink.keep(name);
    } catch (error) {
      if (error instanceof SitemapError && error.code === 'SM_OUTPUT_CONFLICT' && error.message.startsWith('cannot keep')) return false;
      throw error;
    }
    this.#used.add(slot);
    const held = this.#held;
    if (held !== undefined) {
      this.#held = undefined;
      this.#list(this.#childName(held.slot), held.part);
      await this.#stage(this.#childName(held.slot), held);
    }
    this.#list(name, part);
    this.#staged.push({ slot, name, part, written: Promise.resolve({ name, unchanged: true }) });
    return true;
  }

  /** After `finish`: every file by slot (the entry point's slot when it is the only file), under its published name. */
  get published(): readonly PublishedFile[] {
    return this.#published;
  }

  async close(slot: number): Promise<void> {
    const file = this.#open[slot];
    if (file === undefined) throw new RangeError(`file slot ${slot} is not open`);
    this.#open[slot] = undefined;
    const { builder } = file;
    const empty = builder.urls === 0;
    const closed: ClosedFile | undefined = empty ? undefined : { slot, writer: file.writer ?? this.#createUrlFile(), ...builder.finish() };
    this.#spare.push(builder);
    if (closed === undefined) return;
    if (this.#held === undefined && this.#staged.length === 0) {
      this.#held = closed;
      return;
    }
    const held = this.#held;
    if (held !== undefined) {
      this.#list(this.#childName(held.slot), held.part);
      await this.#stage(this.#childName(held.slot), held);
      this.#held = undefined;
    }
    if (this.#staged.length >= MAX_SITEMAPS_PER_INDEX) {
      throw new SitemapError('SM_INDEX_LIMIT', `more than ${MAX_SITEMAPS_PER_INDEX} sitemap files would be needed; an index cannot list more and indexes cannot nest (R20, R22)`);
    }
    this.#list(this.#childName(slot), closed.part);
    await this.#stage(this.#childName(slot), closed);
  }

  /**
   * Closes the files still open, then stages the entry point: the only file under the stem's own
   * name, or the index of all (in slot order). Returns every file, the entry point last. Called
   * only when some URL was added.
   */
  async finish(): Promise<WrittenFile[]> {
    for (let slot = 0; slot < this.#open.length; slot++) {
      if (this.#open[slot] !== undefined) await this.close(slot);
    }
    const { base, stem, gzip, gzipIndex, stylesheet } = this.#options;
    const entryPoint = `${stem}${gzipIndex ? '.xml.gz' : '.xml'}`;
    const held = this.#held;
    if (held !== undefined) {
      this.#held = undefined;
      // The only file is the entry point, unless it is gzipped and the entry point is not: then it is a child like any other.
      if (gzip === gzipIndex && this.#options.alwaysIndex !== true) {
        await this.#stage(entryPoint, held);
        return (await this.#describe()).map(({ file }) => file);
      }
      this.#list(this.#childName(held.slot), held.part);
      await this.#stage(this.#childName(held.slot), held);
    }
    this.#staged.sort((a, b) => a.slot - b.slot);
    // The index lists each file under the name the sink published it as.
    const children = await this.#describe();
    const files = children.map(({ file }) => file);
    const index: SitemapIndexEntry[] = children.map(({ file, part }) => indexEntry(file.name, part, base));
    const xml = serializeSitemapIndex(index, stylesheet);
    if (utf8Length(xml) > this.#options.limits.maxBytes) throw this.#indexTooLarge(index.length);
    const { compressedBytes, unchanged } = await this.#sink.create({ gzip: gzipIndex }).finish(entryPoint, new TextEncoder().encode(xml), new Uint8Array(0));
    const file: WrittenFile = { name: entryPoint, url: new URL(entryPoint, base).href, kind: 'index', entries: index.length, bytes: utf8Length(xml) };
    if (compressedBytes !== undefined) file.compressedBytes = compressedBytes;
    if (unchanged === true) file.unchanged = true;
    files.push(file);
    return files;
  }

  /** Waits for every file handed to the sink to settle, so an aborting sink finds none half-written. */
  async settle(): Promise<void> {
    await Promise.allSettled(this.#staged.map((file) => file.written));
  }

  #childName(slot: number): string {
    return `${this.#options.stem}-${slot + 1}${this.#options.gzip ? '.xml.gz' : '.xml'}`;
  }

  #createUrlFile(): SitemapFileWriter {
    return this.#sink.create({ gzip: this.#options.gzip });
  }

  /** Counts the file's line in the index, which fails the build as soon as the index would pass the byte limit. */
  #list(name: string, part: SitemapPart): void {
    const { base, limits } = this.#options;
    this.#indexBytes += serializeSitemapIndex([indexEntry(name, part, base)]).length - serializeSitemapIndex([]).length;
    if (this.#indexBytes > limits.maxBytes) throw this.#indexTooLarge(this.#staged.length + 1);
  }

  #indexTooLarge(files: number): SitemapError {
    return new SitemapError('SM_INDEX_LIMIT', `the index of ${files} sitemap files would be more than ${this.#options.limits.maxBytes} bytes (maxBytesPerFile, --max-bytes); an index cannot be split (indexes cannot nest, R22): allow larger files`);
  }

  async #stage(name: string, { slot, writer, head, tail, part }: ClosedFile): Promise<void> {
    const written = writer.finish(name, head, tail);
    written.catch(() => {}); // observed in finish or settle; this only keeps an early failure from counting as unhandled
    this.#staged.push({ slot, name, part, written });
    this.#inFlight.push(written);
    // Start this file's finish first, then wait for the one before.
    if (this.#inFlight.length > MAX_WRITES_IN_FLIGHT) await this.#inFlight.shift();
  }

  /** The staged files once written, each under the name the sink published it as. */
  async #describe(): Promise<{ file: WrittenFile; part: SitemapPart }[]> {
    const files: { file: WrittenFile; part: SitemapPart }[] = [];
    this.#published = [];
    for (const { slot, name: asked, part, written } of this.#staged) {
      const { compressedBytes, name = asked, unchanged } = await written;
      const file: WrittenFile = { name, url: new URL(name, this.#options.base).href, kind: 'urlset', entries: part.urls, bytes: part.bytes };
      if (compressedBytes !== undefined) file.compressedBytes = compressedBytes;
      if (unchanged === true) file.unchanged = true;
      files.push({ file, part });
      this.#published.push({ slot, name, part });
    }
    return files;
  }
}

function indexEntry(name: string, part: SitemapPart, base: URL): SitemapIndexEntry {
  const entry: SitemapIndexEntry = { loc: new URL(name, base).href };
  if (part.newestLastmod !== undefined) entry.lastmod = part.newestLastmod;
  return entry;
}
