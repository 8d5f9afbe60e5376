/** The html room's public face: page facts and the content fingerprint. */
export { readPage, parseRefresh, largestInSrcset, type PageFacts, type PageRobots, type ReadPageOptions } from './page.ts';
export { contentOf, fingerprintHtml, hash128, stableValue, type ContentHash, type FingerprintRules } from './fingerprint.ts';
export { parseSelectors, type Compound } from './selector.ts';
export { Hash128 } from './hash.ts';
