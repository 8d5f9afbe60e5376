/**
 * The state store's contract: what a build remembers between runs about each URL (its content
 * fingerprint, when it was first seen, when its content last changed, when it went, its file) and
 * each file (slot, published name, totals), and the run that changed them. Batched and async, so a
 * store on a server (PostgreSQL) answers a batch in one round trip; the embedded SQLite store answers
 * at once.
 */

/** Times are whole seconds since the epoch (the lastmod is written to the second). */
export type Seconds = number;

/** A URL as the state holds it. */
export interface StoredUrl {
  /** The store's number for the row: increasing in the order URLs were placed, so a file lists its URLs by it. */
  id: number;
  url: string;
  /** The content fingerprint its source gave, if it gave one. */
  fingerprint: string | undefined;
  /** A 53-bit hash of its `<url>` element as written but for its lastmod: with no source fingerprint, the content's. */
  bare: number;
  /** The lastmod written. */
  lastmod: string | undefined;
  /** When the content last changed, or undefined when it has not since the state began. */
  changedAt: Seconds | undefined;
  /** Its file slot; undefined while it is gone. */
  slot: number | undefined;
  /** Set while the URL is gone: when it was first missing. */
  goneSince: Seconds | undefined;
  /** UTF-8 bytes of its entry, and whether it holds a news entry: what it takes of its file's limits. */
  bytes: number;
  hasNews: boolean;
}

/** One `<url>` entry of a file, in file order: what the writer needs of it again, and what a run writes of it. */
export interface StoredEntry {
  url: string;
  /** The `<url>` element as written (lastmod included) after its `</loc>`: the rest is `<url><loc>` and the URL escaped. */
  xml: string;
  bytes: number;
  nsBits: number;
  hasNews: boolean;
  lastmod: string | undefined;
  lastmodEpoch: number | undefined;
}

/** A URL written by a run: a new row (`id` above every earlier one) or an existing row replaced. Every field is always present (one object shape for a million rows). */
export interface UrlWrite extends StoredEntry {
  id: number;
  /** The row it replaces under another id (a URL moved to another file, or back after it went). */
  replaces: number | undefined;
  /** The row it updates in place (same id). */
  update: boolean;
  fingerprint: string | undefined;
  bare: number;
  slot: number;
  changedAt: Seconds | undefined;
  /** Set when the run added the URL (new, or back after it went): the time it did. */
  addedAt: Seconds | undefined;
  /** Whether the run saw its content change. */
  changed: boolean;
  /** The file the record came from, as the source named it. */
  path: string | undefined;
}

/** A file of the published set, by slot. */
export interface FileState {
  slot: number;
  /** The name it is published under (`sitemap-2.xml`, or its alternate `sitemap-2b.xml`, or the entry point when alone). */
  name: string;
  urls: number;
  /** UTF-8 bytes of its `<url>` entries. */
  body: number;
  /** Its whole uncompressed size. */
  bytes: number;
  news: number;
  /** The extension namespaces its entries use (a superset after removals: planning stays on the safe side). */
  nsBits: number;
  newestLastmod: string | undefined;
  newestEpoch: number | undefined;
  /** The run that last wrote it. */
  run: number;
}

/** Who runs: named to a second run refused while this one holds the state. */
export interface RunOwner {
  pid: number;
  host: string;
  started: Seconds;
}

export interface BeginOptions {
  owner: RunOwner;
  /** The run's clock, to the second. */
  now: Seconds;
  /**
   * Whether the run that committed `token` to the state got its files published (the published
   * manifest names it): a run killed between the two is then kept, else undone.
   */
  wasPublished: (token: string) => Promise<boolean>;
}

/** What a run starts from. */
export interface RunStart {
  /** This run's number (1 for the first) and its token, which the published manifest records. */
  run: number;
  token: string;
  /** When the state began (its first run), undefined on the first run: content seen then gets no state lastmod. */
  began: Seconds | undefined;
  /** When the previous run ran: an unseen URL was last seen then. */
  previousRun: Seconds | undefined;
  /** The files, by slot. */
  files: FileState[];
  /** URLs that are not gone. */
  alive: number;
  /** Every id given so far is at most this. */
  maxId: number;
  /** The file format the files were last written in (`commit`'s `format`): another one means every file is written again. */
  format: string | undefined;
  /** How the last run compared content (`commit`'s `scheme`). */
  scheme: string | undefined;
  /** What a leftover run was found to be, if there was one. */
  recovered?: { token: string; outcome: 'kept' | 'undone' };
  /** The run that had left the state locked when it stopped (killed, or its machine gone), if one had. */
  tookOver?: RunOwner;
}

export interface ChangedUrl {
  url: string;
  /** ISO 8601 to the second, with its offset. */
  time: string;
}

export interface ChangeFeed {
  added: ChangedUrl[];
  changed: ChangedUrl[];
  removed: ChangedUrl[];
}

export interface StateStore {
  /** Where the state lives, for messages. */
  readonly label: string;
  /**
   * Starts a run: refuses (SM_STATE_BUSY) while another live run holds the state, resolves a run
   * left half done (see `wasPublished`), then opens the run's one transaction.
   */
  begin(options: BeginOptions): Promise<RunStart>;
  /** The stored rows of `urls` (gone ones included), undefined for URLs never seen. */
  lookup(urls: readonly string[]): Promise<(StoredUrl | undefined)[]>;
  /** Writes rows (new ones, replacements, in-place updates). */
  write(rows: readonly UrlWrite[]): Promise<void>;
  /** The URLs that are not gone, by id ascending, up to `maxId`: their slot and what they take of it; a batch at a time. */
  alive(maxId: number): AsyncIterable<{ id: number; slot: number; bytes: number; hasNews: boolean }[]>;
  /** Marks URLs gone as of `now`, last seen at `lastSeen`. */
  markGone(ids: readonly number[], now: Seconds, lastSeen: Seconds | undefined): Promise<void>;
  /** Every URL that is not gone, in file order (by slot, then id): what `--compact` packs. */
  layout(): AsyncIterable<{ id: number; slot: number; bytes: number; nsBits: number; hasNews: boolean }>;
  /** Puts URLs in other slots (`--compact`). */
  move(moves: readonly { id: number; slot: number }[]): Promise<void>;
  /** The entries of a slot, in file order, a batch at a time. */
  entries(slot: number): AsyncIterable<StoredEntry[]>;
  /**
   * Commits the run: the files it leaves (slots not listed are dropped) and its rows, with what undoes
   * them until `published` (a run killed before publishing is undone by the next).
   */
  commit(files: readonly FileState[], format: string, scheme: string): Promise<void>;
  /** The run's files are published: its undo information goes and the state is free for the next run. */
  published(): Promise<void>;
  /** Drops the run's changes and frees the state. */
  abort(): Promise<void>;
  /** The URLs added, changed and removed by the last run, or by the runs since `since`. */
  changes(since?: Seconds): Promise<ChangeFeed>;
  /** Frees the store (a store on a thread or a server ends its connection, hence the promise). */
  close(): void | Promise<void>;
}
