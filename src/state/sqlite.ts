/**
 * The embedded state store: one SQLite file (`node:sqlite`), WAL, prepared statements, a run's writes
 * in one transaction. A run commits its rows with what undoes them (the earlier rows it replaced, the
 * id floor above which its rows are new, the earlier files and meta) before its files are published,
 * and clears that only once they are: a run killed in between is undone by the next one unless the
 * published manifest names its token.
 */
import { stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import { kill } from 'node:process';
import type * as NodeSqlite from 'node:sqlite';
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import { SitemapError } from '../errors.ts';
import { makeFolders } from '../publish/folders.ts';
import { fingerprint } from '../normalize/fingerprint.ts';
import { formatSeconds } from './time.ts';
import type { BeginOptions, ChangeFeed, ChangedUrl, FileState, RunOwner, RunStart, Seconds, StateStore, StoredEntry, StoredUrl, UrlWrite } from './store.ts';

/** The schema this version writes and reads; a state of a newer one is refused rather than misread. */
export const SCHEMA_VERSION = 1;
/** Rows a multi-row INSERT takes at once: one call into SQLite per batch rather than per row. */
const INSERT_BATCH = 32;
/** Rows read ahead at once in id order; each read is a statement of its own, so the run's writes never change a table under an open one. */
const READ_AHEAD = 2048;
/**
 * A run holds SQLite's write lock from its start until its files are published, so a lock row whose
 * run holds none is left by a run that stopped, on whatever host; but for this many seconds after
 * the row's beat, the moment between a commit and the next `BEGIN`, it is still taken as held.
 */
const LOCK_GRACE = 60;

const URL_COLUMNS = 'id, url, uh, fingerprint, bare, xml, bytes, ns, news, lastmod, lastmod_epoch, slot, first_seen, changed_at, added_at, added_run, changed_run, last_seen, gone_since, gone_run, path';
const FILE_COLUMNS = 'slot, name, urls, body, bytes, news, ns, newest_lastmod, newest_epoch, run';

const SCHEMA = `
CREATE TABLE sitemapkit_state (version INTEGER NOT NULL);
CREATE TABLE meta (key TEXT PRIMARY KEY, value ANY) WITHOUT ROWID;
CREATE TABLE urls (
  id INTEGER PRIMARY KEY, url TEXT NOT NULL, uh INTEGER NOT NULL, fingerprint TEXT, bare INTEGER NOT NULL, xml TEXT NOT NULL, bytes INTEGER NOT NULL,
  ns INTEGER NOT NULL, news INTEGER NOT NULL, lastmod TEXT, lastmod_epoch REAL, slot INTEGER,
  first_seen INTEGER NOT NULL, changed_at INTEGER, added_at INTEGER NOT NULL, added_run INTEGER NOT NULL,
  changed_run INTEGER, last_seen INTEGER, gone_since INTEGER, gone_run INTEGER, path TEXT);
CREATE TABLE files (
  slot INTEGER PRIMARY KEY, name TEXT NOT NULL, urls INTEGER NOT NULL, body INTEGER NOT NULL, bytes INTEGER NOT NULL,
  news INTEGER NOT NULL, ns INTEGER NOT NULL, newest_lastmod TEXT, newest_epoch REAL, run INTEGER NOT NULL);
CREATE TABLE runs (run INTEGER PRIMARY KEY, token TEXT NOT NULL, started INTEGER NOT NULL, pid INTEGER NOT NULL, host TEXT NOT NULL);
CREATE TABLE lock (id INTEGER PRIMARY KEY CHECK (id = 1), pid INTEGER NOT NULL, host TEXT NOT NULL, started INTEGER NOT NULL, beat INTEGER NOT NULL DEFAULT 0);
CREATE TABLE undo_urls AS SELECT * FROM urls WHERE 0;
CREATE UNIQUE INDEX undo_urls_id ON undo_urls (id);
CREATE TABLE undo_files AS SELECT * FROM files WHERE 0;
CREATE TABLE undo_meta AS SELECT * FROM meta WHERE 0;
`;
/**
 * Dropped while a fresh state takes its first rows, and made by the first run that needs each (see
 * `lookup`, `entries`): a sorted build beats a million inserts into a B-tree, and a run whose URLs all
 * come in id order never searches by URL. URLs are found by a 53-bit hash (`uh`, the URL compared
 * after): an index of integers builds in under half the time of one of the URLs, at a fraction of the size.
 */
const URL_INDEX = 'CREATE INDEX IF NOT EXISTS urls_url ON urls (uh);';
/** A file's URLs in file order: what writing a changed file again and `--compact` read by. */
const SLOT_INDEX = 'CREATE INDEX IF NOT EXISTS urls_slot ON urls (slot, id) WHERE slot IS NOT NULL;';
const INDEXES = URL_INDEX + SLOT_INDEX;

type Sqlite = typeof NodeSqlite;
let loaded: Promise<Sqlite> | undefined;

/**
 * `node:sqlite`, loaded once. Node 22 prints an ExperimentalWarning when it loads; that warning alone
 * is held back, and only while this module loads, so no other warning is lost.
 */
function loadSqlite(): Promise<Sqlite> {
  loaded ??= (async () => {
    const emit = process.emitWarning;
    process.emitWarning = ((warning: string | Error, ...rest: unknown[]) => {
      const text = typeof warning === 'string' ? warning : warning.message;
      if (/sqlite/i.test(text)) return;
      (emit as (...args: unknown[]) => void).call(process, warning, ...rest);
    }) as typeof process.emitWarning;
    try {
      return await import('node:sqlite');
    } finally {
      process.emitWarning = emit;
    }
  })();
  return loaded;
}

/** What a lookup reads of a row, in this order (rows come back as arrays: no object per row). */
const LOOKUP_COLUMNS = 'id, url, fingerprint, bare, lastmod, changed_at, slot, gone_since, bytes, news';
type LookupRow = [id: number, url: string, fingerprint: string | null, bare: number, lastmod: string | null, changedAt: number | null, slot: number | null, goneSince: number | null, bytes: number, news: number];

interface FileRow {
  slot: number;
  name: string;
  urls: number;
  body: number;
  bytes: number;
  news: number;
  ns: number;
  newest_lastmod: string | null;
  newest_epoch: number | null;
  run: number;
}

/** Opens (creating when missing) the state file at `path`. */
export async function openSqliteState(path: string): Promise<SqliteStateStore> {
  const { DatabaseSync } = await loadSqlite();
  try {
    const info = await stat(path);
    if (!info.isFile()) throw new SitemapError('SM_STATE_UNREADABLE', `state "${path}" is not a file`);
  } catch (error) {
    if (error instanceof SitemapError) throw error;
    const code = (error as { code?: unknown }).code;
    if (code === 'ENOTDIR') throw new SitemapError('SM_STATE_UNREADABLE', `cannot open state "${path}": a file is in the way where a folder is needed`, { cause: error });
    if (code !== 'ENOENT') throw new SitemapError('SM_STATE_UNREADABLE', `cannot open state "${path}": ${(error as Error).message}`, { cause: error });
    const folder = dirname(path);
    try {
      // A missing folder is made, as --out's is (`--state .sitemapkit/state.db` in a fresh checkout).
      await makeFolders(folder, () => {}, (parent, level, cause) =>
        new SitemapError('SM_STATE_UNREADABLE', `cannot create state "${path}": the file system at "${parent}" does not allow creating the folder "${level}"`, { cause }));
      if ((await stat(folder)).isDirectory()) return openDatabase(DatabaseSync, path);
    } catch (cause) {
      if (cause instanceof SitemapError) throw cause;
      throw new SitemapError('SM_STATE_UNREADABLE', `cannot create state "${path}": ${(cause as Error).message}`, { cause });
    }
    throw new SitemapError('SM_STATE_UNREADABLE', `cannot create state "${path}": "${folder}" is not a folder`);
  }
  return openDatabase(DatabaseSync, path);
}

function openDatabase(Database: Sqlite['DatabaseSync'], path: string): SqliteStateStore {
  let db: DatabaseSync;
  try {
    db = new Database(path, { timeout: 0 });
  } catch (cause) {
    throw new SitemapError('SM_STATE_UNREADABLE', `cannot open state "${path}": ${sqliteReason(cause)}`, { cause });
  }
  try {
    return new SqliteStateStore(db, path);
  } catch (error) {
    db.close();
    throw error;
  }
}

export class SqliteStateStore implements StateStore {
  readonly label: string;
  readonly #db: DatabaseSync;
  readonly #statements = new Map<string, StatementSync>();
  #run = 0;
  #token = '';
  #now: Seconds = 0;
  /** `performance.now()` when the run began: its clock plus the time since is the time of a later beat. */
  #begunAt = 0;
  #inRun = false;
  #holdsLock = false;
  /** The URL index is known to exist (it is made at the first lookup that needs it). */
  #urlIndex = false;
  /** The rows read ahead in id order (see `lookup`): those after `after`, up to `end`. */
  #ahead: { rows: LookupRow[]; at: number; after: number; end: number } = { rows: [], at: 0, after: 0, end: 0 };

  constructor(db: DatabaseSync, path: string) {
    this.#db = db;
    this.label = path;
    this.#guard(() => {
      db.exec('PRAGMA busy_timeout = 0');
      const version = this.#schemaVersion();
      if (version === undefined) {
        this.#journal('WAL');
        db.exec('BEGIN IMMEDIATE');
        try {
          db.exec(SCHEMA + INDEXES);
          db.prepare('INSERT INTO sitemapkit_state (version) VALUES (?)').run(SCHEMA_VERSION);
          db.exec('COMMIT');
        } catch (error) {
          db.exec('ROLLBACK');
          throw error;
        }
      } else if (version > SCHEMA_VERSION) {
        throw new SitemapError('SM_STATE_UNREADABLE', `state "${path}" was written by a newer sitemapkit (state schema ${version}; this version reads schema ${SCHEMA_VERSION}): upgrade sitemapkit`);
      }
      // A run holding the state in a rollback journal (its first) keeps it so until it commits.
      this.#journal('WAL');
      db.exec('PRAGMA cache_size = -32768');
      this.#addBeat();
    });
  }

  /** States made before the lock row had its beat get the column (a run holding the state has added it already). */
  #addBeat(): void {
    const columns = this.#db.prepare('PRAGMA table_info(lock)').all() as { name: string }[];
    if (columns.some((c) => c.name === 'beat')) return;
    try {
      this.#db.exec('ALTER TABLE lock ADD COLUMN beat INTEGER NOT NULL DEFAULT 0');
    } catch (error) {
      if (!isBusy(error)) throw error;
    }
  }

  /** The schema version, or undefined for an empty database; an SQLite file with other tables is no state. */
  #schemaVersion(): number | undefined {
    const tables = this.#db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[];
    if (tables.length === 0) return undefined;
    if (!tables.some((t) => t.name === 'sitemapkit_state')) {
      throw new SitemapError('SM_STATE_UNREADABLE', `"${this.label}" is an SQLite database but not a sitemapkit state (it has no sitemapkit_state table); give another --state file`);
    }
    const row = this.#db.prepare('SELECT version FROM sitemapkit_state').get() as { version?: unknown } | undefined;
    if (typeof row?.version !== 'number' || !Number.isInteger(row.version) || row.version < 1) {
      throw new SitemapError('SM_STATE_UNREADABLE', `"${this.label}" is not a usable sitemapkit state: its schema version is missing or malformed`);
    }
    return row.version;
  }

  async begin({ owner, now, wasPublished }: BeginOptions): Promise<RunStart> {
    const db = this.#db;
    this.#now = now;
    this.#begunAt = performance.now();
    const tookOver = this.#takeLock(owner, now);
    let recovered: RunStart['recovered'];
    try {
      const pending = this.#meta('pending_token');
      if (typeof pending === 'string') {
        const kept = await wasPublished(pending);
        this.#guard(() => {
          db.exec('BEGIN IMMEDIATE');
          if (!kept) this.#undo();
          this.#clearUndo();
          db.exec('COMMIT');
        });
        recovered = { token: pending, outcome: kept ? 'kept' : 'undone' };
      }
      return this.#guard(() => {
        // A state without URLs takes its first run in a rollback journal: SQLite journals no page the file did not have, so each row is written once, where WAL writes it to the log and again at the checkpoint.
        if (db.prepare('SELECT 1 FROM urls LIMIT 1').get() === undefined) this.#journal('DELETE');
        db.exec('BEGIN IMMEDIATE');
        this.#inRun = true;
        const lastRun = (db.prepare('SELECT MAX(run) AS run FROM runs').get() as { run: number | null }).run ?? 0;
        const maxId = (db.prepare('SELECT MAX(id) AS id FROM urls').get() as { id: number | null }).id ?? 0;
        this.#run = lastRun + 1;
        this.#ahead = { rows: [], at: 0, after: 0, end: maxId };
        this.#token = `${now.toString(36)}-${owner.pid.toString(36)}-${Math.random().toString(36).slice(2, 10)}`;
        // What the run may change, saved so the next run can undo it if this one dies before publishing.
        db.exec('DELETE FROM undo_files; DELETE FROM undo_meta; DELETE FROM undo_urls');
        db.exec('INSERT INTO undo_files SELECT * FROM files; INSERT INTO undo_meta SELECT * FROM meta');
        this.#setMeta('id_floor', maxId);
        db.prepare('INSERT INTO runs (run, token, started, pid, host) VALUES (?, ?, ?, ?, ?)').run(this.#run, this.#token, now, owner.pid, owner.host);
        if (maxId === 0) {
          this.#urlIndex = false;
          db.exec('DROP INDEX IF EXISTS urls_url; DROP INDEX IF EXISTS urls_slot');
        }
        const files = (db.prepare(`SELECT ${FILE_COLUMNS} FROM files ORDER BY slot`).all() as unknown as FileRow[]).map(fileOf);
        // A URL that is not gone is in one file, which counts it: no row is read.
        const alive = (db.prepare('SELECT COALESCE(SUM(urls), 0) AS n FROM files').get() as { n: number }).n;
        const began = this.#meta('began');
        const previous = this.#meta('last_run_time');
        const format = this.#meta('format');
        const scheme = this.#meta('scheme');
        const start: RunStart = {
          run: this.#run, token: this.#token, began: typeof began === 'number' ? began : undefined, previousRun: typeof previous === 'number' ? previous : undefined, files, alive, maxId,
          format: typeof format === 'string' ? format : undefined, scheme: typeof scheme === 'string' ? scheme : undefined,
        };
        if (recovered !== undefined) start.recovered = recovered;
        if (tookOver !== undefined) start.tookOver = tookOver;
        return start;
      });
    } catch (error) {
      await this.abort();
      throw error;
    }
  }

  /**
   * Takes the lock row, or refuses naming the run that holds it. A row whose run holds no write lock
   * and has not beaten for LOCK_GRACE seconds (or whose process on this host is gone) was left by a
   * run that stopped: it is taken over, and returned so the summary can say so.
   */
  #takeLock(owner: RunOwner, now: Seconds): RunOwner | undefined {
    const db = this.#db;
    return this.#guard(() => {
      try {
        db.exec('BEGIN IMMEDIATE');
      } catch (error) {
        if (!isBusy(error)) throw error;
        throw this.#busy(db.prepare('SELECT pid, host, started FROM lock').get() as RunOwner | undefined);
      }
      try {
        const row = db.prepare('SELECT pid, host, started, beat FROM lock').get() as (RunOwner & { beat: number }) | undefined;
        let left: RunOwner | undefined;
        if (row !== undefined) {
          const { beat, ...holder } = row;
          if (beat > now - LOCK_GRACE && isAlive(holder, owner.host)) throw this.#busy(holder);
          left = holder;
        }
        db.prepare('INSERT OR REPLACE INTO lock (id, pid, host, started, beat) VALUES (1, ?, ?, ?, ?)').run(owner.pid, owner.host, owner.started, now);
        db.exec('COMMIT');
        this.#holdsLock = true;
        return left;
      } catch (error) {
        db.exec('ROLLBACK');
        throw error;
      }
    });
  }

  /** Takes the write lock again right after a commit, to hold it while the files are published; waits a moment for a run that looked in meanwhile. */
  #relock(): void {
    const db = this.#db;
    db.exec('PRAGMA busy_timeout = 5000');
    try {
      db.exec('BEGIN IMMEDIATE');
    } catch (error) {
      if (!isBusy(error)) throw error;
    } finally {
      db.exec('PRAGMA busy_timeout = 0');
    }
  }

  #busy(holder: RunOwner | undefined): SitemapError {
    const who = holder === undefined ? 'another run' : `another run (process ${holder.pid} on ${holder.host}, started ${formatSeconds(holder.started)})`;
    return new SitemapError('SM_STATE_BUSY', `state "${this.label}" is in use by ${who}; runs on one state go one at a time`);
  }

  /**
   * Rows are read in id order as the input goes (a feed comes again mostly in the order it came
   * first, and ids follow that order), a few thousand at a time: a URL that is the next row costs no
   * index search. Any other is searched by its URL, and a row found further on moves the reading there.
   */
  async lookup(urls: readonly string[]): Promise<(StoredUrl | undefined)[]> {
    return this.#guard(() => {
      const results: (StoredUrl | undefined)[] = [];
      for (const url of urls) {
        const next = this.#peek();
        if (next !== undefined && next[1] === url) {
          this.#ahead.at++;
          results.push(storedOf(next));
          continue;
        }
        if (!this.#urlIndex) {
          this.#db.exec(URL_INDEX);
          this.#urlIndex = true;
        }
        const byUrl = this.#statement('lookup', () => `SELECT ${LOOKUP_COLUMNS} FROM urls WHERE uh = ? ORDER BY id`);
        byUrl.setReturnArrays(true);
        const row = (byUrl.all(urlHash(url)) as unknown as LookupRow[]).find((candidate) => candidate[1] === url);
        if (row !== undefined && row[0] <= this.#ahead.end && next !== undefined && row[0] > next[0]) this.#skipTo(row[0]);
        results.push(row === undefined ? undefined : storedOf(row));
      }
      return results;
    });
  }

  /** Moves the reading past the row `id`: within the rows read when it is among them, else to a read starting after it. */
  #skipTo(id: number): void {
    const ahead = this.#ahead;
    const last = ahead.rows[ahead.rows.length - 1];
    if (last !== undefined && id <= last[0]) {
      let low = ahead.at;
      let high = ahead.rows.length - 1;
      while (low < high) {
        const middle = (low + high) >> 1;
        if ((ahead.rows[middle] as LookupRow)[0] < id) low = middle + 1;
        else high = middle;
      }
      ahead.at = low + 1;
      return;
    }
    ahead.after = id;
    ahead.rows = [];
    ahead.at = 0;
  }

  /** The next row in id order, up to the id the run started from. */
  #peek(): LookupRow | undefined {
    const ahead = this.#ahead;
    if (ahead.at < ahead.rows.length) return ahead.rows[ahead.at];
    if (ahead.after >= ahead.end) return undefined;
    const statement = this.#statement('ahead', () => `SELECT ${LOOKUP_COLUMNS} FROM urls WHERE id > ? AND id <= ? ORDER BY id LIMIT ${READ_AHEAD}`);
    statement.setReturnArrays(true);
    ahead.rows = statement.all(ahead.after, ahead.end) as unknown as LookupRow[];
    ahead.at = 0;
    const last = ahead.rows[ahead.rows.length - 1];
    ahead.after = last === undefined ? ahead.end : last[0];
    return ahead.rows[0];
  }

  /** Takes each row as it comes and keeps no row object past its step: the worker hands one object filled again for each (`eachRow`). */
  async write(rows: Iterable<UrlWrite>): Promise<void> {
    this.#guard(() => {
      const run = this.#run;
      const now = this.#now;
      // New URLs go in INSERT_BATCH at a time, their values copied out at once; the last few one by one.
      const values: (string | number | null)[] = [];
      let held = 0;
      for (const row of rows) {
        if (row.update === true) {
          this.#saveUndo(row.id);
          this.#statement('update', () => 'UPDATE urls SET fingerprint = ?, bare = ?, xml = ?, bytes = ?, ns = ?, news = ?, lastmod = ?, lastmod_epoch = ?, slot = ?, changed_at = ?, changed_run = COALESCE(?, changed_run), path = ? WHERE id = ?').run(
            row.fingerprint ?? null, row.bare, row.xml, row.bytes, row.nsBits, row.hasNews ? 1 : 0, row.lastmod ?? null, row.lastmodEpoch ?? null, row.slot, row.changedAt ?? null, row.changed === true ? run : null, row.path ?? null, row.id,
          );
          continue;
        }
        if (row.replaces !== undefined) {
          this.#saveUndo(row.replaces);
          const old = this.#statement('firstSeen', () => 'SELECT first_seen, added_at, added_run, changed_run FROM urls WHERE id = ?').get(row.replaces) as { first_seen: number; added_at: number; added_run: number; changed_run: number | null } | undefined;
          this.#statement('delete', () => 'DELETE FROM urls WHERE id = ?').run(row.replaces);
          this.#insertOne(row, old);
          continue;
        }
        if (row.changed === true || row.addedAt === undefined) {
          this.#insertOne(row, undefined);
          continue;
        }
        pushNewValues(values, row, now);
        if (++held === INSERT_BATCH) {
          this.#insertNew(held).run(...values);
          values.length = 0;
          held = 0;
        }
      }
      if (held > 0) this.#insertNew(held).run(...values);
    });
  }

  /** The INSERT of `rows` new URLs: their run columns are the run's own and their last-seen and gone columns empty, written into the statement rather than bound for each row. */
  #insertNew(rows: number): StatementSync {
    const run = this.#run;
    const now = this.#now;
    return this.#statement(`insertNew ${rows} ${run} ${now}`, () => `INSERT INTO urls (${NEW_COLUMNS}, first_seen, added_run) VALUES ${Array.from({ length: rows }, () => `(${placeholders(NEW_COLUMN_COUNT)}, ${now}, ${run})`).join(', ')}`);
  }

  #insertOne(row: UrlWrite, old: { first_seen: number; added_at: number; added_run: number; changed_run: number | null } | undefined): void {
    const values: (string | number | null)[] = [];
    pushValues(values, row, this.#run, this.#now, old);
    this.#statement('insertOne', () => `INSERT INTO urls (${URL_COLUMNS}) VALUES (${placeholders(21)})`).run(...values);
  }

  /** Keeps a row's state before the run first changes it (later changes in the run keep the first copy). */
  #saveUndo(id: number): void {
    this.#statement('saveUndo', () => 'INSERT OR IGNORE INTO undo_urls SELECT * FROM urls WHERE id = ? AND id <= (SELECT value FROM meta WHERE key = \'id_floor\')').run(id);
  }

  async *alive(maxId: number): AsyncIterable<{ id: number; slot: number; bytes: number; hasNews: boolean }[]> {
    const statement = this.#statement('alive', () => `SELECT id, slot, bytes, news FROM urls WHERE gone_since IS NULL AND id > ? AND id <= ? ORDER BY id LIMIT ${READ_AHEAD}`);
    statement.setReturnArrays(true);
    for (let after = 0; ; ) {
      const rows = this.#guard(() => statement.all(after, maxId) as unknown as [number, number, number, number][]);
      if (rows.length === 0) return;
      after = (rows[rows.length - 1] as [number, number, number, number])[0];
      yield rows.map(([id, slot, bytes, news]) => ({ id, slot, bytes, hasNews: news === 1 }));
    }
  }

  async markGone(ids: readonly number[], now: Seconds, lastSeen: Seconds | undefined): Promise<void> {
    this.#guard(() => {
      const gone = this.#statement('gone', () => 'UPDATE urls SET gone_since = ?, gone_run = ?, last_seen = ?, slot = NULL WHERE id = ?');
      for (const id of ids) {
        this.#saveUndo(id);
        gone.run(now, this.#run, lastSeen ?? null, id);
      }
    });
  }

  async *layout(): AsyncIterable<{ id: number; slot: number; bytes: number; nsBits: number; hasNews: boolean }> {
    // Read whole before any move: the moves change the index this reads by.
    const rows = this.#guard(() => {
      this.#db.exec(SLOT_INDEX);
      const statement = this.#db.prepare('SELECT id, slot, bytes, ns, news FROM urls WHERE slot IS NOT NULL ORDER BY slot, id');
      statement.setReturnArrays(true);
      return statement.all() as unknown as [number, number, number, number, number][];
    });
    for (const [id, slot, bytes, nsBits, news] of rows) yield { id, slot, bytes, nsBits, hasNews: news === 1 };
  }

  async move(moves: readonly { id: number; slot: number }[]): Promise<void> {
    this.#guard(() => {
      const move = this.#statement('move', () => 'UPDATE urls SET slot = ? WHERE id = ?');
      for (const { id, slot } of moves) {
        this.#saveUndo(id);
        move.run(slot, id);
      }
    });
  }

  async *entries(slot: number): AsyncIterable<StoredEntry[]> {
    this.#guard(() => this.#db.exec(SLOT_INDEX));
    const statement = this.#statement('entries', () => `SELECT id, url, xml, bytes, ns, news, lastmod, lastmod_epoch FROM urls WHERE slot = ? AND id > ? ORDER BY id LIMIT ${READ_AHEAD}`);
    statement.setReturnArrays(true);
    for (let after = 0; ; ) {
      const rows = this.#guard(() => statement.all(slot, after) as unknown as [number, string, string, number, number, number, string | null, number | null][]);
      if (rows.length === 0) return;
      after = (rows[rows.length - 1] as [number, ...unknown[]])[0];
      yield rows.map(([, url, xml, bytes, nsBits, news, lastmod, lastmodEpoch]) => ({ url, xml, bytes, nsBits, hasNews: news === 1, lastmod: lastmod ?? undefined, lastmodEpoch: lastmodEpoch ?? undefined }));
    }
  }

  async commit(files: readonly FileState[], format: string, scheme: string): Promise<void> {
    const db = this.#db;
    this.#guard(() => {
      db.exec('DELETE FROM files');
      const insert = db.prepare(`INSERT INTO files (${FILE_COLUMNS}) VALUES (${placeholders(10)})`);
      for (const f of files) insert.run(f.slot, f.name, f.urls, f.body, f.bytes, f.news, f.nsBits, f.newestLastmod ?? null, f.newestEpoch ?? null, f.run);
      if (this.#meta('began') === undefined) this.#setMeta('began', this.#now);
      this.#setMeta('last_run_time', this.#now);
      this.#setMeta('format', format);
      this.#setMeta('scheme', scheme);
      this.#setMeta('pending_token', this.#token);
      // A fresh state commits without its indexes: each is built by the first run that needs it (the URL one at a URL not found in id order, the slot one when a file is read back), once.
      // The run's clock moved on by the time it took: the beat is when this commit happens.
      db.prepare('UPDATE lock SET beat = ?').run(this.#now + Math.floor((performance.now() - this.#begunAt) / 1000));
      db.exec('COMMIT');
      this.#inRun = false;
      this.#journal('WAL');
      this.#relock();
    });
  }

  async published(): Promise<void> {
    const db = this.#db;
    this.#guard(() => {
      if (!db.isTransaction) this.#relock();
      this.#clearUndo();
      db.exec('DELETE FROM lock');
      db.exec('COMMIT');
      this.#holdsLock = false;
    });
    // The undo rows go from the WAL into the file now, not in the next run.
    this.#guard(() => db.exec('PRAGMA wal_checkpoint(PASSIVE)'));
  }

  async abort(): Promise<void> {
    const db = this.#db;
    if (this.#inRun) {
      this.#inRun = false;
      if (db.isTransaction) db.exec('ROLLBACK');
      this.#guard(() => this.#journal('WAL'));
    }
    if (this.#holdsLock) {
      this.#holdsLock = false;
      this.#guard(() => {
        // The write lock held while publishing (see `commit`): nothing in it to keep.
        if (db.isTransaction) db.exec('ROLLBACK');
        db.exec('DELETE FROM lock');
      });
    }
  }

  async changes(since?: Seconds): Promise<ChangeFeed> {
    return this.#guard(() => {
      const pending = this.#meta('pending_token');
      if (typeof pending === 'string') {
        throw new SitemapError('SM_STATE_BUSY', `the last run on state "${this.label}" has not finished publishing (it is running, or was interrupted); run build again with this state before listing changes`);
      }
      const db = this.#db;
      const list = (sql: string, ...args: number[]): ChangedUrl[] =>
        (db.prepare(sql).all(...args) as { url: string; time: number }[]).map(({ url, time }) => ({ url, time: formatSeconds(time) }));
      if (since === undefined) {
        const run = (db.prepare('SELECT MAX(run) AS run FROM runs').get() as { run: number | null }).run ?? 0;
        return {
          added: list('SELECT url, added_at AS time FROM urls WHERE added_run = ? AND gone_since IS NULL ORDER BY url', run),
          changed: list('SELECT url, changed_at AS time FROM urls WHERE changed_run = ? AND added_run <> ? AND gone_since IS NULL ORDER BY url', run, run),
          removed: list('SELECT url, gone_since AS time FROM urls WHERE gone_run = ? ORDER BY url', run),
        };
      }
      return {
        added: list('SELECT url, added_at AS time FROM urls WHERE added_at >= ? AND gone_since IS NULL ORDER BY url', since),
        changed: list('SELECT url, changed_at AS time FROM urls WHERE changed_at >= ? AND added_at < ? AND gone_since IS NULL ORDER BY url', since, since),
        removed: list('SELECT url, gone_since AS time FROM urls WHERE gone_since >= ? ORDER BY url', since),
      };
    });
  }

  /** Whether the state holds no URL yet (gone ones count): its first run only inserts. */
  isEmpty(): boolean {
    return this.#guard(() => this.#db.prepare('SELECT 1 FROM urls LIMIT 1').get() === undefined);
  }

  close(): void {
    if (this.#db.isOpen) this.#db.close();
  }

  /** Puts back what the interrupted run changed: its new rows go, the rows it replaced, the files and the meta come back. */
  #undo(): void {
    const db = this.#db;
    const floor = this.#meta('id_floor');
    if (typeof floor === 'number') db.prepare('DELETE FROM urls WHERE id > ?').run(floor);
    db.exec('INSERT OR REPLACE INTO urls SELECT * FROM undo_urls');
    db.exec('DELETE FROM files; INSERT INTO files SELECT * FROM undo_files');
    const run = (db.prepare("SELECT value FROM meta WHERE key = 'pending_token'").get() as { value: string } | undefined)?.value;
    if (run !== undefined) db.prepare('DELETE FROM runs WHERE token = ?').run(run);
    db.exec('DELETE FROM meta; INSERT INTO meta SELECT * FROM undo_meta');
    db.exec(INDEXES);
  }

  #clearUndo(): void {
    this.#db.exec("DELETE FROM undo_urls; DELETE FROM undo_files; DELETE FROM undo_meta; DELETE FROM meta WHERE key IN ('pending_token', 'id_floor')");
  }

  /** Sets the journal mode (WAL between runs, so readers never wait); another connection open on the state leaves it as it is, which is as safe. */
  #journal(mode: 'WAL' | 'DELETE'): void {
    const db = this.#db;
    try {
      db.exec(`PRAGMA journal_mode = ${mode}`);
      // A rollback journal is synced in full: the power-safe setting for it; WAL is safe with NORMAL.
      db.exec(`PRAGMA synchronous = ${mode === 'WAL' ? 'NORMAL' : 'FULL'}`);
    } catch (error) {
      if (!isBusy(error)) throw error;
    }
  }

  #meta(key: string): unknown {
    return (this.#statement('meta', () => 'SELECT value FROM meta WHERE key = ?').get(key) as { value: unknown } | undefined)?.value;
  }

  #setMeta(key: string, value: string | number): void {
    this.#statement('setMeta', () => 'INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)').run(key, value);
  }

  #statement(key: string, sql: () => string): StatementSync {
    let statement = this.#statements.get(key);
    if (statement === undefined) {
      statement = this.#db.prepare(sql());
      this.#statements.set(key, statement);
    }
    return statement;
  }

  /** SQLite's failures as one sentence naming the state file. */
  #guard<T>(work: () => T): T {
    try {
      return work();
    } catch (error) {
      if (error instanceof SitemapError) throw error;
      // Locked past the lock row (another run writing its first rows, which keeps readers out a moment).
      if (isBusy(error)) throw this.#busy(undefined);
      throw new SitemapError('SM_STATE_UNREADABLE', `cannot use state "${this.label}": ${sqliteReason(error)}`, { cause: error });
    }
  }
}

