/** The CLI as a newcomer runs it from a fresh clone, through npm (issue #30: `npx sitemapkit` found nothing to run there). */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));
const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };

test('`npm run sitemapkit -- <args>` runs the CLI from the source, as the README shows', () => {
  const child = spawnSync('npm', ['run', '--silent', 'sitemapkit', '--', '--version'], { cwd: root, encoding: 'utf8' });
  assert.deepEqual([child.status, child.stdout, child.stderr], [0, `${pkg.version}\n`, '']);
});

test('`npx sitemapkit` runs the bin package.json names: `npm ci` in a clone builds dist/ (prepare)', () => {
  const child = spawnSync('npx', ['--no-install', 'sitemapkit', '--version'], { cwd: root, encoding: 'utf8' });
  assert.deepEqual([child.status, child.stdout, child.stderr], [0, `${pkg.version}\n`, '']);
});
