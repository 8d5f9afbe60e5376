/** A finding about the input or a file. Findings are data; exceptions are for failures. */
export interface Diagnostic {
  /** A PROTOCOL.md rule id ("R8"), or "INPUT" for input that is not a record at all. */
  rule: string;
  level: DiagnosticLevel;
  message: string;
  /** 1-based line of the input (or record index + 1 for in-memory input). */
  line?: number;
  column?: number;
  url?: string;
  /** The record field the finding is about, as a path (`lastmod`, `images[2].loc`, `news.publication.name`). */
  field?: string;
  /** The input file the line belongs to, when there is one. */
  file?: string;
}

export type DiagnosticLevel = 'error' | 'warn' | 'info';

export type DiagnosticSink = (diagnostic: Diagnostic) => void;

/**
 * Input quoted in a message, at most `max` characters (`...` marks a cut): a finding names what it
 * is about without carrying a megabyte line into the report. Never cuts a surrogate pair in two.
 */
export function excerpt(text: string, max = 80): string {
  if (text.length <= max) return text;
  let end = max - 3;
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end--;
  return `${text.slice(0, end)}...`;
}
