/** Times as the state writes them: whole seconds since the epoch, and as a W3C Datetime to the second with its offset. */

/** `2026-11-28T10:15:42+00:00`: the lastmod the state writes (UTC, to the second, the offset spelled out). */
export function formatSeconds(seconds: number): string {
  return `${new Date(seconds * 1000).toISOString().slice(0, 19)}+00:00`;
}

/** A clock in milliseconds made a whole second. */
export function toSeconds(milliseconds: number): number {
  return Math.floor(milliseconds / 1000);
}
