/**
 * The last commit time of every file under a folder, from one `git log` pass over the whole tree
 * (newest commit first, so a path's first mention is its last change), read as it streams. A shallow
 * clone is refused: its oldest commit would stand for every file it did not see change.
 */
import { spawn } from 'node:child_process';
import { isAbsolute, posix, relative, sep } from 'node:path';
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

/** Commit times (seconds) by path relative to a folder; `get` finds a path however it is spelt (`./a.md`, `a//b.md`, `a/../a/b.md`, absolute under the folder). */
export class CommitTimes {
  readonly #times: Map<string, number>;
  readonly #root: string;

  constructor(root: string, times: Map<string, number>) {
    this.#root = root;
    this.#times = times;
  }

  get(path: string): number | undefined {
    const time = this.#times.get(path);
    if (time !== undefined) return time;
    const inside = posix.normalize((isAbsolute(path) ? relative(this.#root, path) : path).split(sep).join('/'));
    return inside === '..' || inside.startsWith('../') ? undefined : this.#times.get(inside);
  }
}

/**
 * Commit times by path relative to `folder`, for every file git has history of under it: its last
 * commit that added or changed it (a commit deleting a path is no change of the file a record can name).
 * Throws SM_GIT_FAILED for a folder outside a repository, a shallow clone, or git failing.
 */
export async function gitCommitTimes(folder: string): Promise<CommitTimes> {
  if ((await git(folder, ['rev-parse', '--is-shallow-repository'])).trim() === 'true') {
    throw new SitemapError(
      'SM_GIT_FAILED',
      `--lastmod-from git: "${folder}" is in a shallow clone, whose history stops short, so every file would get its oldest commit's date; fetch the whole history (git fetch --unshallow, or fetch-depth: 0 in CI)`,
    );
  }
  const times = new Map<string, number>();
  await new Promise<void>((resolve, reject) => {
    // NUL-separated (-z): names with quotes, backslashes, tabs or line breaks come as they are, not quoted.
    const child = spawn('git', ['-C', folder, 'log', '-z', '--format=%x01%ct', '--name-only', '--no-renames', '--diff-filter=d', '--relative', '--', '.'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let err = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
    let time = 0;
    let rest = '';
    // A commit's time, then its names, the first after a line break.
    const take = (field: string): void => {
      if (field.startsWith('\x01')) time = Number(field.slice(1));
      else {
        const name = field.startsWith('\n') ? field.slice(1) : field;
        if (name !== '' && !times.has(name)) times.set(name, time);
      }
    };
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      const fields = (rest + chunk).split('\0');
      rest = fields.pop() ?? '';
      for (const field of fields) take(field);
    });
    // The output ends with a NUL; whatever follows the last one is a field all the same.
    child.stdout.on('end', () => take(rest));
    child.on('error', (cause) => reject(new SitemapError('SM_GIT_FAILED', `--lastmod-from git: cannot run git (${cause.message})`, { cause })));
    child.on('close', (code) => {
      if (code === 0) resolve();
      else reject(new SitemapError('SM_GIT_FAILED', `--lastmod-from git: git log failed in "${folder}": ${firstLine(err)}`));
    });
  });
  return new CommitTimes(folder, times);
}
