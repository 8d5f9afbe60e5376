#!/usr/bin/env -S node --max-semi-space-size=8
import { run } from './cli/run.ts';

/**
 * A reader that stops early (`sitemapkit parse … | head`) closes the pipe. Stop quietly, as a Unix
 * tool killed by SIGPIPE does, with its status (128 + 13): a build or crawl cut short this way did
 * not finish, so it must not report success, and `set -o pipefail` scripts see it as they would
 * with any other tool.
 */
const SIGPIPE_STATUS = 141;
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code !== 'EPIPE') throw error;
  process.exit(SIGPIPE_STATUS);
});

process.exitCode = await run(process.argv.slice(2), { stdin: process.stdin, stdout: process.stdout, stderr: process.stderr, cwd: process.cwd() });
