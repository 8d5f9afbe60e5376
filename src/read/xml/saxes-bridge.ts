/** The hand-over to saxes: what the fast path does not read, saxes reads, its events and errors told as the fast path tells them. */
import { SaxesParser, type SaxesOptions, type SaxesTagNS } from 'saxes';
import { Char, countDisallowedChars, DISALLOWED_CHARS, disallowedCharMessage, mayHoldDisallowedChar } from './chars.ts';
import { clipAround, referencedChar } from './entities.ts';
import { MAX_DEPTH, MAX_MALFORMED_REPORTS, MAX_PARSED_DEPTH, MAX_TOKEN_CHARS, type OversizedWhat, type XmlEvents } from './events.ts';
import { assumedNamespace, unboundPrefixMessage, type XmlAttribute } from './names.ts';
import type { XmlPosition } from './positions.ts';

/**
 * What saxes is given for an `&` that starts no reference, as the fast path reads it: saxes would
 * read on to the next `;` as an entity name, and lose every entry in between. One UTF-16 unit, as
 * the `&` was, so saxes' positions hold; a noncharacter, seldom in a document.
 */
export const BARE_AMPERSAND_MARK = '\uFDD0';
/**
 * What saxes is given for the document's own U+FDD0: U+FFFF, forbidden in XML, reaches saxes from
 * no document (it is read as U+FFFD), so saxes' complaint about it is known to be about a mark.
 */
