// Builds the self-contained browser bundle: dist/browser/store-upload-kit.js exports the whole public API with every
// dependency inside, dist/browser/store-upload-kit-elements.js only the elements, and the upload worker is emitted
// beside them. A page without a bundler loads one of them with one <script type="module">.
import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';
import { minifyCssLiterals } from './scripts/css-literals.ts';

const root = fileURLToPath(new URL('.', import.meta.url));

/**
 * The sources say `new URL('./worker.js', import.meta.url)` (the name the file has once compiled, which bundlers of
 * the npm package resolve); in this build the file is still `worker.ts`.
 */
export function jsToTs(): Plugin {
  return {
    name: 'store-upload-kit:js-to-ts',
    enforce: 'pre',
    resolveId(source, importer) {
      if (!importer || !source.startsWith('.') || !source.endsWith('.js')) return null;
      const js = resolve(dirname(importer.split('?')[0]), source);
      const ts = js.slice(0, -3) + '.ts';
      return !existsSync(js) && existsSync(ts) ? ts : null;
    },
  };
}

/** The elements' css`…` templates, minified as in the npm package's `dist/lib`. */
function cssLiterals(): Plugin {
  return {
    name: 'store-upload-kit:css-literals',
    async transform(code, id) {
      return id.includes('/src/elements/') && id.endsWith('.ts')
        ? { code: await minifyCssLiterals(code), map: null }
        : null;
    },
  };
}

export default defineConfig({
  root,
  // Relative asset URLs: with an absolute base the worker URL points at the page's origin root and never loads.
  base: './',
  publicDir: false,
  plugins: [jsToTs(), cssLiterals()],
  worker: { format: 'es', plugins: () => [jsToTs()], rolldownOptions: { output: { minify: true } } },
  build: {
    outDir: 'dist/browser',
    emptyOutDir: true,
    target: 'es2022',
    sourcemap: true,
    minify: true,
    lib: {
      entry: {
        'store-upload-kit': resolve(root, 'src/browser.ts'),
        // The elements alone: a page that only places `store-*` elements fetches about half as much before anyone
        // uploads (the uploader's page half, the client and the protocol load when the elements need them).
        'store-upload-kit-elements': resolve(root, 'src/elements/index.ts'),
      },
      formats: ['es'],
      fileName: (_format, name) => `${name}.js`,
    },
    rolldownOptions: {
      // Everything is bundled: the page has no bundler and no node_modules.
      external: [],
      // Both entries export `en`, the whole of English, so the half the elements load with their first row
      // (`en-later.ts`) is in them from the start: expected here, where it is not in an app's bundle.
      onLog(level, log, handler) {
        if (log.code === 'INEFFECTIVE_DYNAMIC_IMPORT' && log.message.includes('/i18n/en-later.ts')) return;
        handler(level, log);
      },
      // Library mode keeps whitespace in ES output for later bundlers; this bundle is the end product a page
      // fetches, so it is minified whole.
      output: { minify: true },
    },
  },
});
