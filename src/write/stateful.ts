/**
 * The writer with a state store: truthful lastmods and stable files. Records go through the usual
 * normalize stage, are compared with the state in batches and written into it; a URL keeps its file
 * (slot), new URLs go to the last file while it has room and then to new files, which are built as
 * the records come. Then every file that changed is written again from the state (its URLs in the
 * order they were placed), and every other one is kept as published: bytes, mtime and index lastmod.
 * The state commits before the sink publishes; the manifest records the run's token, so a run killed
 * between the two is settled by the next (`StateStore.begin`).
 */
import { SitemapError } from '../errors.ts';
import type { Diagnostic } from '../model/diagnostic.ts';
import type { BuildOptions, BuildSummary, SitemapSink, SourceItem, SourceRecord, StateRunSummary } from '../model/pipeline.ts';
import type { SitemapRecord } from '../model/record.ts';
import { fingerprint } from '../normalize/fingerprint.ts';
import type { NormalizedEntry } from '../normalize/record.ts';
import { NormalizeStage } from '../normalize/stage.ts';
import { MAX_NEWS_PER_SITEMAP } from '../rules/limits.ts';
import { scopeOf } from '../rules/url.ts';
import type { FileState, RunOwner, Seconds, StateStore, StoredUrl, UrlWrite } from '../state/store.ts';
import { formatSeconds, toSeconds } from '../state/time.ts';
import { BuildFindings, buildSettings } from './build.ts';
import { escapeUri, utf8Length } from './escape.ts';
import { FileSet } from './file-set.ts';
import { NO_FILE, type SerializedEntry } from './plan.ts';
import { mayHaveNonAscii, namespacesOf, serializeTail, URLSET_CLOSE, urlsetOpen } from './serialize.ts';
import type { SitemapPart, SplitLimits } from './split.ts';

export interface StateBuildOptions {
  store: StateStore;
  /** This process, named to a second run refused meanwhile. */
  owner: RunOwner;
  /** Whether the published manifest names the run `token` (see `StateStore.begin`). */
  wasPublished: (token: string) => Promise<boolean>;
  /** The sink for this run, made once its token is known (the manifest records it). */
  openSink: (token: string) => SitemapSink;
  /** Last commit times (seconds) by source path, the lastmod of a record with neither its own nor a state time. */
  commitTimes?: { get(path: string): number | undefined };
  /** Pack the files that removals left sparse: URLs move up to fill them, and every file whose URLs change is written. @default false */
  compact?: boolean;
  /** How the source made its fingerprints (see `WriteSitemapsOptions.fingerprintScheme`). */
  fingerprintScheme?: string;
}

/**
 * The version of what the state compares when a record has no fingerprint of its own (the entry after
 * its loc, but for its lastmod, hashed): 2 since the loc was left out of it.
 */
const ENTRY_SCHEME = 'entry/2';

/** Records compared with the state at once: one lookup (one round trip for a server store) per batch. */
const BATCH = 256;
const CLOSE_BYTES = URLSET_CLOSE.length;

/** A file's totals as the planner keeps them, and what the state and the index need of it. */
interface Slot {
  urls: number;
  body: number;
  news: number;
  nsBits: number;
  name: string | undefined;
  bytes: number;
  newestLastmod: string | undefined;
  newestEpoch: number | undefined;
  run: number;
}

interface Pending {
  record: SitemapRecord;
  lastmodEpoch: number | undefined;
  line: number;
  source: SourceRecord;
}

