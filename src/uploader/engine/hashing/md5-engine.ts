import type { SavedHash } from '../../contract/ports.ts';

/**
 * One incremental MD5 implementation behind a small interface, so the tracker works the same over WebAssembly
 * (hash-wasm, fast) and plain JavaScript (ts-md5, for pages whose Content-Security-Policy refuses WebAssembly).
 */

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

/**
 * A record's saved state, if it can still be loaded. An old record (before the implementation was named) holds a bare
 * hash-wasm state; one from before ts-md5 holds spark-md5's JavaScript state, which cannot be loaded: the file is then
 * re-hashed from byte 0, as for a state of the other implementation.
 */
export function savedHashOf(value: unknown): SavedHash | undefined {
  if (value instanceof Uint8Array) return { impl: 'wasm', state: value };
  if (!value || typeof value !== 'object' || !('impl' in value)) return undefined;
  const saved = value as SavedHash;
  return saved.impl === 'js' && typeof saved.state?.buflen !== 'number' ? undefined : saved;
}
