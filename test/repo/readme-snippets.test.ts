// The README's headless snippets ("Your own UI") work as written: each is a file of a consumer app
// (test/consumers/apps/react/Uploads.tsx, test/consumers/apps/sveltekit/src/lib/Uploads.svelte), which the consumers
// stage typechecks and svelte-checks against the packed kit, and this test holds each file to its README block, keeps
// the dropzone beside the list (a row's button inside a `role="button"` would be a button in a button), compiles the
// Svelte one with Svelte's own a11y checks and typechecks the React one against the sources.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { compile } from 'svelte/compiler';
import { ROOT } from './source-graph.ts';

const REACT_APP = 'test/consumers/apps/react';
const SVELTE_FILE = 'test/consumers/apps/sveltekit/src/lib/Uploads.svelte';

/** The fenced blocks of `lang` in README.md's "Your own UI (headless)" section. */
function readmeBlocks(lang: string): string[] {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const start = readme.indexOf('### Your own UI (headless)');
  assert.ok(start >= 0, 'README.md has the section "Your own UI (headless)"');
  const section = readme.slice(start, readme.indexOf('\n## ', start));
  return [...section.matchAll(new RegExp('```' + lang + '\\n([\\s\\S]*?)```', 'g'))].map((m) => m[1]!);
}

const read = (file: string) => readFileSync(join(ROOT, file), 'utf8');

/** The markup between the opening tag that carries `marker` and that element's closing tag. */
function insideOf(source: string, marker: string): string {
  const at = source.indexOf(marker);
  assert.ok(at >= 0, `the snippet has ${marker}`);
  const open = source.lastIndexOf('<', at);
  const tag = /^<(\w+)/.exec(source.slice(open))![1]!;
  return source.slice(at, source.indexOf(`</${tag}>`, at));
}

test('the README’s React and Svelte snippets are the consumer apps’ files, word for word', () => {
  assert.deepEqual(readmeBlocks('tsx'), [read(`${REACT_APP}/Uploads.tsx`)]);
  assert.deepEqual(readmeBlocks('svelte'), [read(SVELTE_FILE)]);
});

test('each snippet draws its rows beside the dropzone, not inside it', () => {
  assert.doesNotMatch(insideOf(read(`${REACT_APP}/Uploads.tsx`), '{...props}'), /<Row/);
  assert.doesNotMatch(insideOf(read(SVELTE_FILE), 'use:dropzone'), /<Row/);
});

test('the Svelte snippet compiles without a warning (Svelte’s a11y and runes checks)', () => {
  const { warnings } = compile(read(SVELTE_FILE), { filename: 'Uploads.svelte', generate: 'client' });
  assert.deepEqual(
    warnings.map((w) => `${w.code}: ${w.message}`),
    [],
  );
});

test('the React snippet typechecks in strict mode against the hooks it imports', () => {
  const program = ts.createProgram([join(ROOT, REACT_APP, 'Uploads.tsx')], {
    strict: true,
    noEmit: true,
    jsx: ts.JsxEmit.ReactJSX,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    lib: ['lib.es2022.d.ts', 'lib.dom.d.ts', 'lib.dom.iterable.d.ts'],
    types: [],
    allowImportingTsExtensions: true,
    experimentalDecorators: true,
    useDefineForClassFields: false,
    skipLibCheck: true,
    paths: { 'store-upload-kit/react/hooks': [join(ROOT, 'src/react/hooks.ts')] },
  });
  const errors = ts
    .getPreEmitDiagnostics(program)
    .map((d) => `${d.file?.fileName ?? ''}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`);
  assert.deepEqual(errors, []);
});
