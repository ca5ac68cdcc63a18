// Every export of src/ and server/ is used somewhere else (or is part of a layer's public entry), so dead code
// cannot hide behind an `export`. ts-unused-exports reads the import graph; an export it finds unimported but whose
// name another file uses is one reached through `(await import('./x.ts')).name`, which it cannot follow.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { analyzeTsConfig } from 'ts-unused-exports';
import { ROOT, sources } from './source-graph.ts';

/** The public entries: what users import, so their exports need no user inside the repository. */
const ENTRIES = new Set([
  'src/index.ts',
  'src/browser.ts',
  'src/protocol/index.ts',
  'src/client/index.ts',
  'src/uploader/index.ts',
  'src/elements/index.ts',
  'src/react/index.ts',
  'src/vue/index.ts',
  'src/headless/index.ts',
  'src/react/hooks.ts',
  'src/vue/composables.ts',
  'src/svelte/store.ts',
  'src/angular/index.ts',
  'server/index.ts',
]);
/** Shipped source: everything else is code for tests, stories, benches and demos. */
const CHECKED = /^(src|server)\//;

test('every export of src/ and server/ is used outside its file or is a public entry', () => {
  const analysis = analyzeTsConfig(join(ROOT, 'test/repo/tsconfig.exports.json'), ['--allowUnusedTypes']);
  const texts = new Map(
    ['src', 'server', 'test', 'bench', 'stories', 'demo', 'scripts']
      .flatMap(sources)
      .map((f) => [f, readFileSync(join(ROOT, f), 'utf8')]),
  );
  const unused: string[] = [];
  for (const [path, exports] of Object.entries(analysis.unusedExports)) {
    const file = relative(ROOT, path);
    if (!CHECKED.test(file) || ENTRIES.has(file)) continue;
    for (const { exportName } of exports) {
      const word = new RegExp(`\\b${exportName}\\b`);
      const usedElsewhere = [...texts].some(([other, text]) => other !== file && word.test(text));
      if (!usedElsewhere) unused.push(`${file}: ${exportName}`);
    }
  }
  assert.deepEqual(unused, []);
});
