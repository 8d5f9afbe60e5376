/** Every failure the library throws is a SitemapError with a stable code; findings are Diagnostics instead. */
import type { BuildSummary } from './model/pipeline.ts';

export type SitemapErrorCode =
  | 'SM_BAD_OPTION'
  | 'SM_BAD_BASE_URL'
  | 'SM_INPUT_UNREADABLE'
  | 'SM_INPUT_NOT_TEXT'
  | 'SM_OUTPUT_UNWRITABLE'
  | 'SM_OUTPUT_CONFLICT'
  | 'SM_NOTHING_TO_WRITE'
  | 'SM_STRICT_FAILED'
  | 'SM_INDEX_LIMIT'
  | 'SM_FETCH_FAILED'
  | 'SM_STATE_UNREADABLE'
  | 'SM_STATE_BUSY'
  | 'SM_GIT_FAILED';

export interface SitemapErrorOptions {
  cause?: unknown;
  /** What a build that failed on its findings had read and found. */
  summary?: BuildSummary;
}

export class SitemapError<Code extends SitemapErrorCode = SitemapErrorCode> extends Error {
  override readonly name = 'SitemapError';
  readonly code: Code;
  /**
   * Set on `SM_STRICT_FAILED` and `SM_NOTHING_TO_WRITE`: the findings are the reason, so they come
   * with the error. Declared only, so other errors carry no such property at all.
   */
  declare readonly summary?: BuildSummary;

  constructor(code: Code, message: string, options?: SitemapErrorOptions) {
    super(message, options !== undefined && 'cause' in options ? { cause: options.cause } : undefined);
    this.code = code;
    if (options?.summary !== undefined) this.summary = options.summary;
  }
}

/** A code check rather than `instanceof`, so it holds when two copies of the package are loaded. */
export function isSitemapError(value: unknown): value is SitemapError {
  if (!(value instanceof Error) || value.name !== 'SitemapError') return false;
  const code: unknown = (value as Error & { code?: unknown }).code;
  return typeof code === 'string' && code.startsWith('SM_');
}
