/**
 * A streaming XML tokenizer specialised for the subset of XML that sitemaps are made of, with
 * `saxes` (a conforming parser) taking over for everything else.
 *
 * The fast path accepts only what it can prove well-formed: ASCII names with at most one prefix,
 * quoted attributes, text and attribute values with the five predefined entities and character
 * references, comments, CDATA, processing instructions and a plain version 1.0 XML declaration. On anything
 * else (a DOCTYPE, an unbound prefix, a stray `&`, a mismatched tag, a second root, truncation…) it
 * hands the rest of the document to saxes at the last token boundary, primed with the start tags
 * still open, and saxes reports the error (or accepts what the fast path merely did not cover).
 * So the events are those of a conforming parser on every input; the differential test proves it.
 */
import { Char, countDisallowedChars, DISALLOWED_CHARS, disallowedCharMessage, indexOrLength, isNameChar, isNameStart, isSpace, matchesAt, mayHoldDisallowedChar, normalizeNewlines } from './chars.ts';
import { bareAmpersand, clipAround, countBareAmpersands, decodeEntities, decodeEntitiesLeniently, attributeValueOnSight } from './entities.ts';
import { AwaitedInput, MAX_AWAITED_ENTRY_CHARS, MIN_AWAITED_TOKEN_CHARS } from './awaiting.ts';
import { MAX_DEPTH, MAX_MALFORMED_REPORTS, MAX_TOKEN_CHARS, MAX_PARSED_DEPTH, type XmlEvents } from './events.ts';
import { KNOWN_NAMESPACES, lookup, type OpenElement, resolveName, ROOT_SCOPE, type Scope, unboundPrefixMessage, assumedNamespace, type XmlAttribute, type XmlName, XML_NS, XMLNS_NS } from './names.ts';
import { LineCounter, positionIn, type XmlPosition } from './positions.ts';
import { SaxesBridge, XML_1_1_DECL } from './saxes-bridge.ts';
import { EntryContent, EntryPart, type EntryTemplate, fillTemplate, learnTemplate, TEMPLATE_MIN_HITS_PER_SCAN, TEMPLATE_WARMUP, type TemplateSet } from './templates.ts';

/** Entries the reader forgets at the depth cap (see `#roomToOpen`) at most: a sitemap holds 50,000, each with groups. */
const MAX_FORGOTTEN = 200_000;
/** `<!DOCTYPE name>`, with a system or public identifier or not (XML §2.8), its name ASCII. */
const PLAIN_DOCTYPE =
  /^<!DOCTYPE[ \t\r\n]+[A-Za-z_:][-A-Za-z0-9._:]*(?:[ \t\r\n]+(?:SYSTEM|PUBLIC[ \t\r\n]+(?:"[-'()+,./:=?;!*#@$_%a-zA-Z0-9 \r\n]*"|'[-()+,./:=?;!*#@$_%a-zA-Z0-9 \r\n]*'))[ \t\r\n]+(?:"[^"]*"|'[^']*'))?[ \t\r\n]*>$/;
/** Version 1.0 only: any other 1.x is read by the XML 1.1 rules (other characters, NEL and LS as line ends), which are saxes'. */
const XML_DECL = /^<\?xml[ \t\r\n]+version[ \t\r\n]*=[ \t\r\n]*(["'])1\.0\1(?:[ \t\r\n]+encoding[ \t\r\n]*=[ \t\r\n]*(["'])[A-Za-z][A-Za-z0-9._-]*\2)?(?:[ \t\r\n]+standalone[ \t\r\n]*=[ \t\r\n]*(["'])(?:yes|no)\3)?[ \t\r\n]*\?>/;
const ONLY_WHITESPACE = /^[ \t\r\n]*$/;
/** Groups in an entry nest this deep at most (`<news:news><news:publication>`). */
const MAX_ENTRY_GROUP_DEPTH = 2;
/** The longest pause between tries of the whole-entry path after it was declined. */
const MAX_ENTRY_SKIPS = 256;
/**
 * Distinct element names a sitemap uses are few: slots keyed by a name's first two characters. The
 * names of one extension share their prefix (`video:` has 21 of them), so a slot holds that many.
 */
const INTERNED_SLOTS = 256;
const INTERNED_PER_SLOT = 24;
const internSlot = (first: number, second: number): number => (first * 31 + second) & (INTERNED_SLOTS - 1);

/** What reading a token returns instead of its end: it runs on past the buffer, or is saxes' to read. */
const INCOMPLETE = -1;
const FOREIGN = -2;
/** A child of the root not taken whole: it goes tag by tag. */
const NOT_WHOLE = -3;
/** Past this many attributes in a tag, duplicates are looked for in a set. */
const FEW_ATTRIBUTES = 8;
const NO_ATTRIBUTES: readonly XmlAttribute[] = Object.freeze([]) as readonly XmlAttribute[];

/**
 * What the tokenizer is doing with what is written: reading it on the fast path; keeping it aside
 * until an entry cut by a chunk's end (`#entryAwaitedAt`) or a long token still open (ended by
 * `#awaited`) can be read whole; handing it to saxes; or nothing, reading having stopped for
 * good. Numbers, so a test of the mode is one compare.
 */
/**
 * A text, comment or CDATA section longer than this, whole in the buffer, goes to saxes: the bridge
 * reads one no further than MAX_TOKEN_CHARS (see `oversized`), and decides that exactly; a margin
 * below it, so the fast path never reads whole one the bridge would cut, however the input came.
 */
const MAX_READ_WHOLE = MAX_TOKEN_CHARS - 16;
const Mode = { Fast: 0, AwaitingEntry: 1, AwaitingToken: 2, Saxes: 3, Stopped: 4 } as const;
type Mode = (typeof Mode)[keyof typeof Mode];

