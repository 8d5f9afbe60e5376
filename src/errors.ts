/** Every failure the library throws is a SitemapError with a stable code; findings are Diagnostics instead. */
export type SitemapErrorCode =
  | 'SM_BAD_OPTION'
  | 'SM_BAD_BASE_URL'
  | 'SM_INPUT_UNREADABLE'
  | 'SM_OUTPUT_UNWRITABLE'
  | 'SM_OUTPUT_CONFLICT'
  | 'SM_NOTHING_TO_WRITE'
  | 'SM_STRICT_FAILED'
  | 'SM_INDEX_LIMIT'
  | 'SM_FETCH_FAILED';

export class SitemapError<Code extends SitemapErrorCode = SitemapErrorCode> extends Error {
  override readonly name = 'SitemapError';
  readonly code: Code;

  constructor(code: Code, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
  }
}

/** A code check rather than `instanceof`, so it holds when two copies of the package are loaded. */
export function isSitemapError(value: unknown): value is SitemapError {
  if (!(value instanceof Error) || value.name !== 'SitemapError') return false;
  const code: unknown = (value as Error & { code?: unknown }).code;
  return typeof code === 'string' && code.startsWith('SM_');
}
