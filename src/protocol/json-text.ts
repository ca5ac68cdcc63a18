/**
 * Strict JSON text (RFC 8259 §8.1–8.2): UTF-8 without invalid sequences, and strings without lone surrogates.
 * `TextDecoder` would turn both into U+FFFD and `JSON.parse` would accept them, storing something the client never
 * sent; these checks name the first offending position instead.
 */
import { utf8Decode } from './multipart-text.ts';

/** Byte offset of the first invalid UTF-8 sequence in `bytes`, or -1 when it is all valid (RFC 3629). */
export function invalidUtf8At(bytes: Uint8Array): number {
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i];
    if (b < 0x80) {
      i++;
      continue;
    }
    let need: number;
    let min: number;
    if (b >= 0xc2 && b <= 0xdf) {
      need = 1;
      min = 0x80;
    } else if (b >= 0xe0 && b <= 0xef) {
      need = 2;
      min = 0x800;
    } else if (b >= 0xf0 && b <= 0xf4) {
      need = 3;
      min = 0x10000;
    } else return i;
    if (i + need >= bytes.length) return i; // the sequence is cut off by the end
    let cp = b & (0x3f >> need);
    for (let k = 1; k <= need; k++) {
      const c = bytes[i + k];
      if ((c & 0xc0) !== 0x80) return i;
      cp = (cp << 6) | (c & 0x3f);
    }
    if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return i;
    i += need + 1;
  }
  return -1;
}

const isHigh = (c: number) => c >= 0xd800 && c <= 0xdbff;
const isLow = (c: number) => c >= 0xdc00 && c <= 0xdfff;

/** The code unit of a `\uXXXX` escape starting at `at` (the backslash), or -1. */
function escapeAt(text: string, at: number): number {
  if (text[at] !== '\\' || text[at + 1] !== 'u') return -1;
  const hex = text.slice(at + 2, at + 6);
  return /^[0-9a-fA-F]{4}$/.test(hex) ? parseInt(hex, 16) : -1;
}

/**
 * Character offset in `text` of the first lone surrogate inside a JSON string — escaped (`"\ud800"`) or raw — or
 * -1 when there is none. Only string literals are scanned; the text need not be valid JSON otherwise.
 */
export function loneSurrogateAt(text: string): number {
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (!inString) {
      if (c === 0x22) inString = true;
      continue;
    }
    if (c === 0x22) inString = false;
    else if (c === 0x5c) {
      const unit = escapeAt(text, i);
      if (unit === -1) {
        i++; // a short escape such as \" or \\: skip the escaped character
        continue;
      }
      if (isLow(unit)) return i;
      if (isHigh(unit)) {
        if (!isLow(escapeAt(text, i + 6))) return i;
        i += 6;
      }
      i += 5;
    } else if (isLow(c)) return i;
    else if (isHigh(c)) {
      if (!isLow(text.charCodeAt(i + 1))) return i;
      i++;
    }
  }
  return -1;
}

/** The text of `bytes` when they are strict JSON text, else a sentence naming the first offending position. */
export function strictJsonText(bytes: Uint8Array): { problem: string } | { text: string } {
  const bad = invalidUtf8At(bytes);
  if (bad !== -1) return { problem: `The body is not valid UTF-8: invalid byte sequence at byte ${bad}.` };
  const text = utf8Decode(bytes, true);
  const lone = loneSurrogateAt(text);
  if (lone !== -1)
    return { problem: `A JSON string holds a lone surrogate (an unpaired \\ud800–\\udfff) at position ${lone}.` };
  return { text };
}
