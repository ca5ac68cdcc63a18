/**
 * Sizes of the headless entries (issue 31): the framework-free core (`src/headless/index.ts`, with the uploader
 * facade it creates) and what each framework's binding adds over it, minified by esbuild and gzipped like the rest of
 * `check-size`, every export kept and the framework itself left out (an optional peer the app already has). Each
 * binding must add at most 1.5 kB min+gzip over the core.
 */
import { gzipSync } from 'node:zlib';
import { resolve } from 'node:path';
import { build } from 'esbuild';

const ROOT = resolve(import.meta.dirname, '..');

/** What one binding adds over the core may not exceed this (bytes of min+gzip). */
export const BINDING_BUDGET = 1500;

/** The bindings, by the entry a user imports. */
export const BINDINGS = {
  'store-upload-kit/react/hooks': 'src/react/hooks.ts',
  'store-upload-kit/vue/composables': 'src/vue/composables.ts',
  'store-upload-kit/svelte/store': 'src/svelte/store.ts',
  'store-upload-kit/angular': 'src/angular/index.ts',
} as const;

/** One entry's size: all its exports, lazy chunks inlined, frameworks external. */
async function entrySize(path: string): Promise<{ minBytes: number; gzipBytes: number }> {
  const result = await build({
    stdin: { contents: `export * from './${path}';`, resolveDir: ROOT, loader: 'ts' },
    absWorkingDir: ROOT,
    bundle: true,
    minify: true,
    write: false,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    tsconfig: resolve(ROOT, 'tsconfig.browser.json'),
    conditions: ['production'],
    define: { 'process.env.NODE_ENV': '"production"' },
    external: ['react', 'react-dom', 'vue', 'svelte', 'svelte/*', '@angular/core', 'lit', 'lit/*', '@lit/*'],
    logLevel: 'error',
  });
  const code = result.outputFiles[0].contents;
  return { minBytes: code.byteLength, gzipBytes: gzipSync(code, { level: 9 }).byteLength };
}

/** The core's size and each binding's, with what it adds over the core. */
export interface BindingSizes {
  core: { minBytes: number; gzipBytes: number };
  bindings: { entry: string; minBytes: number; gzipBytes: number; overCore: number }[];
}

/** Measures the core and each binding. */
export async function measureBindings(): Promise<BindingSizes> {
  const core = await entrySize('src/headless/index.ts');
  const bindings = [];
  for (const [entry, path] of Object.entries(BINDINGS)) {
    const size = await entrySize(path);
    bindings.push({ entry, ...size, overCore: size.gzipBytes - core.gzipBytes });
  }
  return { core, bindings };
}

/** The bindings over their budget, as sentences; empty when each fits. */
export function bindingsOverBudget(sizes: BindingSizes): string[] {
  return sizes.bindings
    .filter((b) => b.overCore > BINDING_BUDGET)
    .map((b) => `${b.entry} adds ${b.overCore} bytes over the headless core, over ${BINDING_BUDGET}`);
}
