/**
 * Preloaded with `node --import` into a CLI child process: `SITEMAPKIT_TEST_NOW=<ms>` fixes `Date.now`,
 * so a child's run stamps the same state times as the run it is compared with.
 */
const fixed = Number(process.env['SITEMAPKIT_TEST_NOW'] ?? Number.NaN);
if (Number.isFinite(fixed)) Date.now = () => fixed;

// A run held at fs-hooks' gate may have nothing else pending (SQLite's calls are synchronous): this keeps it alive until released.
if (process.env['SITEMAPKIT_TEST_GATE'] !== undefined) {
  const alive = setInterval(() => {}, 60_000);
  process.once('SIGUSR2', () => clearInterval(alive));
}
