/** `build --dir`'s side of the CLI: the folder's files as source items, each verdict counted and, with `--report`, written as a JSON Lines line (published only when the build is). */
import { randomBytes } from 'node:crypto';
import { open, rename, rm, type FileHandle } from 'node:fs/promises';
import { SitemapError } from '../errors.ts';
import type { SourceItem } from '../model/pipeline.ts';
import { readSiteFolder, VERDICTS, type SiteFolderOptions, type Verdict } from '../sources/folder.ts';

export type VerdictCounts = Record<Verdict, number>;

/** A `--report` file being written: under a temporary name until `publish`. */
export class VerdictReport {
  readonly #path: string;
  readonly #temp: string;
  readonly #handle: FileHandle;
  #buffer = '';

  private constructor(path: string, temp: string, handle: FileHandle) {
    this.#path = path;
    this.#temp = temp;
    this.#handle = handle;
  }

  static async open(path: string, label: string): Promise<VerdictReport> {
    const temp = `${path}.${randomBytes(4).toString('hex')}.tmp`;
    try {
      return new VerdictReport(path, temp, await open(temp, 'wx'));
    } catch (cause) {
      const code = (cause as { code?: unknown }).code;
      const why = code === 'ENOENT' ? 'its folder does not exist' : code === 'EACCES' || code === 'EPERM' ? 'permission denied' : (cause as Error).message;
      throw new SitemapError('SM_OUTPUT_UNWRITABLE', `cannot write report "${label}": ${why}`, { cause });
    }
  }

  async add(line: object): Promise<void> {
    this.#buffer += `${JSON.stringify(line)}\n`;
    if (this.#buffer.length >= 1 << 16) await this.#flush();
  }

  async publish(): Promise<void> {
    await this.#flush();
    await this.#handle.close();
    await rename(this.#temp, this.#path);
  }

  async discard(): Promise<void> {
    await this.#handle.close().catch(() => {});
    await rm(this.#temp, { force: true });
  }

  async #flush(): Promise<void> {
    if (this.#buffer === '') return;
    const text = this.#buffer;
    this.#buffer = '';
    await this.#handle.write(text);
  }
}

export function emptyCounts(): VerdictCounts {
  return Object.fromEntries(VERDICTS.map((v) => [v, 0])) as VerdictCounts;
}

/** The folder's listed pages as source items; every file's verdict counted in `counts` and added to `report`. */
export async function* siteItems(options: SiteFolderOptions, counts: VerdictCounts, report: VerdictReport | undefined): AsyncGenerator<SourceItem> {
  for await (const file of readSiteFolder(options)) {
    counts[file.verdict]++;
    if (report !== undefined) {
      const line: Record<string, unknown> = { path: file.path };
      if (file.url !== undefined) line['url'] = file.url;
      line['verdict'] = file.verdict;
      if (file.reason !== undefined) line['reason'] = file.reason;
      await report.add(line);
    }
    if (file.record !== undefined) yield file.record;
  }
}

/** One line: `Files in site: 14 (8 listed; skipped: 1 noindex, 2 redirect, 3 not-a-page)`. */
export function formatVerdicts(dir: string, counts: VerdictCounts): string {
  const total = VERDICTS.reduce((sum, v) => sum + counts[v], 0);
  const skipped = VERDICTS.filter((v) => v !== 'listed' && counts[v] > 0).map((v) => `${counts[v].toLocaleString('en-US')} ${v}`);
  return `Files in ${dir}: ${total.toLocaleString('en-US')} (${counts.listed.toLocaleString('en-US')} listed${skipped.length > 0 ? `; skipped: ${skipped.join(', ')}` : ''})\n`;
}

export { SITE_FINGERPRINT_SCHEME as fingerprintScheme } from '../sources/folder.ts';
