/**
 * HTTP for the reader: one GET with bounded redirects, a timeout, retries with backoff and a cap on
 * body bytes. Transport trouble comes back as data (`ok: false`), never as an exception; only reading
 * the body of a success can fail late (too large, timed out, connection lost), and then the body's
 * iterator throws `SitemapError('SM_FETCH_FAILED')`. `fetch`, `sleep`, `now` and `random` are injectable.
 */
import { SitemapError } from '../errors.ts';

export interface FetchOptions {
  /** @default `fetch` from the undici package, with its own Agent (Node's built-in one can crash when a server closes the connection mid-body) */
  fetch?: typeof globalThis.fetch;
  /** Milliseconds one attempt may take, from the request to the last body byte. @default 30000 */
  timeoutMs?: number;
  /** Extra attempts after a network error, a timeout, a 429 or a 5xx. @default 2 */
  retries?: number;
  /** First backoff delay; each retry doubles it, with jitter. @default 500 */
  backoffMs?: number;
  /** The longest wait a `Retry-After` header can ask for. @default 30000 */
  maxRetryAfterMs?: number;
  /** @default 5 */
  maxRedirects?: number;
  /** Body bytes read at most (as delivered, i.e. after any `Content-Encoding` is undone). @default 104857600 */
  maxBytes?: number;
  /** Cancels everything in flight; an aborted fetch is a failure with reason `aborted`. */
  signal?: AbortSignal;
  /** @default 'sitemapkit' */
  userAgent?: string;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Clock for `Retry-After` dates. @default Date.now */
  now?: () => number;
  /** Jitter source in [0, 1). @default Math.random */
  random?: () => number;
}

export interface FetchSuccess {
  ok: true;
  /** The URL asked for. */
  url: string;
  /** The URL that answered, after redirects. */
  finalUrl: string;
  status: number;
  /** Each redirect's target, in order; the last one is `finalUrl`. */
  redirects: string[];
  contentType?: string;
  /** How many requests the last hop took (1 unless it was retried). */
  attempts: number;
  /** Read it once, or call `cancel()` to release the connection unread. */
  body: AsyncIterable<Uint8Array>;
  cancel(): Promise<void>;
}

export type FetchFailureReason = 'http' | 'network' | 'timeout' | 'aborted' | 'bad-url' | 'bad-redirect' | 'redirect-loop' | 'too-many-redirects';

export interface FetchFailure {
  ok: false;
  url: string;
  /** The URL whose request failed. */
  finalUrl: string;
  /** The HTTP status, when there was a response. */
  status?: number;
  redirects: string[];
  reason: FetchFailureReason;
  message: string;
  attempts: number;
}

export type FetchResult = FetchSuccess | FetchFailure;

const DEFAULTS = {
  timeoutMs: 30_000,
  retries: 2,
  backoffMs: 500,
  maxRetryAfterMs: 30_000,
  maxRedirects: 5,
  maxBytes: 100 * 1024 * 1024,
  userAgent: 'sitemapkit',
};

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

/** GETs `url`, following redirects itself so it can bound and record them. Never throws on transport trouble. */
export async function fetchResource(url: string, options: FetchOptions = {}): Promise<FetchResult> {
  checkOptions(options);
  const maxRedirects = options.maxRedirects ?? DEFAULTS.maxRedirects;
  const redirects: string[] = [];
  const visited = new Set<string>();
  let current = url;
  const fail = (reason: FetchFailureReason, message: string, extra: { status?: number; attempts?: number } = {}): FetchFailure => ({
    ok: false,
    url,
    finalUrl: current,
    redirects,
    reason,
    message,
    attempts: extra.attempts ?? 0,
    ...(extra.status === undefined ? {} : { status: extra.status }),
  });

  if (!isHttpUrl(url)) return fail('bad-url', `not an http(s) URL: ${url}`);
  for (;;) {
    visited.add(withoutFragment(current));
    const hop = await requestWithRetries(current, options);
    if ('failure' in hop) return fail(hop.failure, hop.message, hop);
    const { response, attempts, bodySignal } = hop;
    if (REDIRECT_STATUSES.has(response.status) && response.headers.has('location')) {
      await discard(response);
      const location = response.headers.get('location') ?? '';
      let target: string;
      try {
        target = new URL(location, current).href;
      } catch {
        return fail('bad-redirect', `HTTP ${response.status} to an unusable Location: ${location}`, { status: response.status, attempts });
      }
      if (!isHttpUrl(target)) return fail('bad-redirect', `HTTP ${response.status} to a non-http(s) URL: ${target}`, { status: response.status, attempts });
      if (visited.has(withoutFragment(target))) {
        redirects.push(target);
        return fail('redirect-loop', `redirect loop: ${[url, ...redirects].join(' → ')}`, { status: response.status, attempts });
      }
      if (redirects.length >= maxRedirects) {
        return fail('too-many-redirects', `more than ${maxRedirects} redirects: ${[url, ...redirects].join(' → ')} → ${target}`, { status: response.status, attempts });
      }
      redirects.push(target);
      current = target;
      continue;
    }
    if (response.status < 200 || response.status > 299) {
      await discard(response);
      return fail('http', `HTTP ${response.status}${response.statusText === '' ? '' : ` ${response.statusText}`}`, { status: response.status, attempts });
    }
    const reader = response.body?.getReader();
    const contentType = response.headers.get('content-type');
    return {
      ok: true,
      url,
      finalUrl: current,
      status: response.status,
      redirects,
      ...(contentType === null ? {} : { contentType }),
      attempts,
      body: reader === undefined ? emptyBody() : readBody(reader, current, options.maxBytes ?? DEFAULTS.maxBytes, bodySignal, options),
      cancel: async () => {
        await reader?.cancel().catch(() => {});
      },
    };
  }
}

