/**
 * The file planner: which file each serialized entry goes in. Files are numbered slots the planner
 * opens, fills and closes through `OpenFiles`; a slot's number is its file's (slot n is written as
 * `<stem>-<n+1>`), so a planner that keeps a URL in the same slot keeps it in the same file.
 */

/**
 * A `<url>` entry as the planner sees it: its XML and what the file limits are counted in. The
 * serializer fills one object again for each entry, so a planner keeps nothing of it past `place`.
 */
export interface SerializedEntry {
  loc: string;
  xml: string;
  /** UTF-8 bytes of `xml`. */
  bytes: number;
  /** The extension namespaces it uses (`NS_BIT`). */
  nsBits: number;
  hasNews: boolean;
  lastmod: string | undefined;
  lastmodEpoch: number | undefined;
}

/** The files being built, as a planner sees them; the file writer (`FileSet`) keeps their bytes. */
export interface OpenFiles {
  /** Opens an empty file in `slot`; a slot is used once per build. */
  open(slot: number): void;
  /** Adds the entry to the open file in `slot` if it keeps every limit of that file (URLs, news, exact bytes), else adds nothing and returns false. */
  tryAdd(slot: number, entry: SerializedEntry): boolean;
  /** Whether the entry fits in an empty file at all. */
  fitsAlone(entry: SerializedEntry): boolean;
  /** Closes the file in `slot`: it is named and staged (a file closed empty is dropped). Files still open at the end are closed in slot order. */
  close(slot: number): Promise<void>;
}

/** Returned by `place` when no file can hold the entry (it is larger than a whole file). */
export const NO_FILE = -1;

export interface FilePlanner {
  /**
   * Puts the entry in a file, opening and closing files on the way, and returns its slot or
   * `NO_FILE`. It returns a promise only when it closed a file, so the usual entry costs no microtask.
   */
  place(entry: SerializedEntry, files: OpenFiles): number | Promise<number>;
}

/**
 * Today's planner: one file open at a time, filled in input order; when the next entry would break
 * a limit, the file closes and the next one opens. Files come out as full as the limits allow.
 */
export class GreedyPlanner implements FilePlanner {
  #slot = -1;

  place(entry: SerializedEntry, files: OpenFiles): number | Promise<number> {
    const slot = this.#slot;
    if (slot >= 0 && files.tryAdd(slot, entry)) return slot;
    if (!files.fitsAlone(entry)) return NO_FILE;
    if (slot < 0) return this.#next(entry, files);
    return files.close(slot).then(() => this.#next(entry, files));
  }

  #next(entry: SerializedEntry, files: OpenFiles): number {
    const slot = ++this.#slot;
    files.open(slot);
    files.tryAdd(slot, entry);
    return slot;
  }
}