function pushValues(values: (string | number | null)[], row: UrlWrite, run: number, now: Seconds, old: { first_seen: number; added_at: number; added_run: number; changed_run: number | null } | undefined): void {
  const added = row.addedAt !== undefined;
  values.push(
    row.id, row.url, urlHash(row.url), row.fingerprint ?? null, row.bare, row.xml, row.bytes, row.nsBits, row.hasNews ? 1 : 0, row.lastmod ?? null, row.lastmodEpoch ?? null, row.slot,
    old?.first_seen ?? now, row.changedAt ?? null, added ? (row.addedAt as number) : (old?.added_at ?? now), added ? run : (old?.added_run ?? run),
    row.changed === true ? run : (old?.changed_run ?? null), null, null, null, row.path ?? null,
  );
}

/** The columns of a new URL that vary from row to row (see `write`). */
const NEW_COLUMNS = 'id, url, uh, fingerprint, bare, xml, bytes, ns, news, lastmod, lastmod_epoch, slot, changed_at, added_at, path';
const NEW_COLUMN_COUNT = 15;

function pushNewValues(values: (string | number | null)[], row: UrlWrite, now: Seconds): void {
  values.push(
    row.id, row.url, urlHash(row.url), row.fingerprint ?? null, row.bare, row.xml, row.bytes, row.nsBits, row.hasNews ? 1 : 0, row.lastmod ?? null, row.lastmodEpoch ?? null, row.slot,
    row.changedAt ?? null, row.addedAt ?? now, row.path ?? null,
  );
}

