/**
 * Preloaded with `node --import` into a CLI child process: `SITEMAPKIT_TEST_NOW=<ms>` fixes `Date.now`,
 * so a child's run stamps the same state times as the run it is compared with.
 */
const fixed = Number(process.env['SITEMAPKIT_TEST_NOW'] ?? Number.NaN);
if (Number.isFinite(fixed)) Date.now = () => fixed;
