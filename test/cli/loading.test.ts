import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const BIN = join(ROOT, 'src/bin.ts');
const HOOK = join(ROOT, 'test/helpers/record-modules.ts');
const dir = mkdtempSync(join(tmpdir(), 'sitemapkit-loading-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** Runs the CLI in a child process; the project's own modules it loaded (`src/…`) and the packages (`node_modules/<name>`, first level only). */
function loadedBy(args: string[]): { status: number | null; sources: string[]; packages: string[] } {
  const out = join(dir, 'modules.json');
  const child = spawnSync(process.execPath, ['--import', HOOK, BIN, ...args], { cwd: dir, env: { ...process.env, SITEMAPKIT_MODULES_OUT: out }, encoding: 'utf8' });
  const files = (JSON.parse(readFileSync(out, 'utf8')) as string[]).filter((url) => url.startsWith('file:')).map((url) => fileURLToPath(url).slice(ROOT.length));
  const packages = new Set(files.filter((file) => file.startsWith('node_modules/')).map((file) => file.split('/')[1] ?? ''));
  return { status: child.status, sources: files.filter((file) => file.startsWith('src/')).sort(), packages: [...packages].sort() };
}

/** What every run loads before its command: `command.ts` comes with a command module, the runner imports only its types. */
const RUNNER = ['src/bin.ts', 'src/cli/commands/catalog.ts', 'src/cli/io.ts', 'src/cli/run.ts', 'src/cli/runtime.ts', 'src/errors.ts'];

test('--help and --version load the runner and commander, and no command', () => {
  for (const args of [['--help'], ['--version'], ['help']]) {
    assert.deepEqual(loadedBy(args), { status: 0, sources: RUNNER, packages: ['commander'] }, args.join(' '));
  }
});

test('a command loads its own module: build and its help load neither the reader, the HTTP client nor the schema validator', () => {
  writeFileSync(join(dir, 'urls.txt'), 'https://example.com/a\n');
  for (const args of [['build', '--help'], ['help', 'build'], ['build', '-i', 'urls.txt', '-o', 'out', '-b', 'https://example.com/']]) {
    const { status, sources, packages } = loadedBy(args);
    assert.equal(status, 0, args.join(' '));
    assert.ok(sources.includes('src/cli/commands/build.ts'), args.join(' '));
    assert.deepEqual(sources.filter((file) => /^src\/(read|http|discover|validate|robots)\/|^src\/cli\/commands\/(?!build|catalog)/.test(file)), [], args.join(' '));
    assert.deepEqual(packages.filter((name) => ['undici', 'xmllint-wasm', 'saxes'].includes(name)), [], args.join(' '));
  }
});

test('parse and validate load the reader, and the schema validator only with --xsd', () => {
  const xml = join(dir, 'sitemap.xml');
  writeFileSync(xml, '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://example.com/</loc></url></urlset>\n');
  const commands = (sources: string[]): string[] => sources.filter((file) => file.startsWith('src/cli/commands/'));
  const parse = loadedBy(['parse', xml]);
  assert.deepEqual([parse.status, commands(parse.sources)], [0, ['src/cli/commands/catalog.ts', 'src/cli/commands/parse.ts', 'src/cli/commands/source.ts']]);
  assert.ok(parse.sources.includes('src/read/parse.ts') && parse.packages.includes('saxes'));
  assert.ok(!parse.packages.includes('xmllint-wasm') && !parse.sources.includes('src/validate/xsd.ts'));
  const validate = loadedBy(['validate', xml]);
  assert.deepEqual([validate.status, commands(validate.sources)], [0, ['src/cli/commands/catalog.ts', 'src/cli/commands/source.ts', 'src/cli/commands/validate.ts']]);
  assert.ok(!validate.packages.includes('xmllint-wasm') && !validate.sources.includes('src/validate/xsd.ts'));
  const xsd = loadedBy(['validate', xml, '--xsd']);
  assert.equal(xsd.status, 0);
  assert.ok(xsd.packages.includes('xmllint-wasm') && xsd.sources.includes('src/validate/xsd.ts'));
});
