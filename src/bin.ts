#!/usr/bin/env -S node --max-semi-space-size=8
import { fstatSync } from 'node:fs';
import { Readable } from 'node:stream';
import { unsupportedNode } from './cli/runtime.ts';
import type { CliIo } from './cli/io.ts';

// Before the rest is loaded: on an older Node.js, loading it may be what fails.
const unsupported = unsupportedNode(process.versions.node);
if (unsupported !== undefined) {
  process.stderr.write(`sitemapkit: ${unsupported}\n`);
  process.exit(2);
}
const { run } = await import('./cli/run.ts');
const { SitemapError } = await import('./errors.ts');

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

/** Node reads a folder given as stdin (`sitemapkit parse - < dir`) as empty: it is said what it is, when stdin is read. */
function stdin(): CliIo['stdin'] {
  let folder = false;
  try {
    folder = fstatSync(0).isDirectory();
  } catch {
    // No stdin at all: reading it ends at once, as Node has it.
  }
  if (!folder) return process.stdin;
  return new Readable({
    read() {
      this.destroy(new SitemapError('SM_INPUT_UNREADABLE', 'cannot read stdin: it is a folder'));
    },
  });
}

process.exitCode = await run(process.argv.slice(2), { stdin: stdin(), stdout: process.stdout, stderr: process.stderr, cwd: process.cwd() });
