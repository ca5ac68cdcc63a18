/**
 * Starting the kit's workers on pages that enforce Trusted Types (`require-trusted-types-for 'script'`, part of a
 * strict CSP): there, `new Worker(url)` with a plain URL throws, and only a `TrustedScriptURL` is accepted.
 *
 * The call itself must stay the literal `new Worker(new URL('./x.js', import.meta.url), …)`: that is how Vite,
 * webpack and other bundlers find a worker to bundle, and they rewrite the URL in place. So the literal runs as
 * written, with the global `Worker` it names swapped, for that synchronous call only, for one that hands the URL
 * the bundler produced through the kit's own policy, `store-upload-kit` (a page that lists allowed policy names in
 * `trusted-types` must list it, as it lists Lit's `lit-html`). Where the browser has no Trusted Types, or the page
 * refuses the policy, the literal runs untouched.
 */
type ScriptUrlPolicy = { createScriptURL(url: string): unknown };
type WorkerClass = new (url: string | URL, options?: WorkerOptions) => Worker | SharedWorker;
type TrustedTypesScope = Record<'Worker' | 'SharedWorker', WorkerClass> & {
  trustedTypes?: { createPolicy(name: string, rules: { createScriptURL(url: string): string }): ScriptUrlPolicy };
};

let policy: ScriptUrlPolicy | null | undefined;

/**
 * Runs `start`, which must be the bundler-visible `new Worker(new URL(…, import.meta.url), …)` literal (or the same
 * with `SharedWorker`, named by `kind`). `options`, when given, sees and may replace the options the literal passes.
 */
export function startWorker<W extends Worker | SharedWorker = Worker>(
  start: () => W,
  kind: 'Worker' | 'SharedWorker' = 'Worker',
  options?: (given: WorkerOptions | undefined) => WorkerOptions | undefined,
): W {
  const scope = globalThis as unknown as TrustedTypesScope;
  // Created once (a refused creation is reported by the browser: not again); only this module holds it, and it is
  // only ever given the URLs of the kit's own worker files.
  if (policy === undefined) {
    try {
      policy = scope.trustedTypes?.createPolicy('store-upload-kit', { createScriptURL: (url) => url }) ?? null;
    } catch {
      policy = null; // the page's `trusted-types` directive does not list it
    }
  }
  const trusted = policy;
  if (!trusted && !options) return start();
  const Native = scope[kind];
  scope[kind] = function (url: string | URL, given?: WorkerOptions) {
    return new Native(
      (trusted ? trusted.createScriptURL(String(url)) : url) as string,
      options ? options(given) : given,
    );
  } as unknown as WorkerClass;
  try {
    return start();
  } finally {
    scope[kind] = Native;
  }
}