export class XmlTokenizer {
  readonly #events: XmlEvents;
  #mode: Mode = Mode.Fast;
  /** saxes reading what the fast path does not, from the hand-over on (#fallback). */
  #bridge: SaxesBridge | undefined;
  #buffer = '';
  #pos = 0;
  /** Offset of `#buffer` in the whole document, for positions. */
  #bufferOffset = 0;
  readonly #lines = new LineCounter();
  #stack: OpenElement[] = [];
  /** The document's outermost scope: besides `xml`, the prefixes it uses without declaring them (#assumePrefix). */
  readonly #rootScope: Scope = { prefixes: new Map(ROOT_SCOPE.prefixes), parent: undefined };
  #scope: Scope = this.#rootScope;
  readonly #internedNames: (OpenElement[] | undefined)[] = new Array<OpenElement[] | undefined>(INTERNED_SLOTS).fill(undefined);
  #rootClosed = false;
  /**
   * The names of the elements dropped from the stack at the depth cap (`#roomToOpen`), outermost
   * first. Should their end tags come after all, once only the root is open, they are taken silently.
   */
  readonly #forgotten: string[] = [];
  /** The innermost open element has had no child element yet (a misspelt end tag there is most likely its own). */
  #innermostHoldsOnlyText = false;
  /** ...and it has had text that is not whitespace (a field, not a container whose first child is to come). */
  #innermostHasText = false;
  #doctypeSeen = false;
  /** The entry `#scanEntry` saw last: its parts, their texts and where each text is in the buffer. */
  readonly #entryContent = new EntryContent();
  /** The shapes of entry learnt, and the patterns they make, one per element (templates.ts). */
  readonly #entryTemplates: EntryTemplate[] = [];
  #templateSets: TemplateSet[] = [];
  /** Entries taken by a template, and entries scanned tag by tag (each teaching a template). */
  #templateHits = 0;
  #entryScans = 0;
  /** Consecutive children of the root `entry` declined, and how many to skip before trying again. */
  #entryMisses = 0;
  #entrySkips = 0;
  /** Where the entry awaited whole (Mode.AwaitingEntry) starts in the document (-1 for none), and how far its end tag was looked for. */
  #entryAwaitedAt = -1;
  #entrySearchedTo = 0;
  /** Where the entry no longer awaited starts (a finding came after it was cut): it goes tag by tag. */
  #entryGivenUpAt = -1;
  /** What the awaited entry or token waits for, and the input kept aside meanwhile. */
  readonly #awaited = new AwaitedInput();
  /** `end()` has been called: nothing more will come to wait for. Not a mode: the end may come in any. */
  #ending = false;
  #atDocumentStart = true;
  #pendingText = '';
  /** Where the pending text starts: its line ends are counted by the time it is whole. */
  #pendingTextAt: XmlPosition = { line: 1, column: 1 };
  // Where the next `&`, CR and `]` are in the buffer (its length when there is none): text that holds
  // none of them needs no decoding and no check, and each is searched for once, not once per text.
  #nextAmpersand = -1;
  #nextReturn = -1;
  #nextBracket = -1;
  /** Characters written to the fast path so far. */
  #written = 0;

  constructor(events: XmlEvents) {
    this.#events = events;
  }

  /** True once reading has stopped for good (nesting past MAX_PARSED_DEPTH, or the consumer stopped it): what is written after is not read. */
  get stopped(): boolean {
    return this.#mode === Mode.Stopped;
  }

