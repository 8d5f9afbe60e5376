/** `sitemapkit changes`: the URLs a state's last run (or its runs since a time) added, changed and removed, for IndexNow and the like. */
import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { SitemapError } from '../../errors.ts';
import { normalizeDatetime } from '../../rules/datetime.ts';
import { openSqliteState } from '../../state/sqlite.ts';
import type { ChangeFeed, ChangedUrl } from '../../state/store.ts';
import { toSeconds } from '../../state/time.ts';
import { defineCommand, type CommandContext, type CommandRun } from '../command.ts';
import { EXIT_OK } from '../io.ts';
import { COMMANDS } from './catalog.ts';

export interface ChangesFlags {
  state: string;
  since?: string;
  json: boolean;
}

export const command = defineCommand<ChangesFlags>({
  ...COMMANDS.changes,
  options: [
    { flags: '--state <file>', description: 'the state file a build with --state keeps', required: true },
    { flags: '--since <time>', description: 'changes of every run since this time (a W3C Datetime, e.g. 2026-11-01 or 2026-11-28T10:00:00Z) rather than the last run' },
    { flags: '--json', description: 'print one JSON object: { added, changed, removed }, each a list of { url, time }', default: false },
  ],
  jsonFailure: {},
  handler: (_operands, flags, context) => changes(flags, context),
});

async function* changes(flags: ChangesFlags, context: CommandContext): CommandRun {
  let since: number | undefined;
  if (flags.since !== undefined) {
    const parsed = normalizeDatetime(flags.since);
    if (!parsed.ok) throw new SitemapError('SM_BAD_OPTION', `--since "${flags.since}" is not a date or time: ${parsed.reason}`);
    since = toSeconds(parsed.epoch);
  }
  const path = resolve(context.cwd, flags.state);
  try {
    await stat(path);
  } catch (cause) {
    throw new SitemapError('SM_STATE_UNREADABLE', `state "${flags.state}" does not exist: a build with --state ${flags.state} makes it`, { cause });
  }
  const store = await openSqliteState(path);
  let feed: ChangeFeed;
  try {
    feed = await store.changes(since);
  } finally {
    store.close();
  }
  if (flags.json) {
    yield { stdout: `${JSON.stringify(feed)}\n` };
    return EXIT_OK;
  }
  const section = (title: string, urls: readonly ChangedUrl[]): string => `${title} (${urls.length.toLocaleString('en-US')})\n${urls.map(({ url, time }) => `  ${time}  ${url}\n`).join('')}`;
  yield { stdout: section('added', feed.added) + section('changed', feed.changed) + section('removed', feed.removed) };
  return EXIT_OK;
}
