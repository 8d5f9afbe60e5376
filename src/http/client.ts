/**
 * The one HTTP client, for everything that fetches or sends: any method, headers and a body, bounded
 * redirects, a timeout per attempt, retries by a named policy, a cap on body bytes. Transport trouble
 * comes back as data (`ok: false`), never as an exception; only reading the body of a success can fail
 * late (see `HttpSuccess.body`). Usage errors (a bad option, a body on a GET) throw `SM_BAD_OPTION`.
 */
import { SitemapError } from '../errors.ts';
import { discard, emptyBody, networkMessage, readBody } from './body.ts';
import { isHttpUrl, RedirectTrail, REDIRECT_STATUSES, type Outgoing } from './redirect.ts';
import { RETRY_READ, retryDelay, type RetryPolicy } from './retry.ts';
import { defaultFetch, defaultSleep } from './transport.ts';
import type { HttpFailure, HttpFailureReason, HttpRequest, HttpResult } from './types.ts';

export interface HttpOptions {
  /** @default `fetch` from the undici package, with its own Agent (Node's built-in one can crash when a server closes the connection mid-body) */
  fetch?: typeof globalThis.fetch;
  /** Milliseconds one attempt may take, from the request to the last body byte. @default 30000 */
  timeoutMs?: number;
  /** What is tried again, and how long to wait first. @default RETRY_READ */
  retry?: RetryPolicy;
  /** Extra attempts, in place of the policy's. @default 2 (RETRY_READ) */
  retries?: number;
  /** First backoff delay, in place of the policy's; each retry doubles it, with jitter. @default 500 (RETRY_READ) */
  backoffMs?: number;
  /** The longest wait a `Retry-After` header can ask for, in place of the policy's. @default 30000 (RETRY_READ) */
  maxRetryAfterMs?: number;
  /** @default 5 */
  maxRedirects?: number;
  /** Body bytes read at most (as delivered, i.e. after any `Content-Encoding` is undone). @default 104857600 */
  maxBytes?: number;
  /** Cancels everything in flight; an aborted request is a failure with reason `aborted`. */
  signal?: AbortSignal;
  /** @default 'sitemapkit' */
  userAgent?: string;
  /** The wait between attempts. @default a timer */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Clock for `Retry-After` dates. @default Date.now */
  now?: () => number;
  /** Jitter source in [0, 1). @default Math.random */
  random?: () => number;
}

const DEFAULTS = {
  timeoutMs: 30_000,
  maxRedirects: 5,
  maxBytes: 100 * 1024 * 1024,
  userAgent: 'sitemapkit',
};

/** The longest wait a timer can be set for (about 24.8 days); a longer timeout would overflow it. */
const MAX_TIMEOUT_MS = 2 ** 31 - 1;

/** An HTTP token (RFC 9110), which a method must be. */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/** GETs `url`; see `request`. */
export function fetchResource(url: string, options: HttpOptions = {}): Promise<HttpResult> {
  return request({ url }, options);
}

/** Sends `req`, following redirects itself so it can bound and record them. Never throws on transport trouble. */
export async function request(req: HttpRequest, options: HttpOptions = {}): Promise<HttpResult> {
  const policy = resolvePolicy(options);
  const method = (req.method ?? 'GET').toUpperCase();
  checkRequest(method, req.body);
  const maxRedirects = options.maxRedirects ?? DEFAULTS.maxRedirects;
  const { url } = req;
  const trail = new RedirectTrail(url, maxRedirects);
  const headers: Record<string, string> = { 'user-agent': options.userAgent ?? DEFAULTS.userAgent, accept: '*/*' };
  for (const [name, value] of Object.entries(req.headers ?? {})) headers[name.toLowerCase()] = value;
  let current: Outgoing = { url, method, headers, ...(req.body === undefined ? {} : { body: req.body }) };
  const fail = (reason: HttpFailureReason, message: string, extra: { status?: number; attempts?: number } = {}): HttpFailure => ({
    ok: false,
    url,
    finalUrl: current.url,
    redirects: trail.redirects,
    reason,
    message,
    attempts: extra.attempts ?? 0,
    ...(extra.status === undefined ? {} : { status: extra.status }),
  });

  if (!isHttpUrl(url)) return fail('bad-url', `not an http(s) URL: ${url}`);
  for (;;) {
    trail.visit(current);
    const hop = await sendWithRetries(current, options, policy);
    if ('failure' in hop) return fail(hop.failure, hop.message, hop);
    const { response, attempts, bodySignal } = hop;
    if (REDIRECT_STATUSES.has(response.status) && response.headers.has('location')) {
      await discard(response);
      const step = trail.follow(current, response.status, response.headers.get('location') ?? '');
      if ('reason' in step) return fail(step.reason, step.message, { status: response.status, attempts });
      current = step.next;
      continue;
    }
    if (response.status < 200 || response.status > 299) {
      await discard(response);
      return fail('http', `HTTP ${response.status}${response.statusText === '' ? '' : ` ${response.statusText}`}`, { status: response.status, attempts });
    }
    const reader = response.body?.getReader();
    const contentType = response.headers.get('content-type');
    const limits = { maxBytes: options.maxBytes ?? DEFAULTS.maxBytes, signal: bodySignal, callerSignal: options.signal, timeoutMs: options.timeoutMs ?? DEFAULTS.timeoutMs };
    return {
      ok: true,
      url,
      finalUrl: current.url,
      method: current.method,
      status: response.status,
      headers: response.headers,
      redirects: trail.redirects,
      ...(contentType === null ? {} : { contentType }),
      attempts,
      body: reader === undefined ? emptyBody() : readBody(reader, current.url, limits),
      cancel: async () => {
        await reader?.cancel().catch(() => {});
      },
    };
  }
}

