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
const { EXIT_SIGPIPE } = await import('./cli/io.ts');

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

const debug = process.env['SITEMAPKIT_DEBUG'] !== undefined && process.env['SITEMAPKIT_DEBUG'] !== '' && process.env['SITEMAPKIT_DEBUG'] !== '0';
const exitCode = await run(process.argv.slice(2), { stdin: stdin(), stdout: process.stdout, stderr: process.stderr, cwd: process.cwd(), debug });
// The reader of standard output left (`sitemapkit parse … | head`): stop at once, as a Unix tool killed by SIGPIPE does, with its status; work
// still under way (a discovery's fetches) is not waited for. Not success: `set -o pipefail` scripts see a run cut short as with any other tool.
if (exitCode === EXIT_SIGPIPE) process.exit(exitCode);
process.exitCode = exitCode;
