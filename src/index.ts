/** sitemapkit: complete, correct and truthful sitemaps. */
export { writeSitemaps, writeSourceItems, type WriteSitemapsOptions } from './publish/write-sitemaps.ts';
export { buildSitemaps } from './write/build.ts';
export type { BuildOptions, BuildProgress, BuildSummary, SitemapSink, SourceItem, SourceRecord, StateRunSummary, WrittenFile } from './model/pipeline.ts';
export { openSqliteState, SqliteStateStore } from './state/sqlite.ts';
export type { ChangeFeed, ChangedUrl, FileState, StateStore, StoredEntry, StoredUrl, UrlWrite } from './state/store.ts';
export { fromCsv, fromJsonLines, fromText, readInput, readSource, type InputFormat, type ReadInputOptions } from './sources/index.ts';
export { parseSitemap, ParsedSitemap, type ByteSource } from './read/parse.ts';
export { validateSitemap, type ValidateOptions, type ValidationResult } from './validate/validate.ts';
export { discoverSitemaps, type DiscoverOptions, type DiscoverProgress, type DiscoveredSitemap, type DiscoveryReport } from './discover/discover.ts';
export type { ParseOptions, ParsedEntry, ParsedRecord, SitemapKind } from './read/types.ts';
export { SitemapError, isSitemapError, type SitemapErrorCode } from './errors.ts';
export type { Diagnostic, DiagnosticLevel, ProtocolRuleId, RuleId } from './model/diagnostic.ts';
export type { FindingCounts, FindingKey } from './model/findings.ts';
export type * from './model/record.ts';
export { CHANGEFREQS } from './model/record.ts';
export { NS } from './model/namespaces.ts';
export * as limits from './rules/limits.ts';
