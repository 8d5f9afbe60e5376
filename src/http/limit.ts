/** `concurrencyLimit`: at most N tasks at once, first come first served (discover's files; a crawler's pages next). */
import { SitemapError } from '../errors.ts';

/**
 * Runs at most `limit` tasks at once, first come first served. Twenty lines here rather than a
 * dependency: p-limit does the same, and nothing here needs more.
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