export const OWN_MARK_CHAR = '\uFFFF';
/** An `&` that starts no reference the fast path would decode (see entities.ts). */
const AMPERSAND = /&(?:amp|lt|gt|quot|apos|#([0-9]+)|#x([0-9A-Fa-f]+));|&/g;
/** A declaration of a version other than 1.0: saxes reads the document by XML 1.1's rules. */
export const XML_1_1_DECL = /^<\?xml[ \t\r\n]+version[ \t\r\n]*=[ \t\r\n]*(["'])1\.(?!0\1)[0-9]+\1/;
/**
 * An `&` near the end of what was written, whose meaning depends on what comes next: kept back until
 * then. A name is one of five short ones; a character reference may have any number of leading zeros.
 */
const UNDECIDED_AMPERSAND = /&(?:#x[0-9A-Fa-f]*|#[0-9]*|[A-Za-z]{0,4})$/;
const DECIMAL_DIGITS = /^[0-9]+$/;
const HEX_DIGITS = /^[0-9A-Fa-f]+$/;

/** saxes' messages the bridge recognises (saxes 6.0.0, pinned: test/read/xml/saxes-contract.test.ts holds it to them). */
export const SAXES_MESSAGES = {
  /** Ends its complaint about any character XML forbids, the bridge's OWN_MARK_CHAR among them. */
  disallowedCharacter: 'disallowed character.',
  textOutsideRoot: 'text data outside of root node.',
  unexpectedCloseTag: 'unexpected close tag.',
  /** Followed by the tag's name. */
  unclosedTag: 'unclosed tag: ',
  /** At the end, inside a construct not finished (a CDATA section, a comment, a tag): what saxes then hands on as text is that construct's content. */
  unexpectedEnd: 'unexpected end.',
} as const;
/** saxes' complaint about a prefix used without a declaration. */
export const SAXES_UNBOUND_PREFIX = /unbound namespace prefix: "([^"]*)"\.$/;
/**
 * saxes' states (its private `state`) in which it adds what it reads to a text it holds whole: the
 * base one of each construct, and those a construct's end may have started in (saxes 6.0.0, pinned:
 * test/read/xml/saxes-contract.test.ts holds it to them).
 */
export const SAXES_STATES = { text: 13, comment: 17, commentEnding: 18, commentEnded: 19, cdata: 20, cdataEnding: 21, cdataEnding2: 22 } as const;
/** What ends each construct a long run may be skipped in, by its base state. */
const SKIPPABLE = new Map<number, { what: OversizedWhat; end: string }>([
  [SAXES_STATES.text, { what: 'text', end: '<' }],
  [SAXES_STATES.comment, { what: 'comment', end: '-->' }],
  [SAXES_STATES.cdata, { what: 'CDATA section', end: ']]>' }],
]);
const LINE_END = /\r\n?|\n/g;

/** A construct past MAX_TOKEN_CHARS whose rest is not given to saxes, which would hold it whole: only counted, for positions. */
interface Skipping {
  what: OversizedWhat;
  end: string;
  /** Where the construct starts, and how much of it saxes was given. */
  at: XmlPosition;
  given: number;
  /** Where the first character skipped stands; line ends and the characters after the last one skipped since. */
  from: XmlPosition;
  skipped: number;
  lines: number;
  tail: number;
  /** The last character skipped (or the one before the skip) was a CR: an LF next is its line end's. */
  afterReturn: boolean;
  /** The last characters of a piece, which may start the end (`-->`, `]]>`), held for the next. */
  carry: string;
}

/** saxes prefixes its messages with its own (primed, hence shifted) position; ours replaces it. */
const SAXES_POSITION_PREFIX = /^(?:[^:]*:)?\d+:\d+: /;

/** saxes' property for the handler of each event it has (its `EVENT_NAME_TO_HANDLER_NAME`). */
export const HANDLER_SLOTS = {
  xmldecl: 'xmldeclHandler',
  text: 'textHandler',
  processinginstruction: 'piHandler',
  doctype: 'doctypeHandler',
  comment: 'commentHandler',
  opentagstart: 'openTagStartHandler',
  attribute: 'attributeHandler',
  opentag: 'openTagHandler',
  closetag: 'closeTagHandler',
  cdata: 'cdataHandler',
  error: 'errorHandler',
  end: 'endHandler',
  ready: 'readyHandler',
} as const;
type HandlerSlot = (typeof HANDLER_SLOTS)[keyof typeof HANDLER_SLOTS];

/**
 * saxes with its handler slots made in its constructor. `on()` adds each as a new property by a
 * keyed store, and past a dozen such V8 turns the parser into a dictionary, every field it reads a
 * hash lookup, several times slower. Named stores in the constructor keep it fast; should saxes
 * rename a slot, `on()` still works, only slower.
 */
export class FastSaxesParser extends SaxesParser<{ xmlns: true; position: true }> {
  constructor() {
    super({ xmlns: true, position: true } satisfies SaxesOptions);
    const slots = this as unknown as Record<HandlerSlot, undefined>;
    // One named store each: a loop would store by key, as on() does.
    slots.xmldeclHandler = undefined;
    slots.textHandler = undefined;
    slots.piHandler = undefined;
    slots.doctypeHandler = undefined;
    slots.commentHandler = undefined;
    slots.openTagStartHandler = undefined;
    slots.attributeHandler = undefined;
    slots.openTagHandler = undefined;
    slots.closeTagHandler = undefined;
    slots.cdataHandler = undefined;
    slots.errorHandler = undefined;
    slots.endHandler = undefined;
    slots.readyHandler = undefined;
  }

  /** saxes makes an Error for each complaint (one per OWN_MARK_CHAR too), whose stack no one reads: it is left out, as it is costly. */
  override makeError(message: string): Error {
    const stackTraceLimit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    try {
      return super.makeError(message);
    } finally {
      Error.stackTraceLimit = stackTraceLimit;
    }
  }
}

/** Thrown through saxes to stop it mid-chunk when the input is too deep to be worth reading. */
const ABANDONED = Symbol('abandoned');

/** Where saxes starts in the document, and what it is told of what the fast path read before. */
export interface HandOver {
  /** Where the rest of the document, given to saxes after the priming, starts. */
  readonly origin: XmlPosition;
  /** How long the priming is: saxes' first line is that much longer than the document's. */
  readonly primed: number;
  /** Of the start tags primed, how many are of entries the consumer forgot at the depth cap. */
  readonly forgotten: number;
  /** The document declares a version other than 1.0. */
  readonly xml11: boolean;
  /** No input is to come but what is written now (the tokenizer's `end()` has been called). */
  readonly ending: boolean;
}

/**
 * saxes reading the rest of a document from a token boundary, primed with what the fast path had
 * open. Events go to the consumer as the fast path would give them: bare `&`s read literally (marked
 * on the way in, BARE_AMPERSAND_MARK), undeclared prefixes read as meant, findings placed in the
 * document's own lines and columns.
 */
export class SaxesBridge {
  readonly #events: XmlEvents;
  readonly #saxes: FastSaxesParser;
  #stopped = false;
  #ending: boolean;
  /** saxes said the input ended inside a construct (SAXES_MESSAGES.unexpectedEnd). */
  #endedInside = false;
  /**
   * How saxes' positions map to the document's: its line `#mapLine` is the document's `#mapDocLine`,
   * its columns shifted by `#mapShift`; a later line is the document's that many lines on. First its
   * first line (where the priming makes it longer), after a skipped run the line reading resumed on.
   */
  #mapLine = 1;
  #mapDocLine: number;
  #mapShift: number;
  #skipping: Skipping | undefined;
  /** Where saxes was when the run it is in began (markup ended, or a skip): a run past MAX_TOKEN_CHARS from there is skipped. */
  #runFrom = 0;
  readonly #xml11: boolean;
  #priming = false;
  /** While a start tag is handed on: where its `<` is, as the fast path gives it. */
  #tagAt: XmlPosition | undefined;
  /** Where the start tag saxes is reading starts, worked out at its name (see `opentagstart`). */
  #openingAt: XmlPosition | undefined;
  /** Where saxes last said an element ended early (once is enough for all the ended entries). */
  #unexpectedCloseAt = -1;
  /** Prefixes saxes found undeclared: their names read as the fast path reads them (assumedNamespace). */
  readonly #unbound = new Set<string>();
  /** saxes' line and column where its last markup ended: where a text starts. */
  #textLine = 1;
  #textColumn = 0;
  #textOffset = 0;
  /** How many characters the text since then has after its last line end (-1: none in it). */
  #textTail = -1;
  /**
   * Bare `&`s given to saxes since markup last ended, in order: where each stands, and how far saxes
   * had read before it (#writePlacing). Each is reported there, while findings are listed; at most
   * MAX_MALFORMED_REPORTS are kept, as no more can be listed.
   */
  readonly #ampersands: { offset: number; at: XmlPosition }[] = [];
  /** How far saxes had read when the start tag it is reading, or its last attribute, ended: the next attribute starts after. */
  #attributeFrom = 0;
  /** Of #ampersands, how many lie before that. */
  #ampersandsSeen = 0;
  /** Where the bare `&`s of each attribute of that tag holding any stand, by its name as written. */
  readonly #attributeAmpersands = new Map<string, XmlPosition[]>();
  /** Input held back (UNDECIDED_AMPERSAND), as it came: a long reference cut small is not joined again on every write. */
  readonly #held: string[] = [];
  /** Characters given to saxes, and where in them a U+FFFF stands for the document's own U+FDD0 (OWN_MARK_CHAR). */
  #written = 0;
  readonly #ownMarks: number[] = [];
  #ownMarksPassed = 0;
  /** An OWN_MARK_CHAR may be in what saxes hands on (the document's U+FDD0, or a reference to it). */
  #ownMarksUsed = false;
  /** The last character given to saxes was a CR, which it holds until it sees whether an LF follows. */
  #carriesReturn = false;
  #depth = 0;
  /** Of `#depth`, the levels of entries forgotten at the depth cap: saxes has them open, the consumer does not. */
  #forgotten: number;
  #tooDeep = false;

  constructor(events: XmlEvents, handOver: HandOver) {
    this.#events = events;
    this.#mapDocLine = handOver.origin.line;
    this.#mapShift = handOver.origin.column - handOver.primed;
    this.#forgotten = handOver.forgotten;
    this.#xml11 = handOver.xml11;
    this.#ending = handOver.ending;
    const saxes = new FastSaxesParser();
    this.#saxes = saxes;
    // Where the tag's `<` is: saxes has read its name and the character after it, which may be a line end
    // (attributes one to a line): then the `<` is on the line before, after the last markup or text line end.
    saxes.on('opentagstart', (tag) => {
      this.#attributeFrom = saxes.position - tag.name.length - 2;
      this.#attributeAmpersands.clear();
      const column = saxes.columnIndex - tag.name.length - 2;
      if (column >= 0) this.#openingAt = this.#positionAt(saxes.line, column);
      else if (this.#textTail !== -1) this.#openingAt = this.#positionAt(saxes.line - 1, this.#textTail);
      else if (saxes.line - 1 === this.#textLine) this.#openingAt = this.#positionAt(this.#textLine, this.#textColumn + saxes.position - tag.name.length - 2 - this.#textOffset);
      else this.#openingAt = undefined;
    });
    // Told as each attribute ends: its bare `&`s are those placed since the attribute before it ended.
    saxes.on('attribute', (attribute) => {
      const ampersands = this.#ampersands;
      // The attributes come in order: the search goes on from where the one before left it, so a tag of many stays linear.
      while (this.#ampersandsSeen < ampersands.length && (ampersands[this.#ampersandsSeen] as { offset: number }).offset < this.#attributeFrom) this.#ampersandsSeen++;
      if (attribute.value.indexOf(BARE_AMPERSAND_MARK) !== -1) {
        const places: XmlPosition[] = [];
        for (; this.#ampersandsSeen < ampersands.length && (ampersands[this.#ampersandsSeen] as { offset: number }).offset < saxes.position; this.#ampersandsSeen++) {
          places.push((ampersands[this.#ampersandsSeen] as { at: XmlPosition }).at);
        }
        this.#attributeAmpersands.set(attribute.name, places);
      }
      this.#attributeFrom = saxes.position;
    });
    saxes.on('opentag', (tag: SaxesTagNS) => this.#openTag(tag));
    saxes.on('closetag', (tag) => {
      this.#markupEnded();
      if (!this.#priming && this.#forgotten > 0 && this.#depth - this.#forgotten === 1) {
        // A forgotten entry's end (only the root is open to the consumer): the entries were nested after all.
        this.#forgotten--;
        this.#depth--;
        return;
      }
      this.#depth--;
      if (this.#priming || this.#depth - this.#forgotten >= MAX_DEPTH) return;
      // Where `</name>` starts, as the fast path places what closing finds (only `</name >` is a character off).
      const column = saxes.columnIndex - tag.name.length - 3;
      this.#tagAt = column >= 0 ? this.#positionAt(saxes.line, column) : undefined;
      events.close();
      this.#tagAt = undefined;
    });
    saxes.on('text', (text: string) => {
      const lineEnd = text.lastIndexOf('\n');
      this.#textTail = lineEnd === -1 ? -1 : text.length - lineEnd - 1;
      // An unterminated CDATA section's or comment's content, handed on at the end: no text, and its `&` no bare one (the end is reported).
      if (this.#priming || this.#depth - this.#forgotten > MAX_DEPTH || this.#endedInside) return;
      if (text.indexOf(BARE_AMPERSAND_MARK) !== -1) {
        // Where the fast path puts each: at the `&` (its text is decoded here, so each was placed as it was written, #writePlacing).
        const places = this.#ampersands.filter((ampersand) => ampersand.offset >= this.#textOffset).map((ampersand) => ampersand.at);
        this.#reportBareAmpersands(text, places, '');
      }
      if (events.capturing) events.text(this.#unmarked(text));
    });
    saxes.on('cdata', (text: string) => {
      this.#markupEnded();
      if (!this.#priming && this.#depth - this.#forgotten <= MAX_DEPTH && events.capturing) events.text(this.#unmarked(text));
    });
    saxes.on('comment', () => {
      // saxes tells of a comment at its `--`, before the `>` that must follow.
      this.#markupEnded();
      this.#textColumn++;
      this.#textOffset++;
    });
    saxes.on('processinginstruction', () => this.#markupEnded());
    saxes.on('xmldecl', () => this.#markupEnded());
    saxes.on('doctype', () => {
      this.#markupEnded();
      if (!this.#priming) events.doctype(this.#position());
    });
    saxes.on('error', (error: Error) => this.#error(error));
  }

  /** True once reading has stopped for good: nesting past MAX_PARSED_DEPTH, or the consumer stopped it. */
  get stopped(): boolean {
    return this.#stopped;
  }

  /** Gives saxes `priming` (the start tags the fast path had open, or what stands for its prolog) with no event told. */
  prime(priming: string): void {
    if (priming !== '') {
      this.#priming = true;
      // A start tag read by the fast path may hold a bare `&` in a value: saxes would read on from it into the document.
      this.#toSaxes(this.#marked(priming));
      this.#priming = false;
    }
    this.#markupEnded();
  }

  /** Line and column (1-based) of the token being handled. */
  position(): XmlPosition {
    return this.#tagAt ?? this.#position();
  }

  /** Line and column (1-based) where the next character written will be. */
  writtenTo(): XmlPosition {
    const saxes = this.#saxes;
    // saxes keeps a CR at a write's end until it sees what follows: here, a line end.
    return this.#carriesReturn ? this.#positionAt(saxes.line + 1, 0) : this.#position();
  }

  /** Feeds saxes the next piece of the document as written. */
  write(chunk: string): void {
    const held = this.#held;
    if (held.length > 0 && !this.#ending && this.#continuesReference(chunk)) {
      held.push(chunk);
      return;
    }
    let text = held.length === 0 ? chunk : held.join('') + chunk;
    held.length = 0;
    if (!this.#ending && text.indexOf('&') !== -1) {
      const undecided = UNDECIDED_AMPERSAND.exec(text);
      if (undecided !== null) {
        held.push(undecided[0]);
        text = text.slice(0, undecided.index);
      }
    }
    if (this.#skipping !== undefined) text = this.#skip(text);
    // A text, comment or CDATA section longer than any sitemap field: past MAX_TOKEN_CHARS its rest is skipped, counted only (saxes would hold it whole).
    // Cut where the run reaches that length, however the input came, so what is read of it never depends on the cuts.
    while (text !== '' && this.#skipping === undefined && this.#depth > 0 && !this.#stopped) {
      const room = MAX_TOKEN_CHARS - (this.#saxes.position - this.#runFrom);
      if (text.length <= room) break;
      if (room > 0) {
        this.#forward(text.slice(0, room));
        text = text.slice(room);
        continue;
      }
      const state = (this.#saxes as unknown as { state: number }).state;
      const skippable = SKIPPABLE.get(state);
      if (skippable !== undefined) {
        this.#startSkipping(skippable.what, skippable.end);
        text = this.#skip(text);
      } else if (state === SAXES_STATES.commentEnding || state === SAXES_STATES.commentEnded || state === SAXES_STATES.cdataEnding || state === SAXES_STATES.cdataEnding2) {
        // Where a construct's end may have begun (a `-` in a comment, a `]` in CDATA): one character more decides it, whatever the cuts.
        this.#forward(text.slice(0, 1));
        text = text.slice(1);
      } else break;
    }
    this.#forward(text);
  }

  /** Gives saxes `text` as written: forbidden characters and bare `&`s marked, each placed where it stands. */
  #forward(text: string): void {
    if (text === '' || this.#stopped) return;
    // Forbidden characters first, so what saxes is given besides holds none but OWN_MARK_CHAR (all replacements keep the length).
    const clean = mayHoldDisallowedChar(text, false) ? text.replace(DISALLOWED_CHARS, '\uFFFD') : text;
    const marked = this.#marked(clean);
    try {
      if (clean === text) {
        this.#writePlacing(marked, 0, marked.length);
        return;
      }
      // As on the fast path: read as U+FFFD and reported where it stands, once saxes has read all before it; past the findings listed, counted.
      let from = 0;
      DISALLOWED_CHARS.lastIndex = 0;
      for (let match = DISALLOWED_CHARS.exec(text); match !== null; match = DISALLOWED_CHARS.exec(text)) {
        if (match.index > from) this.#writePlacing(marked, from, match.index);
        from = match.index;
        if (!this.#events.listing) {
          this.#events.unlisted(1 + countDisallowedChars(text, match.index + match[0].length));
          break;
        }
        this.#events.malformed(disallowedCharMessage(text, match.index), this.writtenTo());
        if (this.#events.stopped) {
          this.#stopped = true;
          return;
        }
      }
      this.#writePlacing(marked, from, marked.length);
    } catch (error) {
      // Thrown from our own handler to stop saxes in the middle of a chunk.
      if (error !== ABANDONED) throw error;
    }
  }

  /** Ends the document: what is held back is written, and saxes names anything unfinished. */
  close(): void {
    this.#ending = true;
    if (this.#held.length > 0) this.write('');
    if (this.#stopped) return;
    if (this.#skipping !== undefined) {
      // Cut off inside it: what is held over was skipped too.
      this.#count(this.#skipping.carry);
      this.#endSkipping();
    }
    try {
      this.#saxes.close();
    } catch (error) {
      if (error !== ABANDONED) throw error;
    }
  }

  #startSkipping(what: OversizedWhat, end: string): void {
    const given = this.#saxes.position - this.#textOffset;
    const at = this.#positionAt(this.#textLine, this.#textColumn);
    this.#skipping = { what, end, at, given, from: this.writtenTo(), skipped: 0, lines: 0, tail: 0, afterReturn: this.#carriesReturn, carry: '' };
  }

  /** What of `text` comes after the skipped run (from its end on), the rest counted; '' while it goes on. */
  #skip(text: string): string {
    const skipping = this.#skipping as Skipping;
    const piece = skipping.carry === '' ? text : skipping.carry + text;
    skipping.carry = '';
    const end = piece.indexOf(skipping.end);
    if (end === -1) {
      const cut = Math.max(0, piece.length - (skipping.end.length - 1));
      this.#count(piece.slice(0, cut));
      skipping.carry = piece.slice(cut);
      return '';
    }
    this.#count(piece.slice(0, end));
    this.#endSkipping();
    return piece.slice(end);
  }

  /** Counts skipped characters, and the line ends among them (CRLF, CR and LF one each). */
  #count(part: string): void {
    if (part === '') return;
    const skipping = this.#skipping as Skipping;
    const from = skipping.afterReturn && part.charCodeAt(0) === Char.LineFeed ? 1 : 0;
    skipping.skipped += part.length;
    let last = -1;
    LINE_END.lastIndex = from;
    for (let match = LINE_END.exec(part); match !== null; match = LINE_END.exec(part)) {
      skipping.lines++;
      last = match.index + match[0].length;
    }
    skipping.tail = last === -1 ? skipping.tail + part.length - from : part.length - last;
    skipping.afterReturn = part.charCodeAt(part.length - 1) === Char.Return;
  }

  /** Reading resumes: saxes' next position is mapped to the document's after the skipped run, and the run is reported. */
  #endSkipping(): void {
    const skipping = this.#skipping as Skipping;
    this.#skipping = undefined;
    const saxes = this.#saxes;
    // What follows is the construct's end: read, not skipped again.
    this.#runFrom = saxes.position;
    // Ended right where the limit is: nothing was skipped.
    if (skipping.skipped === 0) return;
    const { from, lines, tail } = skipping;
    const after = lines === 0 ? { line: from.line, column: from.column + tail } : { line: from.line + lines, column: tail + 1 };
    // saxes holds a CR given last until it sees what follows, which it then reads on the next line.
    this.#mapLine = this.#carriesReturn ? saxes.line + 1 : saxes.line;
    this.#mapDocLine = after.line;
    this.#mapShift = after.column - (this.#carriesReturn ? 0 : saxes.columnIndex);
    this.#events.oversized(skipping.what, skipping.given + skipping.skipped, skipping.at);
  }

  #openTag(tag: SaxesTagNS): void {
    const events = this.#events;
    this.#depth++;
    this.#markupEnded();
    if (this.#priming) return;
    if (this.#depth > MAX_PARSED_DEPTH) {
      events.malformed(`elements nested deeper than ${MAX_PARSED_DEPTH} levels; reading stops here`, this.#position());
      this.#stopped = true;
      throw ABANDONED;
    }
    if (this.#depth - this.#forgotten > MAX_DEPTH) {
      // As on the fast path, entries ended by the next one opening inside them make room; saxes keeps them open.
      const ended = events.endedEntries;
      events.forgetEndedEntries(ended);
      this.#forgotten += ended;
    }
    if (this.#depth - this.#forgotten > MAX_DEPTH) {
      if (!this.#tooDeep) events.malformed(`elements nested deeper than ${MAX_DEPTH} levels are not read`, this.#position());
      this.#tooDeep = true;
      return;
    }
    this.#tagAt = this.#openingAt;
    const attributes: XmlAttribute[] = [];
    for (const attribute of Object.values(tag.attributes)) {
      let value = attribute.value;
      if (value.indexOf(BARE_AMPERSAND_MARK) !== -1) this.#reportBareAmpersands(value, this.#attributeAmpersands.get(attribute.name) ?? [], ' in an attribute');
      value = this.#unmarked(value);
      if (attribute.prefix === 'xmlns' || (attribute.prefix === '' && attribute.local === 'xmlns')) continue;
      attributes.push({ ns: this.#namespace(this.#unmarked(attribute.uri), attribute.prefix), local: attribute.local, value });
    }
    events.open(this.#namespace(this.#unmarked(tag.uri), tag.prefix), tag.local, attributes);
    this.#tagAt = undefined;
  }

  /** Each bare `&` (a mark) in `text` as saxes read it, at its place in `places` (in order); past the findings listed, counted. */
  #reportBareAmpersands(text: string, places: readonly XmlPosition[], where: string): void {
    const events = this.#events;
    let k = 0;
    for (let mark = text.indexOf(BARE_AMPERSAND_MARK); mark !== -1; mark = text.indexOf(BARE_AMPERSAND_MARK, mark + 1), k++) {
      if (!events.listing) {
        let rest = 0;
        for (; mark !== -1; mark = text.indexOf(BARE_AMPERSAND_MARK, mark + 1)) rest++;
        events.unlisted(rest);
        return;
      }
      events.malformed(`"&" that starts no entity reference${where} (${this.#unmarked(clipAround(text, BARE_AMPERSAND_MARK, mark))}); read literally, write &amp;`, places[k] ?? this.position());
    }
  }

  #error(error: Error): void {
    const events = this.#events;
    const saxes = this.#saxes;
    if (this.#isOwnMark(error)) return;
    // As on the fast path: a prefix used without a declaration is reported once, where its first tag starts.
    const unbound = SAXES_UNBOUND_PREFIX.exec(error.message)?.[1];
    if (unbound !== undefined) {
      if (this.#unbound.has(unbound)) return;
      this.#unbound.add(unbound);
      if (!this.#priming) events.malformed(unboundPrefixMessage(unbound), this.#openingAt ?? this.#position());
      return;
    }
    if (this.#priming) return;
    if (this.#ending && error.message.endsWith(SAXES_MESSAGES.unexpectedEnd)) this.#endedInside = true;
    // saxes says these for each element one end tag, or the end of the input, ends early (all the ended entries, with every </url> missing): once is enough.
    if (error.message.endsWith(SAXES_MESSAGES.unexpectedCloseTag) || error.message.includes(SAXES_MESSAGES.unclosedTag)) {
      if (saxes.position === this.#unexpectedCloseAt) return;
      this.#unexpectedCloseAt = saxes.position;
    }
    if (!events.listing) {
      events.unlisted(1);
      return;
    }
    // saxes says it where the text happens to end (a `<` or the end of a write): placed at the text's start, as the fast path places its findings in a text.
    const position = error.message.endsWith(SAXES_MESSAGES.textOutsideRoot) ? this.#positionAt(this.#textLine, this.#textColumn) : this.#position();
    events.malformed(error.message.replace(SAXES_POSITION_PREFIX, ''), position);
    // saxes makes an Error for each bad character: megabytes of binary would take it minutes.
    if (events.stopped) {
      this.#stopped = true;
      throw ABANDONED;
    }
  }

  /**
   * `text` as saxes is given it: each `&` that starts no reference as BARE_AMPERSAND_MARK, the
   * document's own U+FDD0 as OWN_MARK_CHAR. It holds no forbidden character.
   */
  #marked(text: string): string {
    let marked = text;
    if (marked.indexOf(BARE_AMPERSAND_MARK) !== -1) {
      for (let i = marked.indexOf(BARE_AMPERSAND_MARK); i !== -1; i = marked.indexOf(BARE_AMPERSAND_MARK, i + 1)) this.#ownMarks.push(this.#written + i);
      this.#ownMarksUsed = true;
      marked = marked.replaceAll(BARE_AMPERSAND_MARK, OWN_MARK_CHAR);
    }
    if (marked.indexOf('&') === -1) return marked;
    return marked.replace(AMPERSAND, this.#markAmpersand);
  }

  /**
   * An `&` is bare when it starts no reference, or one to a character the version forbids (`&#0;`;
   * XML 1.1 allows references to the other control characters): the fast path reads both literally.
   * A reference to U+FDD0 (the mark itself) becomes one to an entity of the same length that saxes is
   * told stands for OWN_MARK_CHAR; no name of the document's reaches saxes unmarked but the five predefined.
   */
  readonly #markAmpersand = (match: string, decimal: string | undefined, hex: string | undefined): string => {
    if (match.length === 1) return BARE_AMPERSAND_MARK;
    if (decimal === undefined && hex === undefined) return match;
    const code = decimal === undefined ? Number.parseInt(hex as string, 16) : Number.parseInt(decimal, 10);
    if (code === 0xfdd0) {
      const name = 'z'.repeat(match.length - 2);
      this.#saxes.ENTITIES[name] = OWN_MARK_CHAR;
      this.#ownMarksUsed = true;
      return `&${name};`;
    }
    const allowed = this.#xml11 ? code >= 1 && code <= 0x10ffff && !(code >= 0xd800 && code <= 0xdfff) && code !== 0xfffe && code !== 0xffff : referencedChar(code) !== undefined;
    return allowed ? match : BARE_AMPERSAND_MARK + match.slice(1);
  };

  /**
   * Gives saxes `marked` from `from` to `to`, cut at each bare `&` (BARE_AMPERSAND_MARK): written up
   * to it, its place is where saxes has got to. Only while findings are listed, and no more than can
   * be listed between two pieces of markup: past that a place would never be told.
   */
  #writePlacing(marked: string, from: number, to: number): void {
    for (let mark = marked.indexOf(BARE_AMPERSAND_MARK, from); mark !== -1 && mark < to; mark = marked.indexOf(BARE_AMPERSAND_MARK, mark + 1)) {
      if (!this.#events.listing || this.#ampersands.length >= MAX_MALFORMED_REPORTS) break;
      this.#toSaxes(marked.slice(from, mark));
      from = mark;
      this.#ampersands.push({ offset: this.#saxes.position, at: this.writtenTo() });
    }
    this.#toSaxes(marked.slice(from, to));
  }

  #toSaxes(text: string): void {
    if (text === '') return;
    const saxes = this.#saxes;
    this.#written += text.length;
    saxes.write(text);
    // Once a write returns, saxes' `position` counts the chunk twice until the next one starts.
    saxes.write('');
    this.#carriesReturn = text.charCodeAt(text.length - 1) === Char.Return;
  }

  /** Whether saxes' `error` is only its "disallowed character." for an OWN_MARK_CHAR, which is no error. */
  #isOwnMark(error: Error): boolean {
    const marks = this.#ownMarks;
    if (this.#ownMarksPassed === marks.length || !error.message.endsWith(SAXES_MESSAGES.disallowedCharacter)) return false;
    // saxes has read the character when it fails on it.
    const at = this.#saxes.position - 1;
    while (this.#ownMarksPassed < marks.length && (marks[this.#ownMarksPassed] as number) < at) this.#ownMarksPassed++;
    // Not passed yet when it matches: saxes may read the character again (after an `unget`).
    if (this.#ownMarksPassed > 4096) {
      marks.splice(0, this.#ownMarksPassed);
      this.#ownMarksPassed = 0;
    }
    return marks[this.#ownMarksPassed] === at;
  }

  /** Whether `chunk` is all digits of the character reference held back, which may be of any length. */
  #continuesReference(chunk: string): boolean {
    const start = this.#held[0] as string;
    // No limit on its length: the pieces are kept as they came, and joined once.
    if (chunk === '' || start[1] !== '#') return false;
    return (start[2] === 'x' ? HEX_DIGITS : DECIMAL_DIGITS).test(chunk);
  }

  #position(): XmlPosition {
    const saxes = this.#saxes;
    return this.#positionAt(saxes.line, saxes.columnIndex);
  }

  /** The document's position for saxes' line and column (0-based, after priming). */
  #positionAt(saxesLine: number, saxesColumn: number): XmlPosition {
    if (saxesLine === this.#mapLine) return { line: this.#mapDocLine, column: this.#mapShift + saxesColumn };
    return { line: this.#mapDocLine + saxesLine - this.#mapLine, column: saxesColumn + 1 };
  }

  /** The namespace saxes gives a name, or what the fast path reads an undeclared prefix as (saxes gives the prefix). */
  #namespace(uri: string, prefix: string): string {
    return uri === prefix && this.#unbound.has(prefix) ? assumedNamespace(prefix) : uri;
  }

  /** What saxes read, with each mark (see #marked) back to what it stood for. */
  #unmarked(text: string): string {
    const unmarked = text.indexOf(BARE_AMPERSAND_MARK) === -1 ? text : text.replaceAll(BARE_AMPERSAND_MARK, '&');
    return !this.#ownMarksUsed || unmarked.indexOf(OWN_MARK_CHAR) === -1 ? unmarked : unmarked.replaceAll(OWN_MARK_CHAR, BARE_AMPERSAND_MARK);
  }

  #markupEnded(): void {
    const saxes = this.#saxes;
    this.#textLine = saxes.line;
    this.#textColumn = saxes.columnIndex;
    this.#textOffset = saxes.position;
    this.#runFrom = saxes.position;
    this.#textTail = -1;
    // Those read past belong to what has ended: dropped in one cut (one shift each would be quadratic in a hostile text of them).
    const ampersands = this.#ampersands;
    let passed = 0;
    while (passed < ampersands.length && (ampersands[passed] as { offset: number }).offset < saxes.position) passed++;
    if (passed > 0) ampersands.splice(0, passed);
    this.#ampersandsSeen = 0;
  }
}
