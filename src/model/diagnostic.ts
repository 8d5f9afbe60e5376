/** A finding about the input or a file, and the ids of the rules findings are about. Findings are data; exceptions are for failures. */
export interface Diagnostic {
  rule: RuleId;
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
 * The protocol rules (docs/rules.md) a finding can be about. R24, R26, R28 and R29 are how the writer and discovery
 * behave, not faults found in a file, and R39–R45 (legacy extensions, IndexNow) are not checked yet.
 */
export type ProtocolRuleId =
  | 'R1' | 'R2' | 'R3' | 'R4' | 'R5' | 'R6' | 'R7' | 'R8' | 'R9' | 'R10'
  | 'R11' | 'R12' | 'R13' | 'R14' | 'R15' | 'R16' | 'R17' | 'R18' | 'R19' | 'R20'
  | 'R21' | 'R22' | 'R23' | 'R25' | 'R27' | 'R30'
  | 'R31' | 'R32' | 'R33' | 'R34' | 'R35' | 'R36' | 'R37' | 'R38';

/**
 * What a finding is about: a protocol rule, or one of the findings no protocol rule covers:
 * `INPUT`, the writer's input is not a record (or a field of one is not the kind the record needs), or a read limit set by the caller cut the file short;
 * `FETCH`, discovery could not fetch or did not follow a file;
 * `XSD`, the XML Schema rejects the file (`validate --xsd`).
 */
export type RuleId = ProtocolRuleId | 'INPUT' | 'FETCH' | 'XSD';

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
