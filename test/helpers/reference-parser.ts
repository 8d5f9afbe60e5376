/**
 * The reference for the differential test: `saxes` (a conforming parser) alone over the whole text,
 * its events fed to the same `SitemapAssembler` the reader uses, so only the tokenizer differs.
 */
import { SaxesParser, type SaxesTagNS } from 'saxes';
import { SitemapAssembler } from '../../src/read/xml/assemble.ts';
import { MAX_DEPTH } from '../../src/read/xml/events.ts';
import type { XmlAttribute } from '../../src/read/xml/names.ts';
import type { Diagnostic } from '../../src/model/diagnostic.ts';
import type { ParsedEntry, SitemapKind } from '../../src/read/types.ts';

export interface ReferenceResult {
  /** saxes reported no error at all. */
  accepted: boolean;
  /** saxes' error messages, in order. */
  errors: string[];
  entries: ParsedEntry[];
  kind: SitemapKind;
  /** What the assembler found in the events (structure, values, the DOCTYPE warning), in order. */
  diagnostics: Diagnostic[];
}

export function referenceParse(text: string, base?: string): ReferenceResult {
  const parser = new SaxesParser({ xmlns: true, position: true });
  const entries: ParsedEntry[] = [];
  const errors: string[] = [];
  const diagnostics: Diagnostic[] = [];
  const assembler = new SitemapAssembler({
    base: base === undefined ? undefined : new URL(base),
    report: (diagnostic) => diagnostics.push(diagnostic),
    count: () => undefined,
    position: () => ({ line: parser.line, column: parser.column + 1 }),
    source: () => undefined,
    emit: (entry) => entries.push(entry),
    trackPositions: false,
    onKind: () => undefined,
  });
  // The reader does not read below MAX_DEPTH (and says so); the reference skips the same elements.
  // Entries ended by the next one opening inside them make room at that depth, as in the reader:
  // `forgotten` of the `depth` open elements are theirs, and their end tags get no event.
  let depth = 0;
  let forgotten = 0;
  parser.on('opentag', (tag: SaxesTagNS) => {
    depth++;
    if (depth - forgotten > MAX_DEPTH) {
      const ended = assembler.endedEntries;
      assembler.forgetEndedEntries(ended);
      forgotten += ended;
    }
    if (depth - forgotten > MAX_DEPTH) return;
    const attributes: XmlAttribute[] = [];
    for (const attribute of Object.values(tag.attributes)) {
      if (attribute.prefix === 'xmlns' || (attribute.prefix === '' && attribute.local === 'xmlns')) continue;
      attributes.push({ ns: attribute.uri, local: attribute.local, value: attribute.value });
    }
    assembler.open(tag.uri, tag.local, attributes);
  });
  parser.on('closetag', () => {
    if (forgotten > 0 && depth - forgotten === 1) {
      forgotten--;
      depth--;
      return;
    }
    depth--;
    if (depth - forgotten >= MAX_DEPTH) return;
    assembler.close();
  });
  const onText = (chunk: string): void => {
    if (depth - forgotten <= MAX_DEPTH && assembler.capturing) assembler.text(chunk);
  };
  parser.on('text', onText);
  parser.on('cdata', onText);
  parser.on('doctype', () => assembler.doctype({ line: parser.line, column: parser.column + 1 }));
  parser.on('error', (error: Error) => {
    errors.push(error.message);
  });
  parser.write(text);
  parser.close();
  assembler.finish();
  return { accepted: errors.length === 0, errors, entries, kind: assembler.kind, diagnostics };
}
