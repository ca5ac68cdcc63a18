/**
 * Bundle sizes of the kit, minified by esbuild and gzipped with `node:zlib` (level 9), checked against the
 * budgets of issue 6: the whole kit with Lit, comlink and idb-keyval under 30 kB, the main-thread part under 20 kB.
 * The worker is its own line (it loads only when an upload starts) and so is its wasm MD5 hasher (hash-wasm ships
 * the wasm inline, base64 in JS). `npm run check-size` prints the table and exits 1 over budget;
 * `bench/bundle.bench.ts` reports the same figures.
 */
import { gzipSync } from 'node:zlib';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';

const ROOT = resolve(import.meta.dirname, '..');
const KB = 1000;

/** Budgets in bytes of min+gzip (kB = 1000 bytes, as bundle-size tools count). */
export const BUDGETS = { kit: 30 * KB, mainThread: 20 * KB } as const;

/** One measured bundle. */
export interface BundleSize {
  /** Row name, e.g. `entry src/client/index.ts`. */
  name: string;
  minBytes: number;
  gzipBytes: number;
  /** Minified bytes per package or source folder, largest first: where to look when a budget breaks. */
  contributors: { name: string; minBytes: number }[];
}

/** Every figure `check-size` prints and the bench reports. */
export interface SizeReport {
  rows: BundleSize[];
  /** Main thread + worker, without the wasm hasher: the budgeted whole kit. */
  kitGzip: number;
  mainThreadGzip: number;
  workerGzip: number;
  hasherGzip: number;
}

/** Bundles `source` (a module text resolved from the repository root) and measures it. */
async function measure(name: string, source: string, external: string[] = []): Promise<BundleSize> {
  const result = await build({
    stdin: { contents: source, resolveDir: ROOT, loader: 'ts', sourcefile: `${name}.ts` },
    bundle: true,
    minify: true,
    write: false,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    tsconfig: join(ROOT, 'tsconfig.browser.json'),
    // Production builds of Lit and friends: no dev-mode warnings, as an app's bundler would ship them.
    conditions: ['production'],
    define: { 'process.env.NODE_ENV': '"production"' },
    external,
    metafile: true,
    logLevel: 'error',
  });
  const code = result.outputFiles[0]!.contents;
  const inputs = Object.values(result.metafile.outputs)[0]?.inputs ?? {};
  const byGroup = new Map<string, number>();
  for (const [path, { bytesInOutput }] of Object.entries(inputs)) byGroup.set(group(path), (byGroup.get(group(path)) ?? 0) + bytesInOutput);
  const contributors = [...byGroup].map(([group, minBytes]) => ({ name: group, minBytes })).sort((a, b) => b.minBytes - a.minBytes);
  return { name, minBytes: code.byteLength, gzipBytes: gzipSync(code, { level: 9 }).byteLength, contributors };
}

/** `node_modules/@lit/reactive-element/x.js` → `@lit/reactive-element`; `src/elements/i18n/en.ts` → `src/elements/i18n`. */
function group(path: string): string {
  const inModules = path.split('node_modules/').pop()!;
  if (inModules !== path) return inModules.split('/').slice(0, inModules.startsWith('@') ? 2 : 1).join('/');
  const parts = path.split('/');
  return parts.slice(0, Math.min(3, parts.length - 1) || 1).join('/');
}

/**
 * Measures the kit. The main-thread part is what a page using the kit ships to its main thread: every element, plus
 * `createUploader` and `createStoreClient`, lazily loaded chunks included (esbuild inlines dynamic imports when it
 * does not split). esbuild does not follow `new Worker(new URL(…))`, so the worker is measured from `worker.ts` on
 * its own, with hash-wasm left out and measured as the hasher. Each public entry is also measured whole.
 */
export async function measureBundles(): Promise<SizeReport> {
  const entries = ['src/elements/index.ts', 'src/uploader/index.ts', 'src/client/index.ts', 'src/protocol/index.ts'];
  const page = `export * from './src/elements/index.ts';
export { createUploader } from './src/uploader/index.ts';
export { createStoreClient } from './src/client/index.ts';`;
  const mainThread = await measure('main thread (elements, createUploader, createStoreClient; Lit, comlink, idb-keyval)', page);
  const worker = await measure('worker (without the wasm hasher)', `import './src/uploader/worker.ts';`, ['hash-wasm']);
  const hasher = await measure('wasm MD5 hasher (hash-wasm createMD5)', `export { createMD5 } from 'hash-wasm';`);
  const perEntry = await Promise.all(entries.map((e) => measure(`entry ${e}`, `export * from './${e}';`)));
  const kitGzip = mainThread.gzipBytes + worker.gzipBytes;
  return {
    rows: [mainThread, worker, hasher, ...perEntry],
    kitGzip,
    mainThreadGzip: mainThread.gzipBytes,
    workerGzip: worker.gzipBytes,
    hasherGzip: hasher.gzipBytes,
  };
}

/** Budget verdicts: a list of what is over, empty when everything fits. */
export function overBudget(report: SizeReport): string[] {
  const over: string[] = [];
  if (report.kitGzip >= BUDGETS.kit) over.push(`whole kit ${kB(report.kitGzip)} is not under ${kB(BUDGETS.kit)}`);
  if (report.mainThreadGzip >= BUDGETS.mainThread) over.push(`main-thread part ${kB(report.mainThreadGzip)} is not under ${kB(BUDGETS.mainThread)}`);
  return over;
}

/** `12.3 kB`. */
export function kB(bytes: number): string {
  return `${(bytes / KB).toFixed(1)} kB`;
}

async function main(): Promise<void> {
  const report = await measureBundles();
  const width = Math.max(...report.rows.map((r) => r.name.length));
  console.log(`${'bundle'.padEnd(width)}  ${'min'.padStart(9)}  ${'min+gzip'.padStart(9)}`);
  for (const row of report.rows) console.log(`${row.name.padEnd(width)}  ${kB(row.minBytes).padStart(9)}  ${kB(row.gzipBytes).padStart(9)}`);
  console.log(`\nwhole kit (main thread + worker): ${kB(report.kitGzip)} min+gzip, budget < ${kB(BUDGETS.kit)}`);
  console.log(`main-thread part:                 ${kB(report.mainThreadGzip)} min+gzip, budget < ${kB(BUDGETS.mainThread)}`);
  console.log(`wasm hasher (loaded by the worker): ${kB(report.hasherGzip)} min+gzip, reported only`);
  const over = overBudget(report);
  if (over.length) {
    console.log('\nlargest parts of the main thread (minified, before gzip):');
    for (const c of report.rows[0]!.contributors.slice(0, 10)) console.log(`  ${kB(c.minBytes).padStart(9)}  ${c.name}`);
  }
  for (const line of over) console.error(`check-size: over budget: ${line}`);
  process.exitCode = over.length ? 1 : 0;
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) await main();
