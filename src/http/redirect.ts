/** Redirects, followed by the client itself so it can bound and record them: the request each one makes, loops and the limit. */
import type { HttpFailureReason } from './types.ts';

export const REDIRECT_STATUSES: ReadonlySet<number> = new Set([301, 302, 303, 307, 308]);

/** One request as sent: method upper case, header names lower case. */
export interface Outgoing {
  url: string;
  method: string;
  headers: Record<string, string>;
  body?: string | Uint8Array;
}

export type RedirectStep = { next: Outgoing } | { reason: Extract<HttpFailureReason, 'bad-redirect' | 'redirect-loop' | 'too-many-redirects'>; message: string };

/** Headers that describe the body, dropped with it. */
const BODY_HEADERS = ['content-type', 'content-encoding', 'content-language', 'content-location', 'content-length'];
/** Credentials one origin was given, not passed on to another (as undici's own redirect handling does). */
const CREDENTIAL_HEADERS = ['authorization', 'proxy-authorization', 'cookie'];

/** The redirects of one request: where it went, and the requests made so far (by method and URL, fragment dropped) to tell a loop. */
export class RedirectTrail {
  readonly redirects: string[] = [];
  readonly #url: string;
  readonly #maxRedirects: number;
  readonly #visited = new Set<string>();

  constructor(url: string, maxRedirects: number) {
    this.#url = url;
    this.#maxRedirects = maxRedirects;
  }

  /** Notes a request about to be sent. */
  visit(request: Outgoing): void {
    this.#visited.add(key(request.method, request.url));
  }

  /** Where a redirect from `from` to `location` leads, or why it is not followed. */
  follow(from: Outgoing, status: number, location: string): RedirectStep {
    let target: string;
    try {
      target = new URL(location, from.url).href;
    } catch {
      return { reason: 'bad-redirect', message: `HTTP ${status} to an unusable Location: ${location}` };
    }
    if (!isHttpUrl(target)) return { reason: 'bad-redirect', message: `HTTP ${status} to a non-http(s) URL: ${target}` };
    const next = redirected(from, status, target);
    if (this.#visited.has(key(next.method, target))) {
      this.redirects.push(target);
      return { reason: 'redirect-loop', message: `redirect loop: ${[this.#url, ...this.redirects].join(' → ')}` };
    }
    if (this.redirects.length >= this.#maxRedirects) {
      return { reason: 'too-many-redirects', message: `more than ${this.#maxRedirects} redirects: ${[this.#url, ...this.redirects].join(' → ')} → ${target}` };
    }
    this.redirects.push(target);
    return { next };
  }
}

/**
 * The request a redirect makes, as fetch makes it (WHATWG Fetch, "HTTP-redirect fetch"): a 303, or a
 * 301 or 302 after a POST, becomes a body-less GET (a HEAD stays a HEAD); a 307 or 308 repeats the
 * method with its body. Credentials stay behind when the redirect leaves the origin.
 */
export function redirected(from: Outgoing, status: number, target: string): Outgoing {
  const headers = { ...from.headers };
  if (new URL(target).origin !== new URL(from.url).origin) for (const name of CREDENTIAL_HEADERS) delete headers[name];
  const toGet = ((status === 301 || status === 302) && from.method === 'POST') || (status === 303 && from.method !== 'GET' && from.method !== 'HEAD');
  if (!toGet) return { ...from, url: target, headers };
  for (const name of BODY_HEADERS) delete headers[name];
  return { url: target, method: 'GET', headers };
}

export function isHttpUrl(url: string): boolean {
  return URL.canParse(url) && /^https?:$/.test(new URL(url).protocol);
}

function key(method: string, url: string): string {
  const parsed = new URL(url);
  parsed.hash = '';
  return `${method} ${parsed.href}`;
}