/** The policy in force: `options.retry` with the single-number overrides on top, checked like the other options. */
function resolvePolicy(options: HttpOptions): RetryPolicy {
  const { timeoutMs, maxRedirects } = options;
  const base = options.retry ?? RETRY_READ;
  const policy: RetryPolicy = {
    ...base,
    retries: options.retries ?? base.retries,
    baseDelayMs: options.backoffMs ?? base.baseDelayMs,
    maxRetryAfterMs: options.maxRetryAfterMs ?? base.maxRetryAfterMs,
  };
  if (timeoutMs !== undefined && !(Number.isInteger(timeoutMs) && timeoutMs >= 1 && timeoutMs <= MAX_TIMEOUT_MS)) {
    throw new SitemapError('SM_BAD_OPTION', `timeout must be a whole number of milliseconds from 1 to ${MAX_TIMEOUT_MS}, got ${timeoutMs}`);
  }
  for (const [name, value] of [['retries', policy.retries], ['maxRedirects', maxRedirects]] as const) {
    if (value !== undefined && !(Number.isInteger(value) && value >= 0)) throw new SitemapError('SM_BAD_OPTION', `${name} must be a whole number ≥ 0, got ${value}`);
  }
  return policy;
}

function checkRequest(method: string, body: HttpRequest['body']): void {
  if (!TOKEN.test(method)) throw new SitemapError('SM_BAD_OPTION', `not an HTTP method: "${method}"`);
  // fetch refuses these too, with a TypeError that would read as a network failure.
  if (body !== undefined && (method === 'GET' || method === 'HEAD')) throw new SitemapError('SM_BAD_OPTION', `a ${method} request has no body`);
}

type Hop = { response: Response; attempts: number; bodySignal: AbortSignal } | { failure: HttpFailureReason; message: string; attempts: number };

/** One request, sent again as the policy says on network errors, timeouts and the statuses it lists. */
async function sendWithRetries(outgoing: Outgoing, options: HttpOptions, policy: RetryPolicy): Promise<Hop> {
  const fetchFn = options.fetch ?? (await defaultFetch());
  const timeoutMs = options.timeoutMs ?? DEFAULTS.timeoutMs;
  const sleep = options.sleep ?? defaultSleep;
  const clock = { now: options.now ?? Date.now, random: options.random ?? Math.random };
  for (let attempt = 1; ; attempt++) {
    const timeout = AbortSignal.timeout(timeoutMs);
    const signal = options.signal === undefined ? timeout : AbortSignal.any([options.signal, timeout]);
    let delay: number | undefined;
    try {
      const response = await fetchFn(outgoing.url, {
        method: outgoing.method,
        redirect: 'manual',
        signal,
        headers: outgoing.headers,
        ...(outgoing.body === undefined ? {} : { body: outgoing.body }),
      });
      delay = retryDelay(policy, outgoing.method, attempt, { status: response.status, retryAfter: response.headers.get('retry-after') }, clock);
      if (delay === undefined) return { response, attempts: attempt, bodySignal: signal };
      await discard(response);
    } catch (cause) {
      if (options.signal?.aborted === true) return { failure: 'aborted', message: 'aborted', attempts: attempt };
      delay = retryDelay(policy, outgoing.method, attempt, {}, clock);
      if (delay === undefined) {
        return timeout.aborted
          ? { failure: 'timeout', message: `no response within ${timeoutMs} ms`, attempts: attempt }
          : { failure: 'network', message: networkMessage(cause), attempts: attempt };
      }
    }
    try {
      await sleep(delay, options.signal);
    } catch {
      return { failure: 'aborted', message: 'aborted', attempts: attempt };
    }
    if (options.signal?.aborted === true) return { failure: 'aborted', message: 'aborted', attempts: attempt };
  }
}
