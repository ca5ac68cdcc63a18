/** Received chunks held in memory until they are sent on as one part (no copying: `take` hands out views). */
export class ChunkQueue {
  #chunks: Uint8Array[] = [];
  #length = 0;

  get length(): number {
    return this.#length;
  }

  push(chunk: Uint8Array): void {
    if (chunk.length === 0) return;
    this.#chunks.push(chunk);
    this.#length += chunk.length;
  }

  /** Removes and returns the first `n` bytes (views of the queued chunks). */
  take(n: number): Uint8Array[] {
    const out: Uint8Array[] = [];
    let left = Math.min(n, this.#length);
    this.#length -= left;
    while (left > 0) {
      const head = this.#chunks[0];
      if (head.length <= left) {
        out.push(head);
        this.#chunks.shift();
        left -= head.length;
      } else {
        out.push(head.subarray(0, left));
        this.#chunks[0] = head.subarray(left);
        left = 0;
      }
    }
    return out;
  }
}

/** Total bytes of `chunks`. */
export function byteLength(chunks: readonly Uint8Array[]): number {
  let n = 0;
  for (const c of chunks) n += c.length;
  return n;
}
