/** Findings counted by rule and level: the `counts` every result carries, as users see it in JSON (`{ "R11:error": 1 }`). */
import type { Diagnostic, DiagnosticLevel, RuleId } from './diagnostic.ts';

/** A rule and a level, as a key of the counts. */
export type FindingKey = `${RuleId}:${DiagnosticLevel}`;

/** Findings per rule and level, keys in the order first found; a key not there counts none. */
export type FindingCounts = { [key in FindingKey]?: number };

const SEVERITY: Record<DiagnosticLevel, number> = { error: 0, warn: 1, info: 2 };

/**
 * Counts findings into a counts object, in place: the object is the one a result hands out, so it is
 * filled as the findings come and stays plain data. Every total is read from that object, so a count
 * added to it by other means (a later check's) is counted too.
 */
export class FindingTally {
  readonly counts: FindingCounts;

  constructor(counts: FindingCounts = {}) {
    this.counts = counts;
  }

  /** One finding, or `count` of one rule and level (findings counted but not listed). */
  add(finding: Pick<Diagnostic, 'rule' | 'level'>, count = 1): void {
    const key: FindingKey = `${finding.rule}:${finding.level}`;
    this.counts[key] = (this.counts[key] ?? 0) + count;
  }

  /** Findings of every rule and level. */
  get total(): number {
    let n = 0;
    for (const count of Object.values(this.counts)) n += count;
    return n;
  }

  /** Findings of level `error`. */
  get errors(): number {
    let n = 0;
    for (const [key, count] of Object.entries(this.counts)) if (key.endsWith(':error')) n += count;
    return n;
  }

  /** The keys counted, most severe level first, then by rule id, its number read as a number (R2 before R10). */
  keys(): FindingKey[] {
    return (Object.keys(this.counts) as FindingKey[]).sort((a, b) => {
      const [ruleA, levelA] = splitFindingKey(a);
      const [ruleB, levelB] = splitFindingKey(b);
      return SEVERITY[levelA] - SEVERITY[levelB] || ruleA.localeCompare(ruleB, 'en', { numeric: true });
    });
  }
}

/** The rule and the level of a key. */
export function splitFindingKey(key: FindingKey): [RuleId, DiagnosticLevel] {
  const colon = key.indexOf(':');
  return [key.slice(0, colon) as RuleId, key.slice(colon + 1) as DiagnosticLevel];
}
