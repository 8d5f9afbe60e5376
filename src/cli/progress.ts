/** A progress bar on stderr for long builds; only ever started on a terminal. */
import cliProgress from 'cli-progress';

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
