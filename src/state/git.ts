/**
 * The last commit time of every file under a folder, from one `git log` pass over the whole tree
 * (newest commit first, so a path's first mention is its last change), read as it streams. A shallow
 * clone is refused: its oldest commit would stand for every file it did not see change.
 */
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { SitemapError } from '../errors.ts';

/** Runs git in `cwd`; resolves with its standard output, or fails with its first line of standard error. */
function git(cwd: string, args: readonly string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn('git', ['-C', cwd, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
    child.on('error', (cause) => reject(new SitemapError('SM_GIT_FAILED', `--lastmod-from git: cannot run git (${cause.message}); is git installed?`, { cause })));
    child.on('close', (code) => {
      if (code === 0) resolve(out);
      else reject(new SitemapError('SM_GIT_FAILED', `--lastmod-from git: "${cwd}" ${/not a git repository/i.test(err) ? 'is not in a git repository' : `cannot be read by git: ${firstLine(err)}`}`));
    });
  });
}

function firstLine(text: string): string {
  return text.trim().split('\n', 1)[0] ?? '';
}

/**
 * Commit times (seconds) by path relative to `folder`, for every file git has history of under it.
 * Throws SM_GIT_FAILED for a folder outside a repository, a shallow clone, or git failing.
 */
export async function gitCommitTimes(folder: string): Promise<Map<string, number>> {
  if ((await git(folder, ['rev-parse', '--is-shallow-repository'])).trim() === 'true') {
    throw new SitemapError(
      'SM_GIT_FAILED',
      `--lastmod-from git: "${folder}" is in a shallow clone, whose history stops short, so every file would get its oldest commit's date; fetch the whole history (git fetch --unshallow, or fetch-depth: 0 in CI)`,
    );
  }
  const times = new Map<string, number>();
  await new Promise<void>((resolve, reject) => {
    const child = spawn('git', ['-C', folder, '-c', 'core.quotePath=false', 'log', '--format=%x00%ct', '--name-only', '--no-renames', '--relative', '--', '.'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let err = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
    let time = 0;
    const lines = createInterface({ input: child.stdout, crlfDelay: Infinity });
    lines.on('line', (line) => {
      if (line.startsWith('\0')) time = Number(line.slice(1));
      else if (line !== '' && !times.has(line)) times.set(line, time);
    });
    child.on('error', (cause) => reject(new SitemapError('SM_GIT_FAILED', `--lastmod-from git: cannot run git (${cause.message})`, { cause })));
    // Both the last line read and the exit status are needed, in whichever order they come.
    const read = new Promise<void>((done) => lines.once('close', done));
    child.on('close', (code) => {
      if (code === 0) void read.then(resolve);
      else reject(new SitemapError('SM_GIT_FAILED', `--lastmod-from git: git log failed in "${folder}": ${firstLine(err)}`));
    });
  });
  return times;
}