  /** Feeds the next piece of decoded text; `controlsChecked` when the caller has made sure it holds no C0 control but tab, LF and CR. */
  write(chunk: string, controlsChecked = false): void {
    if (this.#mode === Mode.Stopped) return;
    if (this.#mode === Mode.Saxes) {
      this.#toBridge(chunk);
      return;
    }
    if (!mayHoldDisallowedChar(chunk, controlsChecked)) {
      this.#write(chunk);
      return;
    }
    const clean = chunk.replace(DISALLOWED_CHARS, '\uFFFD');
    if (clean === chunk) {
      this.#write(clean);
      return;
    }
    // Past the findings listed, each is counted, all at once: placing each would cost as much as the chunk.
    if (!this.#events.listing) {
      this.#events.unlisted(countDisallowedChars(chunk, 0));
      this.#write(clean);
      return;
    }
    // Written in pieces, each report made once all before it is written: the findings come in the same order however the input was cut.
    let from = 0;
    DISALLOWED_CHARS.lastIndex = 0;
    for (let match = DISALLOWED_CHARS.exec(chunk); match !== null; match = DISALLOWED_CHARS.exec(chunk)) {
      if (match.index > from) this.#write(clean.slice(from, match.index));
      from = match.index;
      this.#readKept();
      if (this.#now() === Mode.Stopped) return;
      if (this.#now() === Mode.Saxes) break;
      if (!this.#events.listing) {
        this.#events.unlisted(1 + countDisallowedChars(chunk, match.index + match[0].length));
        break;
      }
      this.#events.malformed(disallowedCharMessage(chunk, match.index), this.#positionAhead());
    }
    if (this.#now() === Mode.Saxes) this.#toBridge(chunk.slice(from));
    else this.#write(clean.slice(from));
  }

  /** The mode as it is now: a call since the last test may have changed it, which TypeScript's narrowing does not see. */
  #now(): Mode {
    return this.#mode;
  }

  /** A chunk free of disallowed characters, on the fast path. */
  #write(chunk: string): void {
    this.#written += chunk.length;
    if (this.#mode === Mode.AwaitingEntry || this.#mode === Mode.AwaitingToken) {
      if (this.#awaited.keeps(chunk, this.#mode === Mode.AwaitingEntry)) return;
      // The awaited entry ends in this chunk: read up to its end first, then the rest on its own.
      // Joined whole to the entry's start, the chunk would be copied; this way only the entry's end is.
      const end = this.#awaited.endsAt;
      if (end > 0 && end < chunk.length) {
        this.#read(chunk.slice(0, end));
        if (this.#now() === Mode.Stopped) return;
        if (this.#now() === Mode.Saxes) this.#toBridge(chunk.slice(end));
        else this.#read(chunk, end);
        return;
      }
    }
    this.#read(chunk);
  }

  /**
   * Reads what is kept aside for an awaited entry or token before a finding is placed after it: read
   * whole, the token could have been judged (handed to saxes, say) before that finding, and the
   * entry's own findings, which come before it in the document, would come after it. The entry
   * goes tag by tag from there, as one too long to wait for does, whichever way the input was cut.
   */
  #readKept(): void {
    if (this.#mode === Mode.AwaitingEntry) {
      this.#entryGivenUpAt = this.#entryAwaitedAt;
      this.#entryAwaitedAt = -1;
      this.#mode = Mode.Fast;
      this.#read('');
    } else if (this.#mode === Mode.AwaitingToken) {
      this.#read('');
    }
  }

  /** Reads `chunk` from `from` on (what is before was read already). */
  #read(chunk: string, from = 0): void {
    if (this.#mode === Mode.AwaitingToken) this.#mode = Mode.Fast;
    this.#lines.countTo(this.#buffer, this.#bufferOffset, this.#bufferOffset + this.#pos);
    this.#bufferOffset += this.#pos;
    const kept = this.#awaited.kept;
    if (this.#pos === this.#buffer.length && kept.length === 0) {
      // Read in place, not sliced: every character read from a slice takes a detour.
      this.#buffer = chunk;
      this.#bufferOffset -= from;
      this.#pos = from;
    } else {
      // Joined, not concatenated: `+` makes a rope, and every character read from a rope takes a detour.
      this.#buffer = [this.#buffer.slice(this.#pos), ...kept, from === 0 ? chunk : chunk.slice(from)].join('');
      this.#pos = 0;
    }
    kept.length = 0;
    this.#lines.newBuffer();
    this.#nextAmpersand = -1;
    this.#nextReturn = -1;
    this.#nextBracket = -1;
    this.#run();
    if (this.#mode < Mode.Saxes && (this.#buffer.length - this.#pos > MAX_TOKEN_CHARS || this.#pendingText.length > MAX_TOKEN_CHARS)) {
      this.#fallback(this.#buffer.slice(this.#pos));
    } else if (this.#mode === Mode.Fast && this.#buffer.length - this.#pos > MIN_AWAITED_TOKEN_CHARS && this.#awaited.token(this.#buffer, this.#pos)) {
      // A long token still open (a comment, a tag with a long value…) waits as an awaited entry does.
      this.#mode = Mode.AwaitingToken;
    }
  }

  /** Ends the document: anything unfinished is an error that saxes names. */
  end(): void {
    if (this.#mode === Mode.Stopped) return;
    this.#ending = true;
    // An entry awaited whole will not be: what there is of it goes tag by tag, as it would have without the wait.
    if (this.#mode === Mode.AwaitingEntry || this.#mode === Mode.AwaitingToken) {
      this.#buffer = [this.#buffer, ...this.#awaited.kept].join('');
      this.#awaited.kept.length = 0;
      if (this.#mode === Mode.AwaitingToken) this.#mode = Mode.Fast;
      // What was found next in the shorter buffer (its length when nothing) no longer holds.
      this.#lines.newBuffer();
      this.#nextAmpersand = -1;
      this.#nextReturn = -1;
      this.#nextBracket = -1;
      this.#run();
    }
    if (this.#mode < Mode.Saxes) {
      const rest = this.#buffer.slice(this.#pos);
      if (this.#rootClosed && this.#pendingText === '' && ONLY_WHITESPACE.test(rest)) return;
      this.#fallback(rest);
    }
    const bridge = this.#bridge;
    if (this.#mode === Mode.Saxes && bridge !== undefined) {
      bridge.close();
      if (bridge.stopped) this.#mode = Mode.Stopped;
    }
  }

  /** Line and column (1-based) of the token being handled. */
  position(): XmlPosition {
    if (this.#mode >= Mode.Saxes) return (this.#bridge as SaxesBridge).position();
    return this.#positionAt(this.#bufferOffset + this.#pos);
  }

  /** The text held from the token being handled on (an entry taken whole is all there); none once saxes reads. */
  heldFromToken(): string | undefined {
    return this.#mode < Mode.Saxes ? this.#buffer.slice(this.#pos) : undefined;
  }

  /** Line and column (1-based) where the next character written will be. */
  writtenTo(): XmlPosition {
    this.#readKept();
    if (this.#mode < Mode.Saxes) return this.#positionAhead();
    return (this.#bridge as SaxesBridge).writtenTo();
  }

  /** Line and column at the end of all that was written, the line count not moved on (see LineCounter.ahead). */
  #positionAhead(): XmlPosition {
    return this.#lines.ahead(this.#buffer, this.#bufferOffset, this.#awaited.kept, this.#written);
  }

  #positionAt(offset: number): XmlPosition {
    return this.#lines.positionAt(this.#buffer, this.#bufferOffset, offset);
  }

  #run(): void {
    const buffer = this.#buffer;
    const events = this.#events;
    let pos = this.#pos;
    while (pos < buffer.length) {
      // Tags mostly follow tags: look at the next character before searching.
      const lt = buffer.charCodeAt(pos) === Char.Less ? pos : buffer.indexOf('<', pos);
      if (lt === -1) {
        // Text runs on into the next chunk; keep what is captured, check the rest when it ends.
        if (!this.#text(pos, buffer.length, false)) return;
        pos = buffer.length;
        break;
      }
      if ((lt > pos || this.#pendingText !== '') && !this.#text(pos, lt, true)) return;
      this.#pos = lt;
      const next = buffer.charCodeAt(lt + 1);
      let end: number;
      if (next === Char.Slash) end = this.#closeTag(lt);
      else if (next === Char.Bang) end = this.#bang(lt);
      else if (next === Char.Question) end = this.#processingInstruction(lt);
      else end = this.#startTag(lt, events);
      if (end === INCOMPLETE) return;
      if (end === FOREIGN) {
        this.#fallback(buffer.slice(lt));
        return;
      }
      this.#atDocumentStart = false;
      pos = end;
    }
    this.#pos = pos;
  }

  /** Text between markup; `complete` when a `<` ends it. Returns false when saxes took over. */
  #text(start: number, end: number, complete: boolean): boolean {
    if (complete && this.#pendingText === '' && this.#stack.length > 0 && end - start <= MAX_READ_WHOLE && this.#plain(start, end)) {
      const capturing = this.#events.capturing;
      if (capturing || (this.#innermostHoldsOnlyText && !this.#innermostHasText)) {
        const text = this.#buffer.slice(start, end);
        this.#noteText(text);
        if (capturing) this.#events.text(text);
      }
      return true;
    }
    const raw = this.#buffer.slice(start, end);
    if (!complete) {
      // A text run split across chunks is judged whole; hold it until its end arrives.
      if (this.#pendingText === '') this.#pendingTextAt = this.#positionAt(this.#bufferOffset + start);
      this.#pendingText += raw;
      this.#pos = end;
      return true;
    }
    // Findings in a text are placed from its start, wherever the chunks were cut (counted only when needed).
    const pendingAt = this.#pendingText === '' ? undefined : this.#pendingTextAt;
    const whole = this.#pendingText === '' ? raw : this.#pendingText + raw;
    this.#pendingText = '';
    if (whole.length > MAX_READ_WHOLE && this.#stack.length > 0) {
      this.#fallback(whole + this.#buffer.slice(end), pendingAt ?? this.#positionAt(this.#bufferOffset + start));
      return false;
    }
    if (this.#stack.length === 0) {
      if (!ONLY_WHITESPACE.test(whole)) {
        this.#fallback(whole + this.#buffer.slice(end), pendingAt ?? this.#positionAt(this.#bufferOffset + start));
        return false;
      }
      this.#atDocumentStart = false;
      return true;
    }
    // One-character searches are the fast ones; `]` is rare in text. Before the references: saxes reports a bare `&` in it too.
    if (whole.indexOf(']') !== -1 && whole.indexOf(']]>') !== -1) {
      this.#fallback(whole + this.#buffer.slice(end), pendingAt ?? this.#positionAt(this.#bufferOffset + start));
      return false;
    }
    // Line ends first: a character reference to CR (`&#13;`) is a CR, not a line end.
    let text = normalizeNewlines(whole);
    if (text.indexOf('&') !== -1) {
      const decoded = decodeEntities(text);
      if (decoded === undefined) {
        // The commonest breakage in the wild: a bare `&` in a URL. Read it literally and go on.
        // Each placed at the `&` from the text's start: its line ends are the document's, one LF for each.
        this.#reportBareAmpersands(text, pendingAt ?? this.#positionAt(this.#bufferOffset + start));
        text = decodeEntitiesLeniently(text);
      } else {
        text = decoded;
      }
    }
    this.#noteText(text);
    if (this.#events.capturing) this.#events.text(text);
    return true;
  }

  /** Each `&` of a text (line ends normalized) that starts no reference, the text starting at `start`; past the findings listed, counted. */
  #reportBareAmpersands(text: string, start: XmlPosition): void {
    const events = this.#events;
    let place = start;
    let from = 0;
    for (let bare = bareAmpersand(text); bare !== -1; bare = bareAmpersand(text, bare + 1)) {
      if (!events.listing) {
        events.unlisted(countBareAmpersands(text, bare));
        return;
      }
      // Each placed from the one before, so a text of many stays linear.
      place = positionIn(text.slice(from, bare), bare - from, place);
      from = bare;
      events.malformed(`"&" that starts no entity reference (${clipAround(text, '&', bare)}); read literally, write &amp;`, place);
    }
  }

  /** The buffer's text from `start` to `end` holds no `&`, CR or `]`: it is its own value and well-formed. */
  #plain(start: number, end: number): boolean {
    const buffer = this.#buffer;
    if (this.#nextAmpersand < start) this.#nextAmpersand = indexOrLength(buffer, '&', start);
    if (this.#nextAmpersand < end) return false;
    if (this.#nextReturn < start) this.#nextReturn = indexOrLength(buffer, '\r', start);
    if (this.#nextReturn < end) return false;
    if (this.#nextBracket < start) this.#nextBracket = indexOrLength(buffer, ']', start);
    return this.#nextBracket >= end;
  }

  #startTag(lt: number, events: XmlEvents): number {
    const buffer = this.#buffer;
    if (this.#rootClosed) return FOREIGN;
    // The common case, `<name>` seen before in this scope: matched in place, no slice, no lookup, no allocation.
    const known = this.#seen(lt);
    if (known !== undefined) {
      if (!this.#roomToOpen()) return FOREIGN;
      const end = lt + 2 + known.qname.length;
      if (this.#stack.length === 1 && events.wantsEntries) {
        if (this.#entrySkips > 0) this.#entrySkips--;
        else {
          const entryEnd = this.#entry(known, lt, events);
          if (entryEnd === INCOMPLETE) return INCOMPLETE;
          if (entryEnd !== NOT_WHOLE) {
            this.#entryMisses = 0;
            return entryEnd;
          }
          // Entries this path cannot take tend to come in runs: back off, so they cost little more than the usual path.
          this.#entrySkips = Math.min(2 ** this.#entryMisses++ - 1, MAX_ENTRY_SKIPS);
        }
      }
      const leafEnd = this.#leaf(known, end, events);
      if (leafEnd !== -1) return leafEnd;
      events.open(known.ns, known.local, NO_ATTRIBUTES);
      this.#stack.push(known);
      this.#innermostHoldsOnlyText = true;
      this.#innermostHasText = false;
      return end;
    }
    const slot = internSlot(buffer.charCodeAt(lt + 1), buffer.charCodeAt(lt + 2));
    let i = lt + 1;
    if (!isNameStart(buffer.charCodeAt(i))) return i >= buffer.length ? INCOMPLETE : FOREIGN;
    while (isNameChar(buffer.charCodeAt(i))) i++;
    if (i >= buffer.length) return INCOMPLETE;
    const qname = buffer.slice(lt + 1, i);
    if (buffer.charCodeAt(i) === Char.Greater) {
      const element = this.#intern(slot, qname);
      if (element === undefined || !this.#roomToOpen()) return FOREIGN;
      events.open(element.ns, element.local, NO_ATTRIBUTES);
      this.#stack.push(element);
      this.#innermostHoldsOnlyText = true;
      this.#innermostHasText = false;
      return i + 1;
    }
    let attributes: { qname: string; value: string }[] | undefined;
    let qnames: Set<string> | undefined;
    /** Each bare `&`: its attribute's value (whitespace made spaces), where it is in that value, and where it stands in the buffer. */
    let bareAmpersands: { value: string; bare: number; at: number }[] | undefined;
    /** Those past the most that can be listed: only counted. */
    let moreBareAmpersands = 0;
    let selfClosing = false;
    for (;;) {
      const afterName = i;
      while (isSpace(buffer.charCodeAt(i))) i++;
      if (i >= buffer.length) return INCOMPLETE;
      const c = buffer.charCodeAt(i);
      if (c === Char.Greater) {
        i++;
        break;
      }
      if (c === Char.Slash) {
        if (i + 1 >= buffer.length) return INCOMPLETE;
        if (buffer.charCodeAt(i + 1) !== Char.Greater) return FOREIGN;
        selfClosing = true;
        i += 2;
        break;
      }
      if (i === afterName || !isNameStart(c)) return FOREIGN;
      const nameStart = i;
      while (isNameChar(buffer.charCodeAt(i))) i++;
      const name = buffer.slice(nameStart, i);
      while (isSpace(buffer.charCodeAt(i))) i++;
      if (i >= buffer.length) return INCOMPLETE;
      if (buffer.charCodeAt(i) !== Char.Equals) return FOREIGN;
      i++;
      while (isSpace(buffer.charCodeAt(i))) i++;
      if (i >= buffer.length) return INCOMPLETE;
      const quote = buffer.charCodeAt(i);
      if (quote !== Char.Quote && quote !== Char.Apostrophe) return FOREIGN;
      const close = buffer.indexOf(quote === Char.Quote ? '"' : "'", i + 1);
      if (close === -1) return INCOMPLETE;
      let value = buffer.slice(i + 1, close);
      if (value.indexOf('<') !== -1) return FOREIGN;
      // §3.3.3: literal whitespace becomes a space; references are expanded after, and kept as they are.
      value = value.replace(/\r\n|[\t\n\r]/g, ' ');
      if (value.indexOf('&') !== -1) {
        const decoded = decodeEntities(value);
        if (decoded === undefined) {
          // Said once the tag is whole: a tag cut by a chunk end is read again, and would say it again.
          // Whitespace made spaces keeps its length but for a CRLF (one space): the raw value tells where each `&` is, the nth there the nth in the value.
          const raw = buffer.slice(i + 1, close);
          for (let bare = bareAmpersand(value), rawBare = bareAmpersand(raw); bare !== -1; bare = bareAmpersand(value, bare + 1), rawBare = bareAmpersand(raw, rawBare + 1)) {
            if ((bareAmpersands ??= []).length < MAX_MALFORMED_REPORTS) bareAmpersands.push({ value, bare, at: i + 1 + rawBare });
            else moreBareAmpersands++;
          }
          value = decodeEntitiesLeniently(value);
        } else {
          value = decoded;
        }
      }
      attributes ??= [];
      // A tag may hold thousands: past a few, a set keeps the check for duplicates linear.
      if (attributes.length < FEW_ATTRIBUTES ? attributes.some((attribute) => attribute.qname === name) : (qnames ??= new Set(attributes.map((attribute) => attribute.qname))).has(name)) return FOREIGN;
      attributes.push({ qname: name, value });
      qnames?.add(name);
      i = close + 1;
    }
    if (!this.#roomToOpen()) return FOREIGN;

    let scope = this.#scope;
    if (attributes !== undefined) {
      let declared: Map<string, string> | undefined;
      for (const { qname: name, value } of attributes) {
        // saxes trims namespace names (and then judges what is left); such declarations are its to read.
        if ((name === 'xmlns' || name.startsWith('xmlns:')) && value !== value.trim()) return FOREIGN;
        if (name === 'xmlns') {
          if (value === XML_NS || value === XMLNS_NS) return FOREIGN;
          (declared ??= new Map()).set('', KNOWN_NAMESPACES.get(value) ?? value);
        } else if (name.startsWith('xmlns:')) {
          const prefix = name.slice(6);
          // Undeclaring a prefix, binding the reserved ones, or a malformed QName: saxes decides.
          if (value === '' || prefix === '' || prefix === 'xmlns' || prefix.indexOf(':') !== -1 || (prefix === 'xml') !== (value === XML_NS) || value === XMLNS_NS) return FOREIGN;
          (declared ??= new Map()).set(prefix, KNOWN_NAMESPACES.get(value) ?? value);
        }
      }
      if (declared !== undefined) scope = { prefixes: declared, parent: scope };
    }
    const element = this.#resolve(qname, scope, true);
    if (element === undefined) return FOREIGN;
    let resolved: readonly XmlAttribute[] = NO_ATTRIBUTES;
    if (attributes !== undefined) {
      const list: XmlAttribute[] = [];
      resolved = list;
      let expanded: Set<string> | undefined;
      for (const { qname: name, value } of attributes) {
        if (name === 'xmlns' || name.startsWith('xmlns:')) continue;
        const attribute = this.#resolve(name, scope, false);
        if (attribute === undefined) return FOREIGN;
        if (list.length < FEW_ATTRIBUTES) {
          if (list.some((other) => other.ns === attribute.ns && other.local === attribute.local)) return FOREIGN;
        } else {
          expanded ??= new Set(list.map((other) => `${other.ns} ${other.local}`));
          const key = `${attribute.ns} ${attribute.local}`;
          if (expanded.has(key)) return FOREIGN;
          expanded.add(key);
        }
        list.push({ ns: attribute.ns, local: attribute.local, value });
      }
    }

    if (bareAmpersands !== undefined) {
      // Each placed from the one before, so a tag of many stays linear.
      let from = lt;
      let place = this.position();
      let unlisted = moreBareAmpersands;
      for (const [k, { value, bare, at }] of bareAmpersands.entries()) {
        if (!events.listing) {
          unlisted += bareAmpersands.length - k;
          break;
        }
        place = positionIn(buffer.slice(from, at), at - from, place);
        from = at;
        events.malformed(`"&" that starts no entity reference in an attribute (${clipAround(value, '&', bare)}); read literally, write &amp;`, place);
      }
      if (unlisted > 0) events.unlisted(unlisted);
    }
    events.open(element.ns, element.local, resolved);
    if (selfClosing) {
      events.close();
      this.#innermostHoldsOnlyText = false;
      if (this.#stack.length === 0) this.#rootClosed = true;
    } else {
      this.#stack.push({ qname, raw: buffer.slice(lt, i), scope, ns: element.ns, local: element.local });
      this.#scope = scope;
      this.#innermostHoldsOnlyText = true;
      this.#innermostHasText = false;
    }
    return i;
  }

  /** The attribute-less start tag `<name>` at `lt`, if that name was seen before in this scope. */
  #seen(lt: number): OpenElement | undefined {
    const buffer = this.#buffer;
    const seen = this.#internedNames[internSlot(buffer.charCodeAt(lt + 1), buffer.charCodeAt(lt + 2))];
    if (seen === undefined) return undefined;
    for (const element of seen) {
      if (element.scope === this.#scope && buffer.charCodeAt(lt + 1 + element.qname.length) === Char.Greater && matchesAt(buffer, lt + 1, element.qname)) return element;
    }
    return undefined;
  }

  /**
   * The element whose start tag ends at `start`, if it is `<name>text</name>` with the end tag right
   * there (no space before its `>`) and text that is well-formed on sight (no CR, no `]`, only valid
   * references): offered to the consumer in one event. Returns the end, or -1 for the usual path.
   */
  #leaf(element: OpenElement, start: number, events: XmlEvents): number {
    const buffer = this.#buffer;
    const lt = buffer.indexOf('<', start);
    if (lt === -1) return -1;
    const text = this.#leafText(element, start, lt);
    if (text === undefined) return -1;
    if (!events.leaf(element.ns, element.local, text)) return -1;
    this.#innermostHoldsOnlyText = false;
    return lt + 3 + element.qname.length;
  }

  /** The decoded text from `start` to `lt` if `lt` starts the end tag of `element` and the text is well-formed on sight. */
  #leafText(element: OpenElement, start: number, lt: number): string | undefined {
    const buffer = this.#buffer;
    const qname = element.qname;
    if (buffer.charCodeAt(lt + 1) !== Char.Slash || buffer.charCodeAt(lt + 2 + qname.length) !== Char.Greater || !matchesAt(buffer, lt + 2, qname)) return undefined;
    return this.#plainText(start, lt);
  }

  /** The text from `start` to `end` (no `<` in it) decoded, if it is well-formed on sight: no CR, no `]`, only valid references. */
  #plainText(start: number, end: number): string | undefined {
    if (end === start) return '';
    const buffer = this.#buffer;
    if (this.#nextReturn < start) this.#nextReturn = indexOrLength(buffer, '\r', start);
    if (this.#nextBracket < start) this.#nextBracket = indexOrLength(buffer, ']', start);
    if (this.#nextReturn < end || this.#nextBracket < end) return undefined;
    const text = buffer.slice(start, end);
    if (this.#nextAmpersand < start) this.#nextAmpersand = indexOrLength(buffer, '&', start);
    return this.#nextAmpersand < end ? decodeEntities(text) : text;
  }

  /**
   * A whole child of the root starting at `lt`, offered to the consumer in one event: returns its
   * end, NOT_WHOLE (nothing taken) for the usual path, or INCOMPLETE when the entry runs on past
   * the buffer. Generated sitemaps repeat one or two shapes of entry, so the markup of each shape
   * is learnt once and later entries are matched against it literally, a few native compares
   * instead of tag after tag.
   */
  #entry(element: OpenElement, lt: number, events: XmlEvents): number {
    // Entries that keep changing shape miss every template and are scanned twice: then the usual path serves.
    if (this.#templateHits + TEMPLATE_WARMUP < this.#entryScans * TEMPLATE_MIN_HITS_PER_SCAN) return NOT_WHOLE;
    // Still waiting for the rest of this entry: nothing to try until its end tag has come.
    if (this.#bufferOffset + lt === this.#entryAwaitedAt && this.#runsPastBuffer(element, lt)) return INCOMPLETE;
    const end = this.#templateEntries(element, lt, events);
    if (end !== lt) return end;
    const scanned = this.#scanEntry(element, lt + 2 + element.qname.length);
    if (scanned !== -1) this.#entryContent.source = this.#buffer;
    if (scanned === -1 || !events.entry(element, this.#entryContent, this.#entryContent.texts)) {
      // The scan looked ahead of where reading resumes: what it found next holds only from there on.
      this.#nextAmpersand = -1;
      this.#nextReturn = -1;
      this.#nextBracket = -1;
      // An entry cut by the chunk's end is no other shape: it is tried whole again once it is all there.
      if (scanned === -1 && this.#runsPastBuffer(element, lt)) return INCOMPLETE;
      this.#entryScans++;
      return NOT_WHOLE;
    }
    this.#entryScans++;
    const sets = learnTemplate(this.#entryTemplates, element, this.#entryContent, this.#buffer, lt, scanned);
    if (sets !== undefined) this.#templateSets = sets;
    return this.#templateEntries(element, scanned, events);
  }

  /**
   * True when the entry at `lt` has no end tag in the buffer and is short enough to wait for: it
   * is then awaited, and each later look searches only the text that came since.
   */
  #runsPastBuffer(element: OpenElement, lt: number): boolean {
    const buffer = this.#buffer;
    const at = this.#bufferOffset + lt;
    const endTag = `</${element.qname}>`;
    const from = at === this.#entryAwaitedAt ? Math.max(lt, this.#entrySearchedTo - this.#bufferOffset - endTag.length + 1) : lt;
    if (this.#ending || at === this.#entryGivenUpAt || buffer.length - lt > MAX_AWAITED_ENTRY_CHARS || buffer.indexOf(endTag, from) !== -1) {
      this.#entryAwaitedAt = -1;
      if (this.#mode === Mode.AwaitingEntry) this.#mode = Mode.Fast;
      return false;
    }
    this.#entryAwaitedAt = at;
    this.#mode = Mode.AwaitingEntry;
    this.#entrySearchedTo = this.#bufferOffset + buffer.length;
    this.#awaited.entry(buffer, lt, endTag);
    return true;
  }

  /**
   * Entries from `at` on, while each has the markup of a template: returns the end of the last
   * one taken, or `at`. The whitespace between them (CRLF line ends included) has nothing to report.
   */
  #templateEntries(element: OpenElement, at: number, events: XmlEvents): number {
    const buffer = this.#buffer;
    const sets = this.#templateSets;
    let taken = at;
    let p = at;
    next: for (;;) {
      let c = buffer.charCodeAt(p);
      while (isSpace(c)) c = buffer.charCodeAt(++p);
      // The entry's own start is where the consumer's `position()` must point.
      this.#pos = p;
      for (let k = 0; k < sets.length; k++) {
        const set = sets[k] as TemplateSet;
        if (set.element !== element) continue;
        const { pattern } = set;
        pattern.lastIndex = p;
        const match = pattern.exec(buffer);
        if (match === null) continue;
        const end = pattern.lastIndex;
        const { templates } = set;
        let template = templates[0] as EntryTemplate;
        for (let t = 1; match[template.marker] === undefined; t++) template = templates[t] as EntryTemplate;
        // Where the next `]` and `&` are: each searched for once in the buffer, not once per entry.
        if (this.#nextBracket < p) this.#nextBracket = indexOrLength(buffer, ']', p);
        if (this.#nextAmpersand < p) this.#nextAmpersand = indexOrLength(buffer, '&', p);
        const ampersand = fillTemplate(template, match, p, buffer, this.#nextBracket, this.#nextAmpersand);
        if (ampersand === -1) {
          // Declined: reading resumes before the texts it looked at, so the next `]` is looked for again.
          this.#nextBracket = -1;
          break;
        }
        if (!events.entry(element, template.content, match)) break;
        // Taken: reading resumes at its end, and no `&` is between that and this one.
        this.#nextAmpersand = ampersand;
        template.hits++;
        this.#templateHits++;
        taken = end;
        p = end;
        continue next;
      }
      this.#pos = taken;
      return taken;
    }
  }


  /**
   * The child of the root whose start tag ends at `start`, tag by tag: leaves, groups of leaves
   * two deep (attribute-less, seen before) and empty elements with attributes, whitespace between
   * (space, tab, LF, CR). Fills `#entryContent` (its texts and their bounds); returns the end, or -1.
   */
  #scanEntry(element: OpenElement, start: number): number {
    const buffer = this.#buffer;
    const content = this.#entryContent;
    const bounds = this.#entryContent.bounds;
    content.count = 0;
    content.memo = undefined;
    const groups: OpenElement[] = [];
    let p = start;
    for (;;) {
      let c = buffer.charCodeAt(p);
      while (isSpace(c)) c = buffer.charCodeAt(++p);
      if (c !== Char.Less) return -1;
      if (buffer.charCodeAt(p + 1) === Char.Slash) {
        const open = groups.pop() ?? element;
        const gt = p + 2 + open.qname.length;
        if (buffer.charCodeAt(gt) !== Char.Greater || !matchesAt(buffer, p + 2, open.qname)) return -1;
        p = gt + 1;
        if (open === element) return p;
        content.push(EntryPart.GroupEnd, open, '');
        continue;
      }
      const child = this.#seen(p);
      if (child === undefined) {
        p = this.#scanWithAttributes(p, groups.length > 0);
        if (p === -1) return -1;
        continue;
      }
      const after = p + 2 + child.qname.length;
      const lt = buffer.indexOf('<', after);
      if (lt === -1) return -1;
      if (buffer.charCodeAt(lt + 1) !== Char.Slash) {
        // A group holds leaves and groups of leaves (news:publication in news:news); it starts with whitespace or its first child.
        if (groups.length >= MAX_ENTRY_GROUP_DEPTH) return -1;
        content.push(EntryPart.GroupStart, child, '');
        groups.push(child);
        p = after;
        continue;
      }
      const text = this.#leafText(child, after, lt);
      if (text === undefined) return -1;
      bounds[2 * content.count] = after;
      bounds[2 * content.count + 1] = lt;
      content.push(groups.length === 0 ? EntryPart.Leaf : EntryPart.GroupLeaf, child, text);
      p = lt + 3 + child.qname.length;
    }
  }

  /**
   * A tag with at least one attribute at `lt`, each well-formed on sight (no namespace declaration,
   * no whitespace but spaces in a value, only valid references): outside groups an empty element
   * `<name a="…"/>` (its start, attributes and end), inside a group a leaf `<name a="…">text</name>`
   * (its start, attributes and text), pushed to `#entryContent`. Returns its end, or -1.
   */
  #scanWithAttributes(lt: number, inGroup: boolean): number {
    const buffer = this.#buffer;
    const content = this.#entryContent;
    const bounds = this.#entryContent.bounds;
    let i = lt + 1;
    if (!isNameStart(buffer.charCodeAt(i))) return -1;
    while (isNameChar(buffer.charCodeAt(i))) i++;
    const qname = buffer.slice(lt + 1, i);
    const name = resolveName(qname, this.#scope, true);
    if (name === undefined) return -1;
    const first = content.count + 1;
    content.push(inGroup ? EntryPart.AttributedStart : EntryPart.EmptyStart, name, '');
    for (;;) {
      const afterName = i;
      let c = buffer.charCodeAt(i);
      while (isSpace(c)) c = buffer.charCodeAt(++i);
      if (c === Char.Slash) {
        if (inGroup || buffer.charCodeAt(i + 1) !== Char.Greater || content.count === first) return -1;
        content.push(EntryPart.EmptyEnd, name, '');
        return i + 2;
      }
      if (c === Char.Greater) {
        if (!inGroup || content.count === first) return -1;
        // The text, then the end tag right there, as for a leaf.
        const textStart = i + 1;
        const end = buffer.indexOf('<', textStart);
        if (end === -1 || buffer.charCodeAt(end + 1) !== Char.Slash || buffer.charCodeAt(end + 2 + qname.length) !== Char.Greater || !matchesAt(buffer, end + 2, qname)) return -1;
        const text = this.#plainText(textStart, end);
        if (text === undefined) return -1;
        bounds[2 * content.count] = textStart;
        bounds[2 * content.count + 1] = end;
        content.push(EntryPart.AttributedText, name, text);
        return end + 3 + qname.length;
      }
      if (i === afterName || !isNameStart(c)) return -1;
      const nameStart = i;
      while (isNameChar(buffer.charCodeAt(i))) i++;
      const quote = buffer.charCodeAt(i + 1);
      if (buffer.charCodeAt(i) !== Char.Equals || (quote !== Char.Quote && quote !== Char.Apostrophe)) return -1;
      const attributeQname = buffer.slice(nameStart, i);
      if (attributeQname === 'xmlns' || attributeQname.startsWith('xmlns:')) return -1;
      const attribute = resolveName(attributeQname, this.#scope, false);
      if (attribute === undefined) return -1;
      for (let k = first; k < content.count; k++) {
        const other = content.names[k] as XmlName;
        if (other.ns === attribute.ns && other.local === attribute.local) return -1;
      }
      const start = i + 2;
      const close = buffer.indexOf(quote === Char.Quote ? '"' : "'", start);
      if (close === -1) return -1;
      const value = attributeValueOnSight(buffer.slice(start, close));
      if (value === undefined) return -1;
      bounds[2 * content.count] = start;
      bounds[2 * content.count + 1] = close;
      content.push(EntryPart.Attribute, attribute, value);
      i = close + 1;
    }
  }

  /** An attribute-less element, resolved in the current scope and remembered for the fast path. */
  #intern(slot: number, qname: string): OpenElement | undefined {
    const name = this.#resolve(qname, this.#scope, true);
    if (name === undefined) return undefined;
    const element: OpenElement = { qname, raw: `<${qname}>`, scope: this.#scope, ns: name.ns, local: name.local };
    const seen = (this.#internedNames[slot] ??= []);
    // A few names per slot; past that the oldest makes room (a miss costs only the slow path).
    if (seen.length >= INTERNED_PER_SLOT) seen.shift();
    seen.push(element);
    return element;
  }

  /** A name resolved in `scope`; a prefix never declared is taken as meant (#assumePrefix). */
  #resolve(qname: string, scope: Scope, isElement: boolean): XmlName | undefined {
    const name = resolveName(qname, scope, isElement);
    if (name !== undefined) return name;
    const colon = qname.indexOf(':');
    if (colon <= 0 || colon === qname.length - 1 || qname.indexOf(':', colon + 1) !== -1) return undefined;
    const prefix = qname.slice(0, colon);
    if (prefix === 'xmlns' || lookup(scope, prefix) !== undefined) return undefined;
    this.#assumePrefix(prefix);
    return resolveName(qname, scope, isElement);
  }

  /**
   * A prefix used without being declared (`<image:image>` with no `xmlns:image`, common by hand):
   * one R2, then read as the namespace it stands for in sitemaps, or (as saxes does) as a namespace
   * named by the prefix, which no extension has. saxes would report every such element and reach
   * the cap on findings after a few dozen entries.
   */
  #assumePrefix(prefix: string): void {
    this.#rootScope.prefixes.set(prefix, assumedNamespace(prefix));
    this.#events.malformed(unboundPrefixMessage(prefix), this.position());
  }

  /**
   * Whether an element may open at the current depth. At the cap, entries ended by the next one
   * opening inside them make room (with every `</url>` missing, each entry nests one deeper): they
   * leave the stack, if none of them declared a namespace (later lookups would walk their scopes).
   */
  #roomToOpen(): boolean {
    const stack = this.#stack;
    if (stack.length < MAX_DEPTH) return true;
    const ended = Math.min(this.#events.endedEntries, stack.length - 1);
    if (ended === 0 || stack[ended]?.scope !== stack[0]?.scope || this.#forgotten.length + ended > MAX_FORGOTTEN) return false;
    for (const { qname } of stack.splice(1, ended)) this.#forgotten.push(qname);
    this.#events.forgetEndedEntries(ended);
    return true;
  }

  #closeTag(lt: number): number {
    const buffer = this.#buffer;
    const top = this.#stack[this.#stack.length - 1];
    if (top === undefined) return FOREIGN;
    const nameEnd = lt + 2 + top.qname.length;
    // An end tag already whole though shorter than the open element's name (`</urlset>` at the very end, `<image:image>` open) is another's.
    if (nameEnd >= buffer.length) return buffer.indexOf('>', lt + 2) === -1 ? INCOMPLETE : this.#mismatchedCloseTag(lt);
    if (!matchesAt(buffer, lt + 2, top.qname) || isNameChar(buffer.charCodeAt(nameEnd))) return this.#mismatchedCloseTag(lt);
    let i = nameEnd;
    while (isSpace(buffer.charCodeAt(i))) i++;
    if (i >= buffer.length) return INCOMPLETE;
    if (buffer.charCodeAt(i) !== Char.Greater) return FOREIGN;
    if (this.#stack.length === 1 && this.#forgotten.length > 0) {
      // Entries forgotten at the depth cap are still open: their end tags are missing after all.
      this.#events.malformed(`</${top.qname}> comes before </${this.#forgotten[this.#forgotten.length - 1] ?? ''}>; read as if the elements inside <${top.qname}> had ended there`, this.position());
      this.#forgotten.length = 0;
    }
    this.#closeElement();
    return i + 1;
  }

  /** Notes text (from a `<loc>`, say) in the innermost element, as long as it has no child element. */
  #noteText(text: string): void {
    if (this.#innermostHoldsOnlyText && !this.#innermostHasText && !ONLY_WHITESPACE.test(text)) this.#innermostHasText = true;
  }

  #closeElement(): void {
    this.#stack.pop();
    this.#innermostHoldsOnlyText = false;
    this.#scope = this.#stack[this.#stack.length - 1]?.scope ?? this.#rootScope;
    this.#events.close();
    if (this.#stack.length === 0) this.#rootClosed = true;
  }

  /**
   * An end tag that is not the open element's: after a bare `&`, what hand-edited files get wrong
   * most. One naming an element further out closes those inside it too (their end tags were left
   * out); one naming no open element is ignored (a typo, a stray tag). saxes would take the root as
   * closed and drop every entry after it.
   */
  #mismatchedCloseTag(lt: number): number {
    const buffer = this.#buffer;
    let i = lt + 2;
    if (!isNameStart(buffer.charCodeAt(i))) return i >= buffer.length ? INCOMPLETE : FOREIGN;
    while (isNameChar(buffer.charCodeAt(i))) i++;
    const qname = buffer.slice(lt + 2, i);
    while (isSpace(buffer.charCodeAt(i))) i++;
    if (i >= buffer.length) return INCOMPLETE;
    if (buffer.charCodeAt(i) !== Char.Greater) return FOREIGN;
    const stack = this.#stack;
    const open = (stack[stack.length - 1] as OpenElement).qname;
    let depth = stack.length - 1;
    while (depth >= 0 && (stack[depth] as OpenElement).qname !== qname) depth--;
    if (depth === -1 && stack.length === 1 && this.#forgotten[this.#forgotten.length - 1] === qname) {
      // The end of an entry forgotten at the depth cap: the entries were nested after all.
      this.#forgotten.pop();
      return i + 1;
    }
    if (depth === -1 && stack.length > 2 && this.#innermostHoldsOnlyText && this.#innermostHasText) {
      // `<video:title>T</video:description>`: the end of the element that holds only text, misspelt; ignored, the next field would run into it.
      this.#events.malformed(`</${qname}> ends no open element; read as the end of <${open}>, which holds only text`, this.position());
      this.#closeElement();
      return i + 1;
    }
    if (depth === -1) {
      this.#events.malformed(`</${qname}> ends no open element (<${open}> is open); ignored`, this.position());
      return i + 1;
    }
    this.#events.malformed(`</${qname}> comes before </${open}>; read as if the elements inside <${qname}> had ended there`, this.position());
    // Those forgotten at the depth cap end with the root too.
    if (depth === 0) this.#forgotten.length = 0;
    while (stack.length > depth) this.#closeElement();
    return i + 1;
  }

  /** Comments and CDATA; a DOCTYPE and anything else goes to saxes. */
  #bang(lt: number): number {
    const buffer = this.#buffer;
    if (buffer.length - lt < 9) return INCOMPLETE;
    if (buffer.startsWith('<!--', lt)) {
      const close = buffer.indexOf('-->', lt + 4);
      if (close === -1) return INCOMPLETE;
      if (close - lt > MAX_READ_WHOLE) return FOREIGN;
      const content = buffer.slice(lt + 4, close);
      if (content.indexOf('--') !== -1 || content.endsWith('-')) return FOREIGN;
      return close + 3;
    }
    if (buffer.startsWith('<![CDATA[', lt)) {
      if (this.#stack.length === 0) return FOREIGN;
      const close = buffer.indexOf(']]>', lt + 9);
      if (close === -1) return INCOMPLETE;
      if (close - lt > MAX_READ_WHOLE) return FOREIGN;
      const text = normalizeNewlines(buffer.slice(lt + 9, close));
      this.#noteText(text);
      if (this.#events.capturing) this.#events.text(text);
      return close + 3;
    }
    if (buffer.startsWith('<!DOCTYPE', lt)) return this.#doctype(lt);
    return FOREIGN;
  }

  /**
   * A DOCTYPE with no internal subset, in the prolog: reported (it is never used) and read past.
   * One with an internal subset, where declarations could hide a `>`, or anything unusual, is saxes'.
   */
  #doctype(lt: number): number {
    if (this.#doctypeSeen || this.#rootClosed || this.#stack.length > 0) return FOREIGN;
    const buffer = this.#buffer;
    const close = buffer.indexOf('>', lt + 9);
    if (close === -1) return INCOMPLETE;
    if (!PLAIN_DOCTYPE.test(buffer.slice(lt, close + 1))) return FOREIGN;
    this.#doctypeSeen = true;
    // Where saxes places it too (at the end), for a DOCTYPE it reads.
    this.#events.doctype(this.#positionAt(this.#bufferOffset + close + 1));
    return close + 1;
  }

  #processingInstruction(lt: number): number {
    const buffer = this.#buffer;
    const close = buffer.indexOf('?>', lt + 2);
    if (close === -1) return INCOMPLETE;
    if (buffer.startsWith('<?xml', lt) && !isNameChar(buffer.charCodeAt(lt + 5))) {
      if (!this.#atDocumentStart || this.#bufferOffset + lt !== 0) return FOREIGN;
      const match = XML_DECL.exec(buffer.slice(lt, close + 2));
      return match === null ? FOREIGN : lt + match[0].length;
    }
    let i = lt + 2;
    if (!isNameStart(buffer.charCodeAt(i))) return FOREIGN;
    while (isNameChar(buffer.charCodeAt(i))) i++;
    const target = buffer.slice(lt + 2, i);
    if (target.indexOf(':') !== -1 || target.toLowerCase() === 'xml') return FOREIGN;
    if (i !== close && !isSpace(buffer.charCodeAt(i))) return FOREIGN;
    return close + 2;
  }

  /**
   * Hands the rest of the document to saxes (saxes-bridge.ts): `rest` starts at `origin`, by default
   * where reading is (the pending text's start, if any). saxes is first primed with the start tags
   * still open, so it is where the fast path was.
   */
  #fallback(rest: string, origin: XmlPosition = this.#pendingText === '' ? this.#positionAt(this.#bufferOffset + this.#pos) : this.#pendingTextAt): void {
    const xml11 = this.#atDocumentStart && XML_1_1_DECL.test(rest);
    // Replay the open start tags on one line, so saxes is where the fast path was, then map its positions back.
    // In the prolog, past its start, an empty comment (saxes must not take an XML declaration or a BOM there), or the DOCTYPE read, so saxes knows there was one.
    const opened = this.#stack.map((element, depth) => this.#declaringAssumed(element.raw.replace(/[\t\n\r]/g, ' '), depth));
    if (this.#pendingText !== '') {
      rest = this.#pendingText + rest;
      this.#pendingText = '';
    }
    // Entries forgotten at the depth cap are open to saxes too, inside the root: their end tags may come.
    // At the end of the input with no end tag left, none can: saxes is given none of them.
    const replayed = this.#stack.length > 0 && !(this.#ending && rest.indexOf('</') === -1) ? this.#forgotten : [];
    const forgotten = replayed.map((qname) => `<${qname}>`).join('');
    const priming = this.#rootClosed
      ? '<r/>'
      : this.#stack.length > 0
        ? `${opened[0] ?? ''}${forgotten}${opened.slice(1).join('')}`
        : this.#atDocumentStart
          ? ''
          : this.#doctypeSeen
            ? '<!DOCTYPE r>'
            : '<!---->';
    const bridge = new SaxesBridge(this.#events, { origin, primed: priming.length, forgotten: replayed.length, xml11, ending: this.#ending });
    this.#bridge = bridge;
    this.#mode = Mode.Saxes;
    if (this.#stack.length + replayed.length > MAX_PARSED_DEPTH) {
      // saxes reads no deeper (its lookups walk every open tag), and without them their end tags would end the root.
      this.#events.malformed(`elements nested deeper than ${MAX_PARSED_DEPTH} levels; reading stops here`, origin);
      this.#mode = Mode.Stopped;
      this.#buffer = '';
      this.#pos = 0;
      this.#stack = [];
      return;
    }
    bridge.prime(priming);
    this.#buffer = '';
    this.#pos = 0;
    this.#stack = [];
    this.#toBridge(rest);
  }

  /** Gives saxes the next piece of the document; it may stop reading for good. */
  #toBridge(text: string): void {
    const bridge = this.#bridge as SaxesBridge;
    bridge.write(text);
    if (bridge.stopped) this.#mode = Mode.Stopped;
  }

  /** The root's start tag replayed to saxes with the prefixes taken as meant declared, as the fast path read what it holds. */
  #declaringAssumed(raw: string, depth: number): string {
    if (depth > 0 || this.#rootScope.prefixes.size === ROOT_SCOPE.prefixes.size) return raw;
    let declarations = '';
    for (const [prefix, ns] of this.#rootScope.prefixes) if (!ROOT_SCOPE.prefixes.has(prefix)) declarations += ` xmlns:${prefix}="${ns}"`;
    return raw.replace(/^<[^\s/>]+/, (name) => name + declarations);
  }
}
