/**
 * The kit's workers as an app copies them (`workerBase`): for bundlers that leave a dependency's
 * `new Worker(new URL('./x.js', import.meta.url))` alone (Angular's application builder, esbuild), the package
 * ships its worker entries self-contained under `dist/workers/<KIT_VERSION>/` and the app copies `dist/workers/`
 * to a static path of its site. The version folder keeps every script URL distinct per kit version: a site's shared
 * worker is found by its URL (and name), so pages of two kit versions never attach to each other's engine, and no
 * HTTP cache hands one version's page the other's worker under a stable name.
 */
import { KIT_VERSION } from './kit-version.ts';

/** The URL of the kit's worker file `name` (`shared-worker.js`, `worker.js`) under the app's copy at `base`. */
export function copiedWorkerUrl(base: string | URL, name: string): URL {
  const folder = new URL(base, document.baseURI);
  // `/assets/store-upload-kit` names a folder: without its slash, a relative URL would resolve beside it.
  if (!folder.pathname.endsWith('/')) folder.pathname += '/';
  return new URL(`${KIT_VERSION}/${name}`, folder);
}
