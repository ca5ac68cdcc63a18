/**
 * Byte and text helpers for the multipart codecs.
 *
 * `lib: ES2022` has no `TextEncoder`/`TextDecoder`/`crypto` types, yet every runtime the kit targets (Node ≥ 20,
 * browsers, workers) has them as globals. Declaring them globally here would clash with the DOM lib and
 * `@types/node` when the same file is compiled by the other tsconfigs, so they are read off `globalThis`
 * through a narrow local type instead.
 */

interface Utf8Encoder {
  encode(input: string): Uint8Array;
}
interface Utf8Decoder {
  decode(input: Uint8Array): string;
}
interface TextGlobals {
  TextEncoder: new () => Utf8Encoder;
  TextDecoder: new (label?: string, options?: { fatal?: boolean }) => Utf8Decoder;
  crypto?: { getRandomValues(array: Uint8Array): Uint8Array };
}

const globals = globalThis as unknown as TextGlobals;
const encoder = new globals.TextEncoder();
const decoder = new globals.TextDecoder('utf-8');
const strictDecoder = new globals.TextDecoder('utf-8', { fatal: true });

/** UTF-8 bytes of a string. */
export function utf8Encode(text: string): Uint8Array {
  return encoder.encode(text);
}

/** Decodes UTF-8; with `strict`, malformed bytes throw a `TypeError` instead of becoming U+FFFD. */
export function utf8Decode(bytes: Uint8Array, strict = false): string {
  return (strict ? strictDecoder : decoder).decode(bytes);
}

/** Decodes bytes one-to-one as Latin-1, which never fails: used for header lines, which are octets. */
export function latin1Decode(bytes: Uint8Array): string {
  let out = '';
  // Chunked so String.fromCharCode never receives more arguments than the engine allows.
  for (let i = 0; i < bytes.length; i += 8192) {
    out += String.fromCharCode(...bytes.subarray(i, i + 8192));
  }
  return out;
}

/** Joins byte arrays into one new array. */
export function concatBytes(parts: readonly Uint8Array[]): Uint8Array {
  let total = 0;
  for (const part of parts) total += part.length;
  const out = new Uint8Array(total);
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

export { randomHex } from './random-hex.ts';
