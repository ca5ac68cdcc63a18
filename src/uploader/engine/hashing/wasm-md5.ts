import { createMD5 } from 'hash-wasm';
import type { SavedHash } from '../../contract/ports.ts';
import type { Md5Engine } from './md5-engine.ts';

/** hash-wasm's MD5 (WebAssembly). Rejects where the page's CSP refuses `WebAssembly.compile`. */
export async function createWasmMd5(): Promise<Md5Engine> {
  const hasher = await createMD5();
  hasher.init();
  return {
    impl: 'wasm',
    init: () => void hasher.init(),
    update: (bytes) => void hasher.update(bytes),
    save: (): SavedHash => ({ impl: 'wasm', state: hasher.save() }),
    load: (saved) => void hasher.load((saved as { state: Uint8Array }).state),
    hex: () => {
      const state = hasher.save();
      const digest = hasher.digest('hex');
      hasher.load(state);
      return digest;
    },
  };
}
