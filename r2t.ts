import { parseSitemap } from './src/index.ts';
for (const body of [
 '<url xmlns=""><loc>https://a.example/1</loc></url><url><loc>https://a.example/2</loc></url>',
 '<url><loc xmlns="">https://a.example/1</loc></url><url><loc>https://a.example/2</loc></url>',
 '<url xmlns="http://other/"><loc>https://a.example/1</loc></url>',
]) {
  const xml = new TextEncoder().encode(`<?xml version="1.0"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${body}\n</urlset>`);
  const p = parseSitemap(xml); const e=[]; for await (const x of p) e.push(x);
  console.log(JSON.stringify(e), p.diagnostics.map(d=>`${d.rule} ${d.level} ${d.line}:${d.column} ${d.message}`));
}