export async function buildWithState(items: Iterable<SourceItem> | AsyncIterable<SourceItem>, options: BuildOptions, state: StateBuildOptions): Promise<BuildSummary> {
  const { gzipIndex, strict, stylesheet, maxUrlsPerFile, maxBytesPerFile, filename, maxDiagnostics, now, gzip, base } = buildSettings(options);
  const limits: SplitLimits = { maxUrls: maxUrlsPerFile, maxBytes: maxBytesPerFile, maxNews: MAX_NEWS_PER_SITEMAP };
  const { store, commitTimes } = state;
  const compact = state.compact === true;
  const clock = now();
  const time: Seconds = toSeconds(clock);

  const start = await store.begin({ owner: state.owner, now: time, wasPublished: state.wasPublished });
  const sink = state.openSink(start.token);
  const counts: StateRunSummary = { run: start.run, added: 0, changed: 0, removed: 0, unchanged: 0, filesWritten: 0, filesKept: 0 };
  if (start.recovered !== undefined) counts.recovered = start.recovered.outcome;
  if (start.tookOver !== undefined) counts.tookOver = `process ${start.tookOver.pid} on ${start.tookOver.host}, started ${formatSeconds(start.tookOver.started)}`;
  const summary: BuildSummary = { files: [], urls: 0, records: 0, dropped: 0, duplicates: 0, diagnostics: [], counts: {}, state: counts };
  const findings = new BuildFindings(summary, options, maxDiagnostics, strict);
  const report = findings.report;

  // What the files' bytes depend on besides their entries: when it changes, no file can be kept.
  const format = JSON.stringify({ base: base.href, stem: filename, gzip, gzipIndex, stylesheet: stylesheet ?? null });
  const sameFormat = start.format === format;
  // A state that compared its URLs another way (a sitemapkit upgrade, a source's new fingerprints): a different print is the new way of printing the same content, kept without a new lastmod.
  const scheme = `${ENTRY_SCHEME} ${state.fingerprintScheme ?? 'source'}`;
  const [entryScheme, printScheme] = (start.scheme ?? '').split(' ');
  const reprintEntries = start.maxId > 0 && entryScheme !== ENTRY_SCHEME;
  const reprintSources = start.maxId > 0 && printScheme !== (state.fingerprintScheme ?? 'source');
  const extension = gzip ? '.xml.gz' : '.xml';
  const files = new FileSet(sink, { base, stem: filename, gzip, gzipIndex, stylesheet, limits, alwaysIndex: true });
  const slots = new Map<number, Slot>();
  for (const f of start.files) slots.set(f.slot, { ...f });
  /** Slots of the state that this run must write again. */
  const dirty = new Set<number>();
  /** Slots from here on are opened by this run, and built as their records come. */
  const firstNewSlot = start.files.reduce((n, f) => Math.max(n, f.slot + 1), 0);
  /** The state's last file takes new URLs while it has room, then new files do. */
  let appendToOld = firstNewSlot > 0;
  let streaming = -1;
  let nextSlot = firstNewSlot;
  const { maxId } = start;
  let nextId = maxId + 1;
  const seen = new Uint8Array((maxId >> 3) + 1);
  let seenCount = 0;
  const markSeen = (id: number): void => {
    seen[id >> 3] = (seen[id >> 3] as number) | (1 << (id & 7));
    seenCount++;
  };
  const wasSeen = (id: number): boolean => ((seen[id >> 3] as number) & (1 << (id & 7))) !== 0;

  const headers: number[] = [];
  const headerBytes = (nsBits: number): number => (headers[nsBits] ??= utf8Length(urlsetOpen(nsBits, stylesheet)));
  const fits = (slot: Slot, bytes: number, nsBits: number, news: number, extraUrls: number): boolean =>
    slot.urls + extraUrls <= limits.maxUrls && slot.news + news <= limits.maxNews && headerBytes(slot.nsBits | nsBits) + slot.body + bytes + CLOSE_BYTES <= limits.maxBytes;
  const account = (slot: Slot, entry: SerializedEntry): void => {
    slot.urls++;
    slot.body += entry.bytes;
    slot.nsBits |= entry.nsBits;
    if (entry.hasNews) slot.news++;
  };
  const newest = (slot: Slot, lastmod: string | undefined, epoch: number | undefined): void => {
    if (epoch !== undefined && (slot.newestEpoch === undefined || epoch > slot.newestEpoch)) {
      slot.newestEpoch = epoch;
      slot.newestLastmod = lastmod;
    }
  };
  const emptySlot = (): Slot => ({ urls: 0, body: 0, news: 0, nsBits: 0, name: undefined, bytes: 0, newestLastmod: undefined, newestEpoch: undefined, run: start.run });

  /** Places an entry at the end of the set: the state's last file while it has room, then files built now. */
  /** Returns a promise only when a file closes or the sink asks to wait, so the usual entry costs no microtask. */
  const append = (entry: SerializedEntry): number | Promise<number> => {
    if (appendToOld) {
      const slot = slots.get(firstNewSlot - 1) as Slot;
      if (fits(slot, entry.bytes, entry.nsBits, entry.hasNews ? 1 : 0, 1)) {
        account(slot, entry);
        dirty.add(firstNewSlot - 1);
        return firstNewSlot - 1;
      }
      appendToOld = false;
    }
    if (compact) {
      // Compaction may move URLs into the new files too: they are planned here and written from the state at the end.
      let slot = slots.get(nextSlot - 1);
      if (nextSlot <= firstNewSlot || slot === undefined || !fits(slot, entry.bytes, entry.nsBits, entry.hasNews ? 1 : 0, 1)) {
        if (!files.fitsAlone(entry)) return NO_FILE;
        slot = emptySlot();
        slots.set(nextSlot++, slot);
      }
      account(slot, entry);
      dirty.add(nextSlot - 1);
      return nextSlot - 1;
    }
    const current = streaming;
    if (current >= 0 && files.tryAdd(current, entry)) {
      const slot = slots.get(current) as Slot;
      account(slot, entry);
      newest(slot, entry.lastmod, entry.lastmodEpoch);
      const wait = files.takeWait();
      return wait === undefined ? current : wait.then(() => current);
    }
    if (!files.fitsAlone(entry)) return NO_FILE;
    return openNext(entry);
  };

  /** Closes the file being built and opens the next with the entry. */
  const openNext = async (entry: SerializedEntry): Promise<number> => {
    if (streaming >= 0) await files.close(streaming);
    streaming = nextSlot++;
    files.open(streaming);
    files.tryAdd(streaming, entry);
    const slot = emptySlot();
    slots.set(streaming, slot);
    account(slot, entry);
    newest(slot, entry.lastmod, entry.lastmodEpoch);
    const wait = files.takeWait();
    if (wait !== undefined) await wait;
    return streaming;
  };

  /** `--compact`: the URLs in file order, packed into the fewest files from slot 0; a file whose URLs change is written again. */
  const pack = async (): Promise<void> => {
    const moves: { id: number; slot: number }[] = [];
    const packed = new Map<number, Slot>();
    let target = 0;
    let into = emptySlot();
    packed.set(0, into);
    const entry: SerializedEntry = { loc: '', xml: '', bytes: 0, nsBits: 0, hasNews: false, lastmod: undefined, lastmodEpoch: undefined };
    for await (const row of store.layout()) {
      if (!fits(into, row.bytes, row.nsBits, row.hasNews ? 1 : 0, 1)) {
        into = emptySlot();
        packed.set(++target, into);
      }
      entry.bytes = row.bytes;
      entry.nsBits = row.nsBits;
      entry.hasNews = row.hasNews;
      account(into, entry);
      if (row.slot !== target) {
        moves.push({ id: row.id, slot: target });
        dirty.add(row.slot);
        dirty.add(target);
      }
    }
    await store.move(moves);
    for (const [n, slot] of packed) {
      const before = slots.get(n);
      slot.name = before?.name;
      slot.bytes = before?.bytes ?? 0;
      slot.newestLastmod = before?.newestLastmod;
      slot.newestEpoch = before?.newestEpoch;
      slot.run = before?.run ?? start.run;
    }
    slots.clear();
    for (const [n, slot] of packed) if (slot.urls > 0) slots.set(n, slot);
  };

  const serialized: SerializedEntry = { loc: '', xml: '', bytes: 0, nsBits: 0, hasNews: false, lastmod: undefined, lastmodEpoch: undefined };
  const hash = new Uint32Array(2);
  const pending: Pending[] = [];

  const processBatch = async (): Promise<void> => {
    const batch = pending.splice(0);
    const stored: (StoredUrl | undefined)[] = maxId === 0 ? [] : await store.lookup(batch.map((p) => p.record.loc));
    const rows: UrlWrite[] = [];
    // New URLs of this batch, not yet written where a lookup finds them.
    const addedHere = maxId === 0 ? undefined : new Set<string>();
    for (let i = 0; i < batch.length; i++) {
      const { record, line, source } = batch[i] as Pending;
      const old = stored[i];
      // A URL met earlier in this run: one seen, one written by an earlier batch, one new in this batch (a fresh state's are dropped by the normalize stage).
      if ((old !== undefined && (old.id > maxId || wasSeen(old.id))) || (addedHere !== undefined && addedHere.size > 0 && addedHere.has(record.loc))) {
        const finding: Diagnostic = { rule: 'R25', level: 'warn', message: 'duplicate URL dropped; the first occurrence is kept', line, url: record.loc };
        report(finding);
        summary.duplicates++;
        summary.dropped++;
        options.onDropped?.(source, finding);
        continue;
      }
      // The content fingerprint: the source's own, else the entry as written after its loc, but for its lastmod.
      const ownLastmod = record.lastmod;
      const tail = serializeTail(record);
      const print = source.fingerprint;
      fingerprint(tail, hash, 0);
      // 53 bits, so it is exact as a JavaScript number and as an SQLite integer.
      const bareHash = (hash[0] as number) * 2 ** 21 + ((hash[1] as number) >>> 11);
      const alive = old !== undefined && old.goneSince === undefined;
      const contentChanged = !alive || (old.fingerprint !== print && !(reprintSources && old.fingerprint !== undefined && print !== undefined)) || (print === undefined && old.bare !== bareHash && !reprintEntries);
      // Content seen since the state began gets the time it was first seen so; the first run's content gets none.
      const changedAt = !contentChanged ? old?.changedAt : start.began === undefined ? undefined : time;
      let lastmod = ownLastmod;
      let lastmodEpoch = batch[i]?.lastmodEpoch;
      if (lastmod === undefined) {
        const at = changedAt ?? (source.path === undefined ? undefined : commitTimes?.get(source.path));
        if (at !== undefined) {
          lastmod = formatSeconds(at);
          lastmodEpoch = at * 1000;
        }
      }
      if (alive && old.fingerprint === print && old.bare === bareHash && old.lastmod === lastmod) {
        markSeen(old.id);
        counts.unchanged++;
        continue;
      }
      if (lastmod !== undefined) record.lastmod = lastmod;
      const afterLoc = lastmod === undefined ? tail : `<lastmod>${lastmod}</lastmod>${tail}`;
      const xml = `<url><loc>${escapeUri(record.loc)}</loc>${afterLoc}`;
      serialized.loc = record.loc;
      serialized.xml = xml;
      serialized.bytes = mayHaveNonAscii(record) ? utf8Length(xml) : xml.length;
      serialized.nsBits = namespacesOf(record);
      serialized.hasNews = record.news !== undefined;
      serialized.lastmod = lastmod;
      serialized.lastmodEpoch = lastmodEpoch;
      const row: UrlWrite = {
        id: 0, url: record.loc, fingerprint: print, bare: bareHash, xml: afterLoc, bytes: serialized.bytes, nsBits: serialized.nsBits, hasNews: serialized.hasNews,
        lastmod, lastmodEpoch, slot: 0, changedAt, addedAt: undefined, replaces: undefined, update: false, changed: alive && contentChanged, path: source.path,
      };
      if (alive) {
        // Changed in place when it still fits its file; else it moves to the end of the set.
        const slot = slots.get(old.slot ?? -1);
        if (slot !== undefined && fits(slot, serialized.bytes - old.bytes, serialized.nsBits, (serialized.hasNews ? 1 : 0) - (old.hasNews ? 1 : 0), 0)) {
          slot.body += serialized.bytes - old.bytes;
          slot.nsBits |= serialized.nsBits;
          slot.news += (serialized.hasNews ? 1 : 0) - (old.hasNews ? 1 : 0);
          // A new print of the same entry (a new fingerprint scheme) is kept in the state alone: the file's bytes would not change.
          if (old.bare !== bareHash || old.lastmod !== lastmod) dirty.add(old.slot as number);
          markSeen(old.id);
          row.id = old.id;
          row.slot = old.slot as number;
          row.update = true;
          rows.push(row);
          if (contentChanged) counts.changed++;
          else counts.unchanged++;
          continue;
        }
      }
      const appended = append(serialized);
      const placed = typeof appended === 'number' ? appended : await appended;
      if (placed === NO_FILE) {
        const finding: Diagnostic = { rule: 'R3', level: 'error', message: `record dropped: its ${serialized.bytes} bytes of XML cannot fit in a file of at most ${maxBytesPerFile} bytes`, line, url: record.loc };
        report(finding);
        summary.dropped++;
        options.onDropped?.(source, finding);
        continue;
      }
      if (alive) {
        const from = slots.get(old.slot ?? -1);
        if (from !== undefined) {
          from.urls--;
          from.body -= old.bytes;
          if (old.hasNews) from.news--;
          dirty.add(old.slot as number);
        }
        markSeen(old.id);
        if (contentChanged) counts.changed++;
        else counts.unchanged++;
      } else {
        row.addedAt = time;
        counts.added++;
        addedHere?.add(record.loc);
      }
      if (old !== undefined) row.replaces = old.id;
      row.id = nextId++;
      row.slot = placed;
      rows.push(row);
    }
    if (rows.length > 0) await store.write(rows);
  };

  const progress = (): void => options.onProgress?.({ records: summary.records, urls: files.urls, files: files.staged });
  // A state with URLs finds every repeat itself (a URL seen or written this run), so the stage's filter would be work done twice.
  const normalize = new NormalizeStage({ base, scope: scopeOf(base), scopeLevel: strict ? 'error' : 'warn', now: clock }, summary, report, progress, options.onDropped, maxId === 0);
  const take = ({ record, lastmodEpoch }: NormalizedEntry, line: number, source: SourceRecord): Promise<void> | undefined => {
    if (findings.failed) return undefined;
    pending.push({ record, lastmodEpoch, line, source });
    return pending.length >= BATCH ? processBatch() : undefined;
  };

  try {
    // A state run writes changed files only at its end: the output is claimed now, so another run of the set is refused at once, not after this one's work.
    await sink.open?.();
    await normalize.drain(items, take);
    if (!findings.failed) await processBatch();
    progress();
    findings.throwIfFailed();

    // URLs of the state this run did not see are gone; their files change. Unless a record was lost before its URL was known: it may be any of them.
    if (seenCount < start.alive && normalize.droppedUnknown > 0) {
      const unseen = start.alive - seenCount;
      report({
        rule: 'INPUT', level: 'warn',
        message: `${normalize.droppedUnknown.toLocaleString('en-US')} input record${normalize.droppedUnknown === 1 ? ' was' : 's were'} dropped before ${normalize.droppedUnknown === 1 ? 'its URL was' : 'their URLs were'} known, so none of the ${unseen.toLocaleString('en-US')} URL${unseen === 1 ? '' : 's'} of the state not seen in this run is counted as removed: ${unseen === 1 ? 'it stays' : 'they stay'} listed until a run reads every record`,
      });
    } else if (seenCount < start.alive) {
      const gone: number[] = [];
      for await (const batch of store.alive(maxId)) for (const { id, slot, bytes, hasNews } of batch) {
        if (wasSeen(id)) continue;
        gone.push(id);
        const from = slots.get(slot);
        if (from !== undefined) {
          from.urls--;
          from.body -= bytes;
          if (hasNews) from.news--;
          dirty.add(slot);
        }
      }
      await store.markGone(gone, time, start.previousRun);
      counts.removed = gone.length;
    }

    if (compact) await pack();

    let urls = 0;
    for (const slot of slots.values()) urls += slot.urls;
    summary.urls = urls;
    if (urls === 0) {
      throw new SitemapError('SM_NOTHING_TO_WRITE', `no valid URL to write (${summary.records} record${summary.records === 1 ? '' : 's'} read); nothing was published`, { summary });
    }

    // The state's files in slot order: written again from the state when they changed, else kept.
    const fromState = compact ? Math.max(nextSlot, ...[...slots.keys()].map((n) => n + 1)) : firstNewSlot;
    for (let n = 0; n < fromState; n++) {
      const slot = slots.get(n);
      if (slot === undefined) continue;
      if (slot.urls === 0) {
        slots.delete(n);
        continue;
      }
      const part: SitemapPart = { urls: slot.urls, bytes: slot.bytes };
      if (slot.newestLastmod !== undefined) part.newestLastmod = slot.newestLastmod;
      const named = slot.name === `${filename}-${n + 1}${extension}` || slot.name === `${filename}-${n + 1}b${extension}`;
      if (!dirty.has(n) && sameFormat && named && slot.name !== undefined && (await files.keep(n, slot.name, part))) {
        counts.filesKept++;
        continue;
      }
      slot.newestEpoch = undefined;
      slot.newestLastmod = undefined;
      slot.run = start.run;
      files.open(n);
      for await (const batch of store.entries(n)) for (const entry of batch) {
        serialized.loc = entry.url;
        serialized.xml = `<url><loc>${escapeUri(entry.url)}</loc>${entry.xml}`;
        serialized.bytes = entry.bytes;
        serialized.nsBits = entry.nsBits;
        serialized.hasNews = entry.hasNews;
        serialized.lastmod = entry.lastmod;
        serialized.lastmodEpoch = entry.lastmodEpoch;
        if (!files.tryAdd(n, serialized)) {
          throw new SitemapError('SM_BAD_OPTION', `file ${n + 1} of state "${store.label}" holds more than --max-urls / --max-bytes now allow (${slot.urls} URLs, ${slot.body} bytes of entries); run with --compact to pack its URLs into files of the new size`);
        }
        newest(slot, entry.lastmod, entry.lastmodEpoch);
        const wait = files.takeWait();
        if (wait !== undefined) await wait;
      }
      await files.close(n);
    }
    summary.files = await files.finish();

    const fileStates: FileState[] = [];
    // A file written again from the state with the bytes it had (a new base URL moves only the index) was left as it was: kept, not written.
    const unchanged = new Set(summary.files.filter((f) => f.unchanged === true).map((f) => f.name));
    for (const { slot: n, name, part } of files.published) {
      const slot = slots.get(n);
      if (slot === undefined) continue;
      if (slot.run === start.run) {
        if (unchanged.has(name)) counts.filesKept++;
        else counts.filesWritten++;
      }
      fileStates.push({ slot: n, name, urls: part.urls, body: slot.body, bytes: part.bytes, news: slot.news, nsBits: slot.nsBits, newestLastmod: slot.newestLastmod, newestEpoch: slot.newestEpoch, run: slot.run });
    }
    await store.commit(fileStates, format, scheme);
    await sink.commit(summary.files.map((f) => f.name));
    await store.published();
    return summary;
  } catch (error) {
    await files.settle();
    await sink.abort();
    // Before its commit the run's state changes are rolled back; after it, the next run finds the manifest without this run's token and undoes them.
    await store.abort();
    throw error;
  }
}
