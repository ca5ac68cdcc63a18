/** Bytes read at each sampled place. */
const SLICE = 4 * 1024;
/** Places sampled: the first and last slice and three evenly between. */
const PLACES = 5;

/**
 * A hash of a few small slices spread through the file (about 20 KiB read, whatever its size), kept with a resumable
 * session when it starts. Before an upload resumes from a kept handle, a kept Blob or a file chosen again, the file
 * must give the same sample: size and `lastModified` alone miss a file rewritten in place by a tool that keeps the
 * date. Not cryptographic (a change between the slices goes unseen; the MD5 check at the end still catches it) and
 * computed without `crypto.subtle`, which pages outside a secure context lack.
 */
export async function sampleOf(file: Blob): Promise<string> {
  const size = file.size;
  const last = Math.max(0, size - SLICE);
  const starts = new Set<number>();
  for (let i = 0; i < PLACES; i++) starts.add(Math.floor((last * i) / (PLACES - 1)));
  const bytes = new Uint8Array(await new Blob([...starts].map((at) => file.slice(at, at + SLICE))).arrayBuffer());
  return `${size}:${hash(bytes, 0x811c9dc5)}${hash(bytes, 0x01000193)}`;
}

/** FNV-1a (32-bit) from `seed`, as 8 hex digits; two seeds give 64 bits. */
function hash(bytes: Uint8Array, seed: number): string {
  let h = seed >>> 0;
  for (const byte of bytes) h = Math.imul(h ^ byte, 0x01000193) >>> 0;
  return h.toString(16).padStart(8, '0');
}
