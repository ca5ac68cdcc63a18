/**
 * Builds everything the `store-upload-kit` package ships, fresh, into `packages/store-upload-kit/` (its `prepack`):
 * - `dist/lib/` — unbundled ES modules with types from `src/` (tsc), which keep
 *   `new Worker(new URL('./worker.js', import.meta.url))` literal so the app's bundler re-bundles the worker;
 * - `dist/browser/` — the self-contained, minified script-tag bundle with its worker beside it (Vite);
 * - `dist/workers/<version>/` — the worker entries under stable names, for apps that copy them (`build-workers.ts`);
 * - `custom-elements.json` — the manifest, its module paths pointing at the shipped `dist/lib` files.
 * A stale `dist/` is removed first, so a publisher can never ship an old copy.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { buildWorkers } from './build-workers.ts';
import { minifyCssLiterals } from './css-literals.ts';

const ROOT = resolve(import.meta.dirname, '..');

/**
 * The script-tag bundle keeps the source maps of what runs on the page, not of its workers' chunks (`assets/`) nor
 * of the wasm hasher: each worker entry bundles the same engine again, and the hasher's map maps a base64 string.
 * They were about 1.2 MB of the 10 MB an install may take (issue 31); the page's own maps stay.
 */
function dropWorkerMaps(dir: string): void {
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const file = join(entry.parentPath, entry.name);
    const workerSide = entry.parentPath.endsWith('/assets') || /^wasm-md5-[\w-]+\.js(\.map)?$/.test(entry.name);
    if (!workerSide) continue;
    if (entry.name.endsWith('.map')) rmSync(file);
    else if (entry.name.endsWith('.js'))
      writeFileSync(file, readFileSync(file, 'utf8').replace(/\n?\/\/# sourceMappingURL=\S+\s*$/, '\n'));
  }
}
const PKG = join(ROOT, 'packages/store-upload-kit');
const bin = (name: string) => join(ROOT, 'node_modules/.bin', name);
const run = (cmd: string, args: string[]) => execFileSync(cmd, args, { cwd: ROOT, stdio: 'inherit' });

rmSync(join(PKG, 'dist'), { recursive: true, force: true });
run(bin('tsc'), ['-p', 'tsconfig.lib.json']);
// tsc's `rewriteRelativeImportExtensions` misses some `import('./x.ts')` (one in a class field's initializer, seen
// with TypeScript 5.9): an app's bundler would fail on it. Rewrite what it left in the shipped modules, and minify
// the elements' CSS, which no app's bundler would.
for (const entry of readdirSync(join(PKG, 'dist/lib'), { recursive: true, withFileTypes: true })) {
  if (!entry.isFile() || !entry.name.endsWith('.js')) continue;
  const file = join(entry.parentPath, entry.name);
  const code = readFileSync(file, 'utf8');
  const fixed = await minifyCssLiterals(
    code.replace(
      /\bimport\((['"])(\.\.?\/[^'"]+)\.ts\1\)/g,
      (_all, quote: string, path: string) => `import(${quote}${path}.js${quote})`,
    ),
  );
  if (fixed !== code) writeFileSync(file, fixed);
}
run(bin('vite'), ['build', '--logLevel', 'error', '--outDir', join(PKG, 'dist/browser')]);
dropWorkerMaps(join(PKG, 'dist/browser'));
await buildWorkers(ROOT, PKG);
run(bin('cem'), [
  'analyze',
  '--config',
  'custom-elements-manifest.config.mjs',
  '--outdir',
  'packages/store-upload-kit',
]);

// The analyzer reads the TypeScript sources; the package ships their compiled modules under dist/lib.
const manifestPath = join(PKG, 'custom-elements.json');
const shipped = readFileSync(manifestPath, 'utf8')
  .replace(
    /"(path|module)": "\/?src\/([^"]+)\.ts"/g,
    (_all, key: string, rest: string) => `"${key}": "dist/lib/${rest}.js"`,
  )
  .replace(/"module": "(\.\.?\/[^"]+)\.ts"/g, (_all, rel: string) => `"module": "${rel}.js"`);
writeFileSync(manifestPath, shipped);

// The package's README is the repository README's "Using the kit" part (one text, kept in one place).
const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
const from = readme.indexOf('## Using the kit');
const to = readme.indexOf('\n## ', from + 1);
writeFileSync(
  join(PKG, 'README.md'),
  `# store-upload-kit\n\nUpload files from any web page to the store file service: Lit web components over a Web Worker uploader\n(256 KiB-multiple chunks or whole-file PUTs, retries, MD5 verification, resume after a reload), and a typed service\nclient. MIT licensed.\n\n${readme.slice(from, to === -1 ? undefined : to).trim()}\n`,
);
