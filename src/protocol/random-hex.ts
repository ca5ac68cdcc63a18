/** Random hex digits, apart from the text helpers so a module that needs only these carries nothing else. */

const globals = globalThis as unknown as { crypto?: { getRandomValues(array: Uint8Array): Uint8Array } };

/**
 * `bytes` random bytes as lower-case hex. Uses the platform CSPRNG when present: a boundary must not occur in the
 * payload, and an unpredictable one cannot be planted in a file by someone else.
 */
export function randomHex(bytes: number): string {
  const buf = new Uint8Array(bytes);
  if (globals.crypto) {
    globals.crypto.getRandomValues(buf);
  } else {
    for (let i = 0; i < bytes; i++) buf[i] = Math.floor(Math.random() * 256);
  }
  let out = '';
  for (const b of buf) out += b.toString(16).padStart(2, '0');
  return out;
}
