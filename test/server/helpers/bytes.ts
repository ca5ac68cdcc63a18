/** Deterministic test content: byte i = (i * 13 + seed) & 255, so two sizes or seeds never look alike. */
export function bytesOf(size: number, seed = 3): Buffer {
  const b = Buffer.alloc(size);
  for (let i = 0; i < size; i++) b[i] = (i * 13 + seed) & 255;
  return b;
}
