/**
 * Builds the kit's worker entries as stable, self-contained files for apps whose bundler does not bundle a
 * dependency's `new Worker(new URL('./x.js', import.meta.url))` (Angular's application builder, esbuild): the app
 * copies `dist/workers/` to a static path of its site and names that path in `workerBase`. Each entry keeps its name
 * (`shared-worker.js`, `worker.js`); the chunks they load on demand and the hash worker sit beside them, found
 * relative to them. Everything is in a folder named after the kit's version, which the page asks for
 * (`src/uploader/page/copied-workers.ts`), so two versions of the kit on one site never share a worker.
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { build } from 'vite';
import { KIT_VERSION } from '../src/uploader/page/kit-version.ts';
import { jsToTs } from '../vite.config.ts';

/** Builds the workers into `<pkg>/dist/workers/<version>/`; fails when the page's version is not the package's. */
export async function buildWorkers(root: string, pkg: string): Promise<void> {
  const { version } = JSON.parse(readFileSync(join(pkg, 'package.json'), 'utf8')) as { version: string };
  if (version !== KIT_VERSION) {
    throw new Error(
      `src/uploader/page/kit-version.ts says KIT_VERSION ${KIT_VERSION}, the package is ${version}: make them equal`,
    );
  }
  await build({
    configFile: false,
    root,
    // Relative URLs between the files: the folder may be served from any path.
    base: './',
    publicDir: false,
    logLevel: 'error',
    plugins: [jsToTs()],
    worker: { format: 'es', plugins: () => [jsToTs()], rolldownOptions: { output: { minify: true } } },
    build: {
      outDir: join(pkg, 'dist/workers', version),
      emptyOutDir: true,
      target: 'es2022',
      minify: true,
      lib: {
        entry: {
          'shared-worker': resolve(root, 'src/uploader/worker/shared-worker.ts'),
          worker: resolve(root, 'src/uploader/worker/worker.ts'),
        },
        formats: ['es'],
        fileName: (_format, name) => `${name}.js`,
      },
      rolldownOptions: { external: [], output: { minify: true } },
    },
  });
}
