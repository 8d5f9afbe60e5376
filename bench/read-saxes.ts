/**
 * The floor a streaming XML reader starts from: one thread, gunzip, a streaming UTF-8 decode and
 * saxes, counting the `<loc>` elements whose parent is `<url>` (or `<sitemap>` in the index) and
 * keeping their text, nothing else: no other field, no extension, no checks.
 *
 * Namespaces: `xmlns: false` by default. It is saxes' fastest setting and what "raw" means in the
 * issue; the elements are told apart by their qualified names (`loc` vs `image:loc`), which is right
 * for these files, not for every file. A reader that matches elements by namespace URI, as
 * sitemapkit's does (and sitemap.js's sax setup), needs `xmlns: true`: pass `xmlns` as the second
 * argument to measure that. The faster pass is the baseline, so the 2× target is not made easier.
 */
import { createReadStream } from 'node:fs';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import { SaxesParser } from 'saxes';
import { fixtureDir, GUNZIP_CHUNK, localPath, readFixtureMeta, SITEMAP_NS } from './read-common.ts';
import { report } from './records.ts';

const dir = fixtureDir();
const xmlns = process.argv[3] === 'xmlns';

interface Scan {
  locs: number;
  /** Characters of `<loc>` text, so the text is really taken. */
  chars: number;
  /** The `<loc>` texts, kept only for the index. */
  kept: string[];
}

/** One file: `<loc>` children of `parent` counted (and kept when `keep`). */
async function scan(path: string, parent: 'url' | 'sitemap', keep: boolean): Promise<Scan> {
  const result: Scan = { locs: 0, chars: 0, kept: [] };
  // The names of the open elements: the parent check needs the element above `<loc>`.
  const stack: string[] = [];
  let text: string | undefined;
  const open = (name: string) => {
    if (name === 'loc' && stack[stack.length - 1] === parent) text = '';
    stack.push(name);
  };
  const close = () => {
    stack.pop();
    if (text !== undefined && stack.length > 0) {
      // Closing an element while collecting: it is the `<loc>` (it has no child elements here).
      result.locs++;
      result.chars += text.length;
      if (keep) result.kept.push(text.trim());
      text = undefined;
    }
  };
  const onText = (t: string) => {
    if (text !== undefined) text += t;
  };

  let write: (chunk: string) => void;
  let close_: () => void;
  if (xmlns) {
    const parser = new SaxesParser({ xmlns: true });
    parser.on('opentag', (tag) => open(tag.uri === SITEMAP_NS ? tag.local : `{${tag.uri}}${tag.local}`));
    parser.on('closetag', close);
    parser.on('text', onText);
    write = (chunk) => void parser.write(chunk);
    close_ = () => void parser.close();
  } else {
    const parser = new SaxesParser();
    parser.on('opentag', (tag) => open(tag.name));
    parser.on('closetag', close);
    parser.on('text', onText);
    write = (chunk) => void parser.write(chunk);
    close_ = () => void parser.close();
  }

  const decoder = new TextDecoder('utf-8', { fatal: true });
  await pipeline(createReadStream(path), createGunzip({ chunkSize: GUNZIP_CHUNK }), async (chunks: AsyncIterable<Uint8Array>) => {
    for await (const chunk of chunks) write(decoder.decode(chunk, { stream: true }));
  });
  write(decoder.decode());
  close_();
  return result;
}

const started = process.hrtime.bigint();
const index = await scan(join(dir, readFixtureMeta(dir).index), 'sitemap', true);
let urls = 0;
let chars = 0;
for (const loc of index.kept) {
  const file = await scan(localPath(dir, loc), 'url', false);
  urls += file.locs;
  chars += file.chars;
}
if (chars === 0) throw new Error('no <loc> text seen');
report(xmlns ? 'saxes xmlns:true, <loc> only' : 'saxes raw, <loc> only', urls, started);
