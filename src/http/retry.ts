/** Retry policies as data: which answers are tried again, for which methods, and how long to wait first. */

export interface RetryPolicy {
  /** Extra attempts after the first. */
  readonly retries: number;
  /** Statuses tried again. */
  readonly statuses: ReadonlySet<number>;
  /** Methods (upper case) tried again at all; any other is sent once, whatever comes back. */
  readonly methods: ReadonlySet<string>;
  /** Whether a network error or a timeout is tried again: the request may have arrived, so only where a repeat is harmless. */
  readonly networkErrors: boolean;
  /** The first backoff step; each retry doubles it, and half of each step is random. */
  readonly baseDelayMs: number;
  /** The longest backoff step. */
  readonly maxDelayMs: number;
  /** Wait as long as a `Retry-After` header asks (up to `maxRetryAfterMs`) instead of backing off. */
  readonly honourRetryAfter: boolean;
  /** The longest wait a `Retry-After` header can ask for. */
  readonly maxRetryAfterMs: number;
}

const SERVER_ERRORS = Array.from({ length: 100 }, (_, i) => 500 + i);

/**
 * Reading (sitemaps, robots.txt, pages): GET and HEAD change nothing on the server, so network
 * errors, timeouts, 429 and every 5xx are tried again. The backoff step is not capped: `retries`
 * bounds it.
 */
export const RETRY_READ: RetryPolicy = {
  retries: 2,
  statuses: new Set([429, ...SERVER_ERRORS]),
  methods: new Set(['GET', 'HEAD']),
  networkErrors: true,
  baseDelayMs: 500,
  maxDelayMs: Number.POSITIVE_INFINITY,
  honourRetryAfter: true,
  maxRetryAfterMs: 30_000,
};

/**
 * Submitting (IndexNow, a search console's API): a request (a POST too) is sent again only when the
 * server said it did not take it and to come back (429, 503), never after a 500 or a lost
 * connection, which may have come after the server acted on it.
 */
export const RETRY_SUBMIT: RetryPolicy = {
  retries: 3,
  statuses: new Set([429, 503]),
  methods: new Set(['GET', 'HEAD', 'POST', 'PUT']),
  networkErrors: false,
  baseDelayMs: 1_000,
  maxDelayMs: 60_000,
  honourRetryAfter: true,
  maxRetryAfterMs: 120_000,
};

/** What went wrong with an attempt: a response with a status, or none at all (`status` undefined). */
export interface Trouble {
  status?: number;
  /** The response's `Retry-After` header, as sent. */
  retryAfter?: string | null;
}

export interface RetryClock {
  /** For `Retry-After` dates. */
  now: () => number;
  /** Jitter source in [0, 1). */
  random: () => number;
}

/**
 * How long to wait before attempt `attempt + 1`, or undefined when the policy does not try again:
 * attempts used up, a method it does not repeat, or trouble it does not retry.
 */
export function retryDelay(policy: RetryPolicy, method: string, attempt: number, trouble: Trouble, clock: RetryClock): number | undefined {
  if (attempt > policy.retries || !policy.methods.has(method)) return undefined;
  if (trouble.status === undefined) return policy.networkErrors ? backoff(policy, attempt, clock.random) : undefined;
  if (!policy.statuses.has(trouble.status)) return undefined;
  const asked = policy.honourRetryAfter && typeof trouble.retryAfter === 'string' ? retryAfterMs(trouble.retryAfter, policy.maxRetryAfterMs, clock.now) : undefined;
  return asked ?? backoff(policy, attempt, clock.random);
}

/** Exponential with "equal jitter": half the step is fixed, half random, so retries spread out but never collapse to 0. */
function backoff(policy: RetryPolicy, attempt: number, random: () => number): number {
  const step = Math.min(policy.baseDelayMs * 2 ** (attempt - 1), policy.maxDelayMs);
  return step / 2 + random() * (step / 2);
}

/** `Retry-After` as delta-seconds or an HTTP date, capped; undefined when unreadable. */
export function retryAfterMs(value: string, cap: number, now: () => number): number | undefined {
  const trimmed = value.trim();
  const ms = /^\d+$/.test(trimmed) ? Number(trimmed) * 1000 : Date.parse(trimmed) - now();
  return Number.isNaN(ms) ? undefined : Math.min(Math.max(ms, 0), cap);
}
