/** Progress bars on stderr for long builds and discoveries; only ever started on a terminal. */
import cliProgress from 'cli-progress';
import type { DiscoverProgress } from '../discover/discover.ts';

export interface Progress {
  bytes(read: number): void;
  records(records: number, urls: number): void;
  stop(): void;
}

export function startProgress(stream: NodeJS.WritableStream, totalBytes: number | undefined): Progress {
  const bar = new cliProgress.SingleBar(
    {
      stream,
      format: totalBytes === undefined ? 'reading {records} records, {urls} URLs' : '{bar} {percentage}% | {records} records, {urls} URLs | ETA {eta_formatted}',
      hideCursor: true,
      clearOnComplete: true,
      fps: 5,
    },
    cliProgress.Presets.shades_classic,
  );
  bar.start(totalBytes ?? 0, 0, { records: 0, urls: 0 });
  let stopped = false;
  return {
    bytes: (read) => {
      if (totalBytes !== undefined && !stopped) bar.update(read);
    },
    records: (records, urls) => {
      if (!stopped) bar.update({ records: records.toLocaleString('en-US'), urls: urls.toLocaleString('en-US') });
    },
    stop: () => {
      if (!stopped) bar.stop();
      stopped = true;
    },
  };
}

/** Files done out of those found so far (the total grows as indexes list more), and page URLs read. */
export function startDiscoverProgress(stream: NodeJS.WritableStream): { update(progress: DiscoverProgress): void; stop(): void } {
  const bar = new cliProgress.SingleBar(
    { stream, format: '{bar} {value}/{total} files | {urls} URLs | {failed} failed', hideCursor: true, clearOnComplete: true, fps: 5 },
    cliProgress.Presets.shades_classic,
  );
  // Started at the first report, when the files robots.txt and the usual paths give are known: a total of 0 draws a full bar.
  let started = false;
  let stopped = false;
  return {
    update: (progress) => {
      if (stopped) return;
      const payload = { urls: progress.urls.toLocaleString('en-US'), failed: progress.failed };
      if (!started) bar.start(progress.files, progress.done, payload);
      started = true;
      bar.setTotal(progress.files);
      bar.update(progress.done, payload);
    },
    stop: () => {
      if (started && !stopped) bar.stop();
      stopped = true;
    },
  };
}
