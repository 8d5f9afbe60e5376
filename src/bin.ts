#!/usr/bin/env -S node --max-semi-space-size=8
import { run } from './cli/run.ts';

process.exitCode = await run(process.argv.slice(2), { stdin: process.stdin, stdout: process.stdout, stderr: process.stderr, cwd: process.cwd() });
