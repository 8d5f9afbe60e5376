/** Runs the parser over bytes cut in different ways; every way must give the same result. */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { parseSitemap } from '../../src/read/parse.ts';
import type { ParsedEntry, ParseOptions } from '../../src/read/types.ts';

export const readFixture = (name: string): Uint8Array => new Uint8Array(readFileSync(new URL(`../fixtures/read/${name}`, import.meta.url)));

export interface ParseResult {
  kind: string;
  entries: unknown[];
  diagnostics: { rule: string; level: string; message: string; line?: number; column?: number }[];
  compressed: boolean;
}

export async function parseChunks(chunks: Iterable<Uint8Array>, options: ParseOptions = {}): Promise<ParseResult> {
  const parsed = parseSitemap(chunks, options);
  const entries: unknown[] = [];
  for await (const entry of parsed) entries.push(entry);
  return { kind: parsed.kind, entries, diagnostics: parsed.diagnostics.map((d) => ({ ...d })), compressed: parsed.compressed };
}

export function* byteByByte(bytes: Uint8Array): Generator<Uint8Array> {
  for (let i = 0; i < bytes.length; i++) yield bytes.subarray(i, i + 1);
}

/** A small seeded PRNG (mulberry32): failures are reproducible from the seed. */
export function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function* randomSplits(bytes: Uint8Array, seed: number): Generator<Uint8Array> {
  const next = random(seed);
  for (let i = 0; i < bytes.length; ) {
    const size = 1 + Math.floor(next() * 64);
    yield bytes.subarray(i, i + size);
    i += size;
  }
}

/** Parses whole, byte by byte and at `splits` seeded random cuts; returns the whole result after checking all agree. */
export async function parseEveryWay(bytes: Uint8Array, options: ParseOptions = {}, splits = 10): Promise<{ whole: ParseResult; others: ParseResult[] }> {
  const whole = await parseChunks([bytes], options);
  const others = [await parseChunks(byteByByte(bytes), options)];
  for (let seed = 1; seed <= splits; seed++) others.push(await parseChunks(randomSplits(bytes, seed), options));
  return { whole, others };
}

/** The rules of the findings (of one `level`, if given), each once, sorted. */
export const rules = (result: ParseResult, level?: string): string[] =>
  [...new Set(result.diagnostics.filter((d) => level === undefined || d.level === level).map((d) => d.rule))].sort();
export const locs = (result: ParseResult): string[] => result.entries.map((e) => (e as { loc: string }).loc);

/** `read` gives `whole` for the input cut in two at every position from `from` on (the sniffing reads the first KiB whole), byte by byte and at random splits. */
export async function sameHoweverCut(bytes: Uint8Array, read: (chunks: Iterable<Uint8Array>) => Promise<unknown>, whole: unknown, from = 1): Promise<void> {
  for (let cut = from; cut < bytes.length; cut++) assert.deepEqual(await read([bytes.subarray(0, cut), bytes.subarray(cut)]), whole, `cut at ${cut}`);
  assert.deepEqual(await read(byteByByte(bytes)), whole, 'byte by byte');
  assert.deepEqual(await read(randomSplits(bytes, 11)), whole, 'random splits');
}

/** Each entry (`show`n) at its start, then each finding at its place: what must not depend on how the input was cut. */
export async function placed(chunks: Iterable<Uint8Array>, show: (entry: ParsedEntry) => string = (entry) => entry.loc): Promise<string[]> {
  const parsed = parseSitemap(chunks, { trackPositions: true });
  const seen: string[] = [];
  for await (const entry of parsed) seen.push(`${show(entry)} ${parsed.positionOf(entry)?.line}:${parsed.positionOf(entry)?.column}`);
  return [...seen, ...parsed.diagnostics.map((d) => `${d.rule} ${d.line}:${d.column} ${d.message}`)];
}

/** Each finding as one line: rule, level, place (when it has one) and message. */
export const findings = (result: Pick<ParseResult, 'diagnostics'>): string[] =>
  result.diagnostics.map((d) => `${d.rule} ${d.level}${d.line === undefined ? '' : ` ${d.line}:${d.column}`} ${d.message}`);
