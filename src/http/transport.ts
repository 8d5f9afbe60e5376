/** The real network and the real clock, which tests replace: undici's `fetch` with its own Agent, and a timer-based sleep. */

/**
 * undici 8 from npm rather than Node's own `fetch`: the undici inside Node 24.21 (7.29, and 7.x
 * from npm too) crashes the process, uncatchably, when a server closes the connection while the
 * reader has not caught up (`assert(!this.paused)`, nodejs/undici#5360), which servers that send
 * `Connection: close` do all the time. Loaded on first use, so commands that fetch nothing do not
 * pay for it.
 */
let undiciFetch: Promise<typeof globalThis.fetch> | undefined;
export function defaultFetch(): Promise<typeof globalThis.fetch> {
  undiciFetch ??= import('undici').then(({ Agent, fetch }) => {
    // Its own Agent: the global dispatcher is shared with Node's undici, whose connections have the bug.
    const dispatcher = new Agent();
    return ((url: string, init: RequestInit) => fetch(url, { ...(init as object), dispatcher })) as unknown as typeof globalThis.fetch;
  });
  return undiciFetch;
}

/** Waits `ms`, or rejects with the signal's reason as soon as it aborts. */
export function defaultSleep(ms: number, signal?: AbortSignal): Promise<void> {
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
