/**
 * Preloaded with `node --import` into a CLI child process, to stop it at a chosen file system call:
 * every function of `fs.promises` is wrapped, and the ESM bindings `node:fs/promises` gives the code
 * are synced to the wrappers. Driven by environment variables, each optional:
 *   SITEMAPKIT_TEST_KILL_AT_RENAME=N  SIGKILL this process just before its Nth rename
 *   SITEMAPKIT_TEST_KILL_AT_FS=N      SIGKILL this process just before its Nth file system call of any kind
 *   SITEMAPKIT_TEST_COUNT_FS=<file>   at exit, write `{"fs":calls,"rename":renames}` there
 *   SITEMAPKIT_TEST_GATE=<path>       at the first call on a path under <path>, print "ready" on stderr and wait for SIGUSR2
 */
import fs from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';

const env = process.env;
const killAtRename = Number(env['SITEMAPKIT_TEST_KILL_AT_RENAME'] ?? 0);
const killAtFs = Number(env['SITEMAPKIT_TEST_KILL_AT_FS'] ?? 0);
const countFile = env['SITEMAPKIT_TEST_COUNT_FS'];
const gate = env['SITEMAPKIT_TEST_GATE'];

let calls = 0;
let renames = 0;
let gateOpen: Promise<void> | undefined;

function waitAtGate(): Promise<void> {
  if (gateOpen === undefined) {
    gateOpen = new Promise((resolve) => process.once('SIGUSR2', () => resolve()));
    fs.writeSync(2, 'ready\n');
  }
  return gateOpen;
}

const promises = fs.promises as unknown as Record<string, unknown>;
for (const [name, original] of Object.entries(promises)) {
  if (typeof original !== 'function' || name === 'watch' || name === 'glob') continue; // those two hand back iterators, not promises
  const call = original as (...args: unknown[]) => Promise<unknown>;
  promises[name] = async (...args: unknown[]): Promise<unknown> => {
    if (gate !== undefined && typeof args[0] === 'string' && args[0].startsWith(gate)) await waitAtGate();
    calls++;
    if (name === 'rename') renames++;
    if (calls === killAtFs || (name === 'rename' && renames === killAtRename)) process.kill(process.pid, 'SIGKILL');
    return call(...args);
  };
}
syncBuiltinESMExports();

if (countFile !== undefined) process.on('exit', () => fs.writeFileSync(countFile, JSON.stringify({ fs: calls, rename: renames })));
