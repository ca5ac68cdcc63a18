// What CONVENTIONS.md promises about the tree that no ESLint rule reads: no import cycle. (File length is ESLint's
// `max-lines`, fixed waits in tests its `no-restricted-syntax`; see eslint.config.js.)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cycles, sources } from './source-graph.ts';

const SOURCE_DIRS = ['src', 'server'];

test('no import cycle in src/ or server/', () => {
  const found = cycles(SOURCE_DIRS.flatMap(sources)).map((c) => c.join(' → '));
  assert.deepEqual(found, []);
});
