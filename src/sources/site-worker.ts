/** A worker thread of `readSiteFolder`: judges the batches of paths it is sent, one file at a time, and answers each with its verdicts or its failure. */
import { parentPort, workerData } from 'node:worker_threads';
import { isSitemapError } from '../errors.ts';
import { makeJudge, type SiteFolderOptions } from './site-judge.ts';

const judge = await makeJudge(workerData as SiteFolderOptions);

parentPort?.on('message', ({ seq, paths }: { seq: number; paths: string[] }) => {
  try {
    parentPort?.postMessage({ seq, verdicts: paths.map(judge) });
  } catch (error) {
    const failure = isSitemapError(error) ? { code: error.code, message: error.message } : { code: 'SM_INPUT_UNREADABLE', message: `cannot read a page: ${(error as Error).message}` };
    parentPort?.postMessage({ seq, error: failure });
  }
});

parentPort?.postMessage('ready');
