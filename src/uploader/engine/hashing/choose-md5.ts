import type { Md5Engine, Md5Preference } from './md5-engine.ts';

/** Whether this thread may compile WebAssembly: tried once, so a CSP refusal is reported once, not per file. */
let wasmWorks: Promise<boolean> | undefined;

/** ts-md5, loaded only when it is used. */
async function jsMd5(): Promise<Md5Engine> {
  const { createJsMd5 } = await import('./js-md5.ts');
  return createJsMd5();
}

/**
 * A fresh MD5 engine: hash-wasm unless the page asked for `'js'` or WebAssembly compilation was refused here, then
 * ts-md5. Each is imported only when it is used, so a page loads one of them.
 */
export async function createMd5(preference: Md5Preference): Promise<Md5Engine> {
  if (preference === 'js') return jsMd5();
  if (wasmWorks === undefined) {
    const attempt = import('./wasm-md5.ts').then(({ createWasmMd5 }) => createWasmMd5());
    wasmWorks = attempt.then(
      () => true,
      () => false,
    );
    return attempt.catch(jsMd5);
  }
  if (!(await wasmWorks)) return jsMd5();
  const { createWasmMd5 } = await import('./wasm-md5.ts');
  return createWasmMd5();
}
