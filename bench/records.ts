/** Synthetic records for the benchmarks: realistic shapes, deterministic, generated lazily. */
export interface BenchRecord {
  loc: string;
  lastmod: string;
  changefreq: 'daily' | 'weekly';
  priority: number;
}

export function* syntheticRecords(count: number): Generator<BenchRecord> {
  for (let i = 0; i < count; i++) {
    const day = String(1 + (i % 28)).padStart(2, '0');
    yield {
      loc: `https://www.example.com/products/category-${i % 97}/item-${i}?color=blue&size=m`,
      lastmod: `2024-05-${day}T10:${String(i % 60).padStart(2, '0')}:00+00:00`,
      changefreq: i % 2 === 0 ? 'daily' : 'weekly',
      priority: (i % 10) / 10,
    };
  }
}

/**
 * The runners import sitemapkit by its package name, which resolves to dist/ through package.json's
 * `exports`. A variable, so typechecking (which runs before any build) takes the types from src/.
 */
export const PACKAGE: string = 'sitemapkit';

export function report(tool: string, urls: number, started: bigint): void {
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const maxRssMiB = process.resourceUsage().maxRSS / 1024;
  console.log(JSON.stringify({ tool, urls, seconds, maxRssMiB }));
}
