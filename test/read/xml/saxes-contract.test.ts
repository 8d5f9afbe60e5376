import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { SaxesParser } from 'saxes';
import { BARE_AMPERSAND_MARK, FastSaxesParser, HANDLER_SLOTS, OWN_MARK_CHAR, SAXES_MESSAGES, SAXES_STATES, SAXES_UNBOUND_PREFIX } from '../../../src/read/xml/saxes-bridge.ts';

// What src/read/xml/saxes-bridge.ts takes from saxes beyond its documented API: if any of it changes
// with a new saxes, this fails before the bridge silently misplaces or misreads anything.

const parser = (): SaxesParser<{ xmlns: true; position: true }> => new SaxesParser({ xmlns: true, position: true });

/** saxes' error messages for `xml`, written in one piece. */
function errorsOf(xml: string): string[] {
  const saxes = parser();
  const messages: string[] = [];
  saxes.on('error', (error) => messages.push(error.message));
  saxes.write(xml);
  saxes.close();
  return messages;
}

describe('the saxes the bridge was written against', () => {
  it('is the exact version pinned in package.json', () => {
    const pkg = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { dependencies: Record<string, string> };
    const installed = JSON.parse(readFileSync(new URL('../../../node_modules/saxes/package.json', import.meta.url), 'utf8')) as { version: string };
    assert.equal(pkg.dependencies['saxes'], '6.0.0');
    assert.equal(installed.version, '6.0.0');
  });

  it('keeps each event handler in the slot FastSaxesParser makes for it', () => {
    for (const [event, slot] of Object.entries(HANDLER_SLOTS)) {
      const saxes = parser();
      const handler = (): void => undefined;
      saxes.on(event as 'text', handler);
      assert.equal((saxes as unknown as Record<string, unknown>)[slot], handler, `${event} -> ${slot}`);
    }
    const fast = new FastSaxesParser();
    for (const slot of Object.values(HANDLER_SLOTS)) {
      assert.equal(Object.hasOwn(fast, slot), true, slot);
      assert.equal((fast as unknown as Record<string, unknown>)[slot], undefined, slot);
    }
  });

  it('has a makeError to override, whose message starts with line:column', () => {
    assert.equal(typeof SaxesParser.prototype.makeError, 'function');
    assert.equal(parser().makeError('m').message, '1:0: m');
    assert.equal(new FastSaxesParser().makeError('m').message, '1:0: m');
  });

  it('says each message the bridge recognises, for the input that causes it', () => {
    assert.deepEqual(errorsOf(`<r>${OWN_MARK_CHAR}</r>`), [`1:4: ${SAXES_MESSAGES.disallowedCharacter}`]);
    assert.deepEqual(errorsOf(`<r a="${OWN_MARK_CHAR}"/>`), [`1:7: ${SAXES_MESSAGES.disallowedCharacter}`]);
    assert.deepEqual(errorsOf('<r/>x'), [`1:5: ${SAXES_MESSAGES.textOutsideRoot}`]);
    assert.deepEqual(errorsOf('<r></s></r>'), [`1:7: ${SAXES_MESSAGES.unexpectedCloseTag}`, '1:7: unmatched closing tag: s.', '1:11: unmatched closing tag: r.']);
    assert.deepEqual(errorsOf('<r><a>'), [`1:6: ${SAXES_MESSAGES.unclosedTag}a`, `1:6: ${SAXES_MESSAGES.unclosedTag}r`]);
    assert.deepEqual(errorsOf('<r><![CDATA[x'), [`1:13: ${SAXES_MESSAGES.unclosedTag}r`, `1:13: ${SAXES_MESSAGES.unexpectedEnd}`]);
    const unbound = errorsOf('<a:b/>');
    assert.deepEqual(unbound, ['1:6: unbound namespace prefix: "a".']);
    assert.equal(SAXES_UNBOUND_PREFIX.exec(unbound[0] ?? '')?.[1], 'a');
  });

  it('is in the state the bridge skips a long run in (its private `state`), by what it is reading', () => {
    for (const [xml, state] of [
      ['<r>x', SAXES_STATES.text],
      ['<r><!--x', SAXES_STATES.comment],
      ['<r><!--x-', SAXES_STATES.commentEnding],
      ['<r><!--x--', SAXES_STATES.commentEnded],
      ['<r><![CDATA[x', SAXES_STATES.cdata],
      ['<r><![CDATA[x]', SAXES_STATES.cdataEnding],
      ['<r><![CDATA[x]]', SAXES_STATES.cdataEnding2],
    ] as const) {
      const saxes = parser();
      saxes.write(xml);
      assert.equal((saxes as unknown as { state: number }).state, state, xml);
    }
  });

  it('reads the bare-& mark (U+FDD0) in text and values without complaint', () => {
    const saxes = parser();
    const seen: string[] = [];
    saxes.on('error', (error) => seen.push(`error ${error.message}`));
    saxes.on('text', (text) => seen.push(`text ${text}`));
    saxes.on('attribute', (attribute) => seen.push(`attribute ${attribute.value}`));
    saxes.write(`<r a="x${BARE_AMPERSAND_MARK}y">${BARE_AMPERSAND_MARK}</r>`);
    saxes.close();
    assert.deepEqual(seen, [`attribute x${BARE_AMPERSAND_MARK}y`, `text ${BARE_AMPERSAND_MARK}`]);
  });

  it('has the five predefined entities in ENTITIES, inherited, and reads a name added there', () => {
    const saxes = parser();
    assert.deepEqual(Object.keys(saxes.ENTITIES), []);
    assert.deepEqual({ ...Object.getPrototypeOf(saxes.ENTITIES) }, { amp: '&', gt: '>', lt: '<', quot: '"', apos: "'" });
    saxes.ENTITIES['zzzz'] = OWN_MARK_CHAR;
    const seen: string[] = [];
    saxes.on('error', (error) => seen.push(`error ${error.message}`));
    saxes.on('text', (text) => seen.push(`text ${text}`));
    saxes.write('<r>&zzzz;</r>');
    saxes.close();
    assert.deepEqual(seen, [`text ${OWN_MARK_CHAR}`]);
  });

  it('counts position, line and columnIndex as the bridge maps them', () => {
    const saxes = parser();
    const seen: unknown[] = [];
    saxes.on('opentagstart', (tag) => seen.push(['opentagstart', tag.name, saxes.position, saxes.line, saxes.columnIndex]));
    saxes.on('attribute', (attribute) => seen.push(['attribute', attribute.name, saxes.position]));
    saxes.on('opentag', (tag) => seen.push(['opentag', tag.name, tag.prefix, tag.local, tag.uri, Object.values(tag.attributes).map((a) => [a.name, a.prefix, a.local, a.uri, a.value])]));
    saxes.on('closetag', (tag) => seen.push(['closetag', tag.name, saxes.columnIndex]));
    saxes.on('comment', () => seen.push(['comment', saxes.position]));
    saxes.write('<r xmlns:x="u" a="1" x:b="2"><s>t</s><!--c--></r>');
    saxes.close();
    assert.deepEqual(seen, [
      // At a start tag's name and the character after it: the `<` is name.length + 2 back.
      ['opentagstart', 'r', 3, 1, 3],
      // Each attribute as its closing quote is read.
      ['attribute', 'xmlns:x', 14],
      ['attribute', 'a', 20],
      ['attribute', 'x:b', 28],
      ['opentag', 'r', '', 'r', '', [['xmlns:x', 'xmlns', 'x', 'http://www.w3.org/2000/xmlns/', 'u'], ['a', '', 'a', '', '1'], ['x:b', 'x', 'b', 'u', '2']]],
      ['opentagstart', 's', 32, 1, 32],
      ['opentag', 's', '', 's', '', []],
      // At an end tag's `>`: `</` is name.length + 3 back.
      ['closetag', 's', 37],
      // At a comment's `--`, before the `>` (44).
      ['comment', 44],
      ['closetag', 'r', 49],
    ]);
  });

  it('counts a written chunk twice in position until an empty write, and holds a CR at a write end', () => {
    const saxes = parser();
    saxes.write('<r>abc');
    assert.equal(saxes.position, 13);
    saxes.write('');
    assert.equal(saxes.position, 6);
    saxes.write('a\r');
    saxes.write('');
    // The CR (at 7) not read yet: it may start a CRLF.
    assert.deepEqual([saxes.line, saxes.position], [1, 7]);
    saxes.write('\nb');
    saxes.write('');
    assert.deepEqual([saxes.line, saxes.columnIndex], [2, 1]);
  });
});
