import { Md5 } from 'ts-md5';
import type { JsMd5State, SavedHash } from '../../contract/ports.ts';
import type { Md5Engine } from './md5-engine.ts';

/**
 * ts-md5 (plain JavaScript, an ES module), for pages that refuse WebAssembly. Its state saves and loads like
 * hash-wasm's, so resumed uploads still verify.
 */
export function createJsMd5(): Md5Engine {
  const hasher = new Md5();
  // setState copies what it is given, getState returns a copy: a saved state stays reusable.
  const load = (state: JsMd5State) => hasher.setState(state);
  return {
    impl: 'js',
    init: () => void hasher.start(),
    update: (bytes) => void hasher.appendByteArray(bytes),
    save: (): SavedHash => ({ impl: 'js', state: hasher.getState() }),
    load: (saved) => load((saved as { state: JsMd5State }).state),
    hex: () => {
      const state = hasher.getState();
      const digest = hasher.end() as string;
      load(state);
      return digest;
    },
  };
}
