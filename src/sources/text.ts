/** Plain text input: one URL a line; blank lines and `#` comments are skipped. */
import type { SourceItem } from '../model/pipeline.ts';
import { readLines } from './lines.ts';

export async function* fromText(source: AsyncIterable<Uint8Array> | Iterable<Uint8Array>): AsyncGenerator<SourceItem> {
  for await (const line of readLines(source)) {
    if ('diagnostic' in line) {
      yield line;
      continue;
    }
    const text = line.text.trim();
    if (text === '' || text.startsWith('#')) continue;
    yield { line: line.line, record: text };
  }
}
