#!/usr/bin/env -S node --max-semi-space-size=8
import { run } from './cli/run.ts';

// A reader that stops early (`sitemapkit parse … | head`) closes the pipe: that ends the output, it is no failure.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code !== 'EPIPE') throw error;
  process.exit(process.exitCode ?? 0);
});

process.exitCode = await run(process.argv.slice(2), { stdin: process.stdin, stdout: process.stdout, stderr: process.stderr, cwd: process.cwd() });