/**
 * undici 8 from npm rather than Node's own `fetch`: the undici inside Node 24.21 (7.29, and 7.x
 * from npm too) crashes the process, uncatchably, when a server closes the connection while the
 * reader has not caught up (`assert(!this.paused)`, nodejs/undici#5360), which servers that send
 * `Connection: close` do all the time. Loaded on first use, so commands that fetch nothing do not
 * pay for it.
 */
let undiciFetch: Promise<typeof globalThis.fetch> | undefined;
function defaultFetch(): Promise<typeof globalThis.fetch> {
  undiciFetch ??= import('undici').then(({ Agent, fetch }) => {
    // Its own Agent: the global dispatcher is shared with Node's undici, whose connections have the bug.
    const dispatcher = new Agent();
    return ((url: string, init: RequestInit) => fetch(url, { ...(init as object), dispatcher })) as unknown as typeof globalThis.fetch;
  });
  return undiciFetch;
}

/** The longest wait a timer can be set for (about 24.8 days); a longer timeout would overflow it. */
const MAX_TIMEOUT_MS = 2 ** 31 - 1;

function checkOptions({ timeoutMs, retries, maxRedirects }: FetchOptions): void {
  if (timeoutMs !== undefined && !(Number.isInteger(timeoutMs) && timeoutMs >= 1 && timeoutMs <= MAX_TIMEOUT_MS)) {
    throw new SitemapError('SM_BAD_OPTION', `timeout must be a whole number of milliseconds from 1 to ${MAX_TIMEOUT_MS}, got ${timeoutMs}`);
  }
  for (const [name, value] of [['retries', retries], ['maxRedirects', maxRedirects]] as const) {
    if (value !== undefined && !(Number.isInteger(value) && value >= 0)) throw new SitemapError('SM_BAD_OPTION', `${name} must be a whole number ≥ 0, got ${value}`);
  }
}

type Hop = { response: Response; attempts: number; bodySignal: AbortSignal } | { failure: FetchFailureReason; message: string; attempts: number };

/** One URL, retried on network errors, timeouts, 429 and 5xx with exponential backoff (or `Retry-After`). */
async function requestWithRetries(url: string, options: FetchOptions): Promise<Hop> {
  const fetchFn = options.fetch ?? (await defaultFetch());
  const timeoutMs = options.timeoutMs ?? DEFAULTS.timeoutMs;
  const retries = options.retries ?? DEFAULTS.retries;
  const sleep = options.sleep ?? defaultSleep;
  for (let attempt = 1; ; attempt++) {
    const timeout = AbortSignal.timeout(timeoutMs);
    const signal = options.signal === undefined ? timeout : AbortSignal.any([options.signal, timeout]);
    let retryAfter: string | null = null;
    try {
      const response = await fetchFn(url, {
        redirect: 'manual',
        signal,
        headers: { 'user-agent': options.userAgent ?? DEFAULTS.userAgent, accept: '*/*' },
      });
      if (!isRetryableStatus(response.status) || attempt > retries) return { response, attempts: attempt, bodySignal: signal };
      retryAfter = response.headers.get('retry-after');
      await discard(response);
    } catch (cause) {
      if (options.signal?.aborted === true) return { failure: 'aborted', message: 'aborted', attempts: attempt };
      if (attempt > retries) {
        return timeout.aborted
          ? { failure: 'timeout', message: `no response within ${timeoutMs} ms`, attempts: attempt }
          : { failure: 'network', message: networkMessage(cause), attempts: attempt };
      }
    }
    const delay = retryAfter === null ? backoff(attempt, options) : retryAfterMs(retryAfter, options) ?? backoff(attempt, options);
    try {
      await sleep(delay, options.signal);
    } catch {
      return { failure: 'aborted', message: 'aborted', attempts: attempt };
    }
    if (options.signal?.aborted === true) return { failure: 'aborted', message: 'aborted', attempts: attempt };
  }
}

