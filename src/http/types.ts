/** What the HTTP client is asked and what it answers: transport trouble is data (`ok: false`), not an exception. */

export interface HttpRequest {
  url: string;
  /** @default 'GET' */
  method?: string;
  /** Sent as given (names in any case), replacing the client's own `user-agent` and `accept` if named. */
  headers?: Readonly<Record<string, string>>;
  /** Sent with every attempt, and after a 307 or 308. */
  body?: string | Uint8Array;
}

export interface HttpSuccess {
  ok: true;
  /** The URL asked for. */
  url: string;
  /** The URL that answered, after redirects. */
  finalUrl: string;
  /** The method that got the answer: a 303 (or a 301 or 302 after a POST) turns a request into a GET. */
  method: string;
  status: number;
  headers: Headers;
  /** Each redirect's target, in order; the last one is `finalUrl`. */
  redirects: string[];
  contentType?: string;
  /** How many requests the last hop took (1 unless it was retried). */
  attempts: number;
  /**
   * Read it once, or call `cancel()` to release the connection unread. Reading it throws
   * `SitemapError('SM_FETCH_FAILED')` when it is larger than the cap, times out or is cut off.
   */
  body: AsyncIterable<Uint8Array>;
  cancel(): Promise<void>;
}

export type HttpFailureReason = 'http' | 'network' | 'timeout' | 'aborted' | 'bad-url' | 'bad-redirect' | 'redirect-loop' | 'too-many-redirects';

export interface HttpFailure {
  ok: false;
  url: string;
  /** The URL whose request failed. */
  finalUrl: string;
  /** The HTTP status, when there was a response. */
  status?: number;
  redirects: string[];
  reason: HttpFailureReason;
  message: string;
  attempts: number;
}

export type HttpResult = HttpSuccess | HttpFailure;
