/** JSON Lines input: one record object (or a bare URL string) a line. */
import type { SourceItem } from '../model/pipeline.ts';
import { readLines } from './lines.ts';

export async function* fromJsonLines(source: AsyncIterable<Uint8Array> | Iterable<Uint8Array>): AsyncGenerator<SourceItem> {
  for await (const line of readLines(source)) {
    if ('diagnostic' in line) {
      yield line;
      continue;
    }
    if (line.text.trim() === '') continue;
    try {
      yield { line: line.line, record: JSON.parse(line.text) as unknown };
    } catch (error) {
      const reason = error instanceof SyntaxError ? error.message : String(error);
      yield { line: line.line, diagnostic: { rule: 'INPUT', level: 'error', message: `line skipped: not valid JSON (${reason})`, line: line.line } };
    }
  }
}
