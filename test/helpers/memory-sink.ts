/** A SitemapSink that keeps files in memory, for tests of the pure pipeline. */
import { SitemapError, type SitemapSink } from '../../src/index.ts';

export interface MemorySink extends SitemapSink {
  /** Committed files by name, as text: the published set. */
  files: Map<string, string>;
  /** Names of the files the builder asked to be gzipped (kept as text here). */
  gzipped: Set<string>;
  aborted: boolean;
}

/** `published`: a set already committed, for builds that keep some of its files. */
export function memorySink(published: Record<string, string> = {}): MemorySink {
  const staged = new Map<string, string>();
  const kept = new Set<string>();
  const decoder = new TextDecoder();
  const sink: MemorySink = {
    files: new Map(Object.entries(published)),
    gzipped: new Set(),
    aborted: false,
    create(file) {
      const body: Uint8Array[] = [];
      return {
        write(chunk) {
          body.push(chunk);
          return undefined;
        },
        async finish(name, head, tail) {
          if (kept.has(name)) throw new SitemapError('SM_OUTPUT_CONFLICT', `"${name}" is both kept and written`);
          staged.set(name, [head, ...body, tail].map((c) => decoder.decode(c)).join(''));
          if (file?.gzip === true) sink.gzipped.add(name);
          return {};
        },
      };
    },
    async keep(name) {
      if (staged.has(name)) throw new SitemapError('SM_OUTPUT_CONFLICT', `"${name}" is both kept and written`);
      if (!sink.files.has(name)) throw new SitemapError('SM_OUTPUT_CONFLICT', `cannot keep "${name}": the published set has no such file`);
      kept.add(name);
    },
    async commit(names) {
      const next = new Map<string, string>();
      for (const name of [...names, ...kept]) next.set(name, kept.has(name) ? (sink.files.get(name) ?? '') : (staged.get(name) ?? ''));
      sink.files.clear();
      for (const [name, text] of next) sink.files.set(name, text);
      staged.clear();
      kept.clear();
    },
    async abort() {
      sink.aborted = true;
      staged.clear();
      kept.clear();
    },
  };
  return sink;
}