function isRetryableStatus(status: number): boolean {
  return status === 429 || (status >= 500 && status <= 599);
}

/** Exponential with "equal jitter": half the step is fixed, half random, so retries spread out but never collapse to 0. */
function backoff(attempt: number, options: FetchOptions): number {
  const step = (options.backoffMs ?? DEFAULTS.backoffMs) * 2 ** (attempt - 1);
  return step / 2 + (options.random ?? Math.random)() * (step / 2);
}

/** `Retry-After` as delta-seconds or an HTTP date, capped; undefined when unreadable. */
function retryAfterMs(value: string, options: FetchOptions): number | undefined {
  const cap = options.maxRetryAfterMs ?? DEFAULTS.maxRetryAfterMs;
  const trimmed = value.trim();
  const ms = /^\d+$/.test(trimmed) ? Number(trimmed) * 1000 : Date.parse(trimmed) - (options.now ?? Date.now)();
  return Number.isNaN(ms) ? undefined : Math.min(Math.max(ms, 0), cap);
}

/** Streams the body, failing past `maxBytes` or when the attempt's timeout fires mid-body. */
async function* readBody(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  url: string,
  maxBytes: number,
  signal: AbortSignal,
  options: FetchOptions,
): AsyncGenerator<Uint8Array> {
  let total = 0;
  let finished = false;
  try {
    for (;;) {
      let next: Awaited<ReturnType<typeof reader.read>>;
      try {
        next = await reader.read();
      } catch (cause) {
        const why = options.signal?.aborted === true ? 'aborted' : signal.aborted ? `timed out after ${options.timeoutMs ?? DEFAULTS.timeoutMs} ms` : networkMessage(cause);
        throw new SitemapError('SM_FETCH_FAILED', `${url}: body not read to the end: ${why}`, { cause });
      }
      if (next.done) {
        finished = true;
        return;
      }
      const room = maxBytes - total;
      total += next.value.length;
      if (total > maxBytes) {
        // The caller gets exactly maxBytes bytes, so a parser with the same or a lower cap can report the size itself.
        if (room > 0) yield next.value.subarray(0, room);
        throw new SitemapError('SM_FETCH_FAILED', `${url}: body larger than ${maxBytes} bytes; reading stopped there`);
      }
      yield next.value;
    }
  } finally {
    if (!finished) await reader.cancel().catch(() => {});
    reader.releaseLock();
  }
}

async function* emptyBody(): AsyncGenerator<Uint8Array> {}

async function discard(response: Response): Promise<void> {
  await response.body?.cancel().catch(() => {});
}

function networkMessage(cause: unknown): string {
  if (!(cause instanceof Error)) return oneLine(String(cause));
  // undici puts the useful part ("ECONNREFUSED", "other side closed") in the cause.
  const inner = cause.cause instanceof Error ? cause.cause.message : undefined;
  return oneLine(inner === undefined || inner === cause.message ? cause.message : `${cause.message}: ${inner}`);
}

/** TLS errors come with OpenSSL's line breaks; a message goes on one line of the tree. */
const oneLine = (message: string): string => message.replace(/\s+/g, ' ').trim();

function isHttpUrl(url: string): boolean {
  return URL.canParse(url) && /^https?:$/.test(new URL(url).protocol);
}

function withoutFragment(url: string): string {
  const parsed = new URL(url);
  parsed.hash = '';
  return parsed.href;
}

function defaultSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted === true) {
      reject(signal.reason as Error);
      return;
    }
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal?.reason as Error);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * Runs at most `limit` tasks at once, first come first served. Twenty lines here rather than a
 * dependency: p-limit does the same, and the reader needs nothing more.
 */
export function concurrencyLimit(limit: number): <T>(task: () => Promise<T>) => Promise<T> {
  if (!Number.isInteger(limit) || limit < 1) throw new SitemapError('SM_BAD_OPTION', `concurrency must be a whole number ≥ 1, got ${limit}`);
  let running = 0;
  const waiting: (() => void)[] = [];
  // A finishing task hands its slot straight to the next waiter, so a newcomer cannot slip in between.
  const release = (): void => {
    const next = waiting.shift();
    if (next === undefined) running--;
    else next();
  };
  return async <T>(task: () => Promise<T>): Promise<T> => {
    if (running < limit) running++;
    else await new Promise<void>((resolve) => waiting.push(resolve));
    try {
      return await task();
    } finally {
      release();
    }
  };
}
