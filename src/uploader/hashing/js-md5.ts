import type SparkMD5 from 'spark-md5';
import * as sparkModule from 'spark-md5';
import type { JsMd5State, Md5Engine, SavedHash } from './md5-engine.ts';

/**
 * spark-md5 is a UMD script: bundlers and Node hand it over as the namespace's `default`; loaded unbundled as an ES
 * module (a dev server), it has no exports and sets `self.SparkMD5` instead.
 */
const Spark: typeof SparkMD5 =
  (sparkModule as unknown as { default?: typeof SparkMD5 }).default ?? (globalThis as unknown as { SparkMD5: typeof SparkMD5 }).SparkMD5;

/**
 * spark-md5 (plain JavaScript), for pages that refuse WebAssembly. About a third of the wasm speed; its state saves
 * and loads like hash-wasm's, so resumed uploads still verify.
 */
export function createJsMd5(): Md5Engine {
  const hasher = new Spark.ArrayBuffer();
  // spark-md5's setState converts the state it is given in place: hand it a copy so saved states stay reusable.
  const load = (state: JsMd5State) => hasher.setState({ ...state, hash: [...state.hash] } as unknown as SparkMD5.State);
  return {
    impl: 'js',
    init: () => void hasher.reset(),
    update: (bytes) => {
      // append takes a whole ArrayBuffer: copy a view that does not span its buffer.
      const exact = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength ? bytes.buffer : bytes.slice().buffer;
      hasher.append(exact as ArrayBuffer);
    },
    save: (): SavedHash => ({ impl: 'js', state: hasher.getState() as unknown as JsMd5State }),
    load: (saved) => void load((saved as { state: JsMd5State }).state),
    hex: () => {
      const state = hasher.getState() as unknown as JsMd5State;
      const digest = hasher.end();
      load(state);
      return digest;
    },
  };
}
