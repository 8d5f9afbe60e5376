import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { MIN_NODE_VERSION, unsupportedNode } from '../../src/cli/runtime.ts';

test('a Node.js older than the one package.json asks for is named with the version needed; that one and later pass', () => {
  assert.equal(unsupportedNode('20.20.2'), 'needs Node.js 22.19.0 or later; this is Node.js 20.20.2');
  assert.equal(unsupportedNode('22.18.9'), 'needs Node.js 22.19.0 or later; this is Node.js 22.18.9');
  for (const version of ['22.19.0', '22.19.1', '22.20.0', '23.0.0', '24.21.0', '30.1.2']) assert.equal(unsupportedNode(version), undefined, version);
  assert.equal(unsupportedNode(process.versions.node), undefined);
});

test('the version checked is the one package.json declares in engines', () => {
  const { engines } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { engines: { node: string } };
  const declared = /^>=(\d+)\.(\d+)(?:\.(\d+))?$/.exec(engines.node);
  assert.ok(declared, engines.node);
  assert.equal(MIN_NODE_VERSION, `${declared[1]}.${declared[2]}.${declared[3] ?? 0}`);
});
