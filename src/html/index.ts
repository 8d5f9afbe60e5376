/** The html room's public face: page facts and the content fingerprint. */
export { readPage, PageReader, parseRefresh, largestInSrcset, type PageFacts, type PageRobots, type ReadPageOptions } from './page.ts';
export { ContentFingerprint, stableValue, type FingerprintRules } from './fingerprint.ts';
export { parseSelectors, type Compound } from './selector.ts';
export { Hash128 } from './hash.ts';
