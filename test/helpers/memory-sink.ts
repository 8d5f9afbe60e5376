/** A SitemapSink that keeps files in memory, for tests of the pure pipeline. */
import type { SitemapSink } from '../../src/index.ts';

export interface MemorySink extends SitemapSink {
  /** Committed files by name, as text. */
  files: Map<string, string>;
  aborted: boolean;
}

export function memorySink(): MemorySink {
  const staged = new Map<string, string>();
  const decoder = new TextDecoder();
  const sink: MemorySink = {
    files: new Map(),
    aborted: false,
    create() {
      const body: Uint8Array[] = [];
      return {
        write(chunk) {
          body.push(chunk);
          return undefined;
        },
        async finish(name, head, tail) {
          staged.set(name, [head, ...body, tail].map((c) => decoder.decode(c)).join(''));
          return {};
        },
      };
    },
    async commit(names) {
      for (const name of names) sink.files.set(name, staged.get(name) ?? '');
    },
    async abort() {
      sink.aborted = true;
    },
  };
  return sink;
}
