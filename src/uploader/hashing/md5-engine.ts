/**
 * One incremental MD5 implementation behind a small interface, so the tracker works the same over WebAssembly
 * (hash-wasm, fast) and plain JavaScript (spark-md5, for pages whose Content-Security-Policy refuses WebAssembly).
 */

/** A saved MD5 state. The implementation is named: a state of one cannot be loaded into the other. */
export type SavedHash = { impl: 'wasm'; state: Uint8Array } | { impl: 'js'; state: JsMd5State };

/** spark-md5's state of an ArrayBuffer hash (plain data, structured-clone safe). */
export interface JsMd5State {
  buff: string;
  length: number;
  hash: number[];
}

/** Which implementations a hasher may use: `'auto'` tries WebAssembly once and falls back to JavaScript. */
export type Md5Preference = 'auto' | 'js';

/** An incremental MD5 whose state can be saved and restored. */
export interface Md5Engine {
  readonly impl: SavedHash['impl'];
  init(): void;
  update(bytes: Uint8Array): void;
  save(): SavedHash;
  /** Loads a state of the same implementation (callers check `impl` first). */
  load(saved: SavedHash): void;
  /** Lower-case hex digest of what was added so far; the hash can keep going afterwards. */
  hex(): string;
}

/** An old record (before the implementation was named) holds a bare hash-wasm state. */
export function savedHashOf(value: unknown): SavedHash | undefined {
  if (value instanceof Uint8Array) return { impl: 'wasm', state: value };
  if (value && typeof value === 'object' && 'impl' in value) return value as SavedHash;
  return undefined;
}