const hashParts = new Uint32Array(2);

/** The URL's 64-bit fingerprint cut to 53 bits: exact as a JavaScript number and as an SQLite integer. */
function urlHash(url: string): number {
  fingerprint(url, hashParts, 0);
  return (hashParts[0] as number) * 2 ** 21 + ((hashParts[1] as number) >>> 11);
}

function storedOf([id, url, fingerprint, bare, lastmod, changedAt, slot, goneSince, bytes, news]: LookupRow): StoredUrl {
  return { id, url, fingerprint: fingerprint ?? undefined, bare, lastmod: lastmod ?? undefined, changedAt: changedAt ?? undefined, slot: slot ?? undefined, goneSince: goneSince ?? undefined, bytes, hasNews: news === 1 };
}

function fileOf(row: FileRow): FileState {
  return { slot: row.slot, name: row.name, urls: row.urls, body: row.body, bytes: row.bytes, news: row.news, nsBits: row.ns, newestLastmod: row.newest_lastmod ?? undefined, newestEpoch: row.newest_epoch ?? undefined, run: row.run };
}

function placeholders(n: number): string {
  return Array.from({ length: n }, () => '?').join(', ');
}

function isBusy(error: unknown): boolean {
  const { errcode } = error as { errcode?: unknown };
  return typeof errcode === 'number' && (errcode & 0xff) === 5;
}

/** A lock holder on this machine is alive while its process is; one on another machine is taken for alive. */
function isAlive(holder: RunOwner, host: string): boolean {
  if (holder.host !== host) return true;
  try {
    kill(holder.pid, 0); // signal 0 only asks whether the process exists
    return true;
  } catch (error) {
    return (error as { code?: unknown }).code !== 'ESRCH';
  }
}

function sqliteReason(error: unknown): string {
  const { errcode, errstr } = error as { errcode?: unknown; errstr?: unknown };
  if (errcode === 26) return 'it is not an SQLite database (so not a sitemapkit state)';
  if (errcode === 11) return 'the database file is damaged';
  if (typeof errstr === 'string') return errstr;
  return error instanceof Error ? error.message : String(error);
}
