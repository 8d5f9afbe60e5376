/**
 * A generated static site for `bench/site.ts`, made once and kept in the system's temporary folder:
 * pages shaped like a docs/blog generator's output (head with meta, canonical, hreflang, hashed
 * assets; nav, article with images, footer; an inline script), 2% noindex, 2% alias redirects,
 * `404.html`, and hashed asset files. Pages sit 100 to a folder, as `section-N/page-M/index.html`.
 */
import { existsSync } from 'node:fs';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const WORDS = 'static site sitemap crawler index page content build deploy search engine fingerprint change state truthful modified lastmod folder router canonical alternate language image article section guide reference release notes example server client cache asset hashed module bundle'.split(' ');

/** A small deterministic generator, so every run of the bench reads the same bytes. */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

function paragraph(next: () => number, words: number): string {
  let text = '';
  for (let i = 0; i < words; i++) text += (i === 0 ? '' : ' ') + (WORDS[Math.floor(next() * WORDS.length)] ?? 'page');
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}.`;
}

function pagePath(i: number): string {
  return `section-${Math.floor(i / 100)}/page-${i % 100}`;
}

function page(i: number, base: string): string {
  const next = random(i + 1);
  const path = pagePath(i);
  const url = `${base}${path}/`;
  if (i % 50 === 7) {
    const target = `${base}${pagePath(i - 1)}/`;
    return `<!DOCTYPE html><html lang="en-us"><head><title>${target}</title><link rel="canonical" href="${target}"><meta name="robots" content="noindex"><meta charset="utf-8"><meta http-equiv="refresh" content="0; url=${target}"></head></html>\n`;
  }
  const noindex = i % 50 === 13 ? '\n    <meta name="robots" content="noindex, nofollow">' : '';
  const nav = Array.from({ length: 24 }, (_, k) => `<li><a href="/${pagePath((i + k * 37) % 5000)}/">${paragraph(next, 2)}</a></li>`).join('\n        ');
  let body = '';
  for (let s = 0; s < 8; s++) {
    body += `\n      <h2 id="s${s}">${paragraph(next, 4)}</h2>\n      <p>${paragraph(next, 60)}</p>\n      <p>${paragraph(next, 45)} <a href="/${pagePath((i * 7 + s) % 5000)}/">${paragraph(next, 3)}</a> ${paragraph(next, 30)}</p>`;
    if (s % 3 === 0) body += `\n      <figure><img src="/images/${path.replace('/', '-')}-${s}.webp" srcset="/images/${path.replace('/', '-')}-${s}-480.webp 480w, /images/${path.replace('/', '-')}-${s}-1200.webp 1200w" alt="${paragraph(next, 3)}" width="1200" height="675"><figcaption>${paragraph(next, 8)}</figcaption></figure>`;
  }
  return `<!DOCTYPE html>
<!-- built at 2026-11-28T10:00:00Z by bench -->
<html lang="en">
  <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <meta name="generator" content="Hugo 0.136.5">${noindex}
    <title>${paragraph(next, 5)} | Example Docs</title>
    <meta name="description" content="${paragraph(next, 20)}">
    <meta property="og:title" content="${paragraph(next, 5)}">
    <meta property="og:image" content="${base}images/og-${i}.png">
    <link rel="canonical" href="${url}">
    <link rel="alternate" hreflang="en" href="${url}">
    <link rel="alternate" hreflang="de" href="${base}de/${path}/">
    <link rel="alternate" hreflang="x-default" href="${url}">
    <link rel="stylesheet" href="/assets/main.3f9a2c1b.css" integrity="sha384-oqVuAfXRKap7fdgcCY5uykM6+R9GqQ8K/uxy9rx7HNQlGYl1kPzQho1wx4JwY8wC">
    <link rel="modulepreload" href="/assets/index-BX3k9Lm2.js">
    <script type="module" src="/assets/index-BX3k9Lm2.js"></script>
    <script type="application/ld+json">{"@context":"https://schema.org","@type":"TechArticle","headline":"Page ${i}","dateModified":"2026-11-28T10:00:00Z"}</script>
  </head>
  <body>
    <header class="site-header"><a href="/"><img src="/images/logo.svg" alt="Example" width="120" height="32"></a></header>
    <nav class="sidebar">
      <ul>
        ${nav}
      </ul>
    </nav>
    <main>
      <article>
      <h1>${paragraph(next, 6)}</h1>${body}
      </article>
    </main>
    <footer class="site-footer"><p>&copy; 2026 Example. ${paragraph(next, 10)}</p><img src="/images/badge.png" alt="" width="80" height="15"></footer>
    <script>window.__BUILD__={"id":"b-1732788000","time":"2026-11-28T10:00:00Z"};</script>
  </body>
</html>
`;
}

/** The folder of `pages` pages (made if missing); `base` is the site URL the pages name. */
export async function siteFixture(pages: number, base = 'https://docs.example.com/'): Promise<string> {
  const dir = join(tmpdir(), `sitemapkit-bench-site-v1-${pages}`);
  if (existsSync(join(dir, '.complete'))) return dir;
  const building = `${dir}.building-${process.pid}`;
  await rm(building, { recursive: true, force: true });
  await mkdir(join(building, 'assets'), { recursive: true });
  await writeFile(join(building, 'index.html'), page(0, base).replace('section-0/page-0/', ''));
  await writeFile(join(building, '404.html'), '<!DOCTYPE html><html><head><title>Not found</title></head><body><h1>404</h1></body></html>\n');
  await writeFile(join(building, 'assets/main.3f9a2c1b.css'), 'body{margin:0}\n');
  await writeFile(join(building, 'assets/index-BX3k9Lm2.js'), 'export {};\n');
  for (let i = 1; i < pages; i++) {
    await mkdir(join(building, pagePath(i)), { recursive: true });
    await writeFile(join(building, pagePath(i), 'index.html'), page(i, base));
  }
  await writeFile(join(building, '.complete'), '');
  await rm(dir, { recursive: true, force: true });
  await rename(building, dir);
  return dir;
}
