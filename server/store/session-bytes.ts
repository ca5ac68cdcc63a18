/**
 * All of a resumable session's bytes on disk: appending a request body to its part file (hashing whole 256 KiB
 * blocks as they complete), cutting it back to whole blocks, and handing the finished part to the blob store.
 * The upload handler (`uploads/resumable-put.ts`) keeps only the Content-Range rules and the answers.
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { BLOCK_SIZE, floorToBlock } from 'store-upload-kit/protocol';
import type { BlobStore } from './blobs.ts';
import { FileWriter } from './file-writer.ts';
import { type SessionHash, SessionStore } from './sessions.ts';

/** The bytes of a finished session, moved into the blob store. */
export interface CompletedBytes {
  readonly blob: string;
  readonly md5: string;
}

/** Owner of the part files of resumable sessions. */
export class SessionBytes {
  readonly #sessions: SessionStore;
  readonly #blobs: BlobStore;

  constructor(sessions: SessionStore, blobs: BlobStore) {
    this.#sessions = sessions;
    this.#blobs = blobs;
  }

  /** Cuts a session's part file to `size` bytes (a whole number of blocks, or what was stored before a request). */
  async cutTo(id: string, size: number): Promise<void> {
    const fh = await open(this.#sessions.partPath(id), 'a');
    try {
      await fh.truncate(size);
    } finally {
      await fh.close();
    }
  }

  /**
   * Appends `body` to the part file from `stored` (a body starting at `first` < `stored` has its first bytes
   * skipped: they are already kept), hashing whole blocks as they complete. Returns the body length and the tail
   * (bytes past the last whole block, not yet hashed). If the body fails mid-way (connection cut), keeps the whole
   * blocks that reached the disk and rethrows.
   */
  async append(id: string, stored: number, first: number, state: SessionHash, body: AsyncIterable<Uint8Array>): Promise<{ received: number; tail: Uint8Array[] }> {
    const fh = await open(this.#sessions.partPath(id), stored === 0 ? 'w' : 'r+');
    const writer = new FileWriter(fh, stored);
    let skip = stored - first;
    let received = 0;
    // Bytes since the last block boundary: hashed only once their block is complete, so the hash never covers
    // bytes a cut request does not keep.
    let pending: Uint8Array[] = [];
    let pendingLength = 0;
    try {
      try {
        for await (const raw of body) {
          received += raw.length;
          let chunk = raw;
          if (skip > 0) {
            const drop = Math.min(skip, chunk.length);
            skip -= drop;
            chunk = chunk.subarray(drop);
            if (chunk.length === 0) continue;
          }
          await writer.push(chunk);
          pending.push(chunk);
          pendingLength += chunk.length;
          if (pendingLength >= BLOCK_SIZE) {
            const whole = floorToBlock(pendingLength);
            pending = await hashPrefix(state, pending, whole);
            state.upTo += whole;
            pendingLength -= whole;
          }
        }
        await writer.finish();
      } catch (e) {
        // Whole blocks still queued must reach the disk before the cut (finish leaves no write pending, even failing).
        await writer.finish().catch(() => undefined);
        await fh.truncate(state.upTo).catch(() => undefined);
        this.#sessions.touch(id);
        throw e;
      }
    } finally {
      await fh.close();
    }
    return { received, tail: pending };
  }

  /**
   * Finishes a session's bytes: feeds the tail into the running hash (or rehashes the part when the hash does not
   * line up, e.g. after a restart between requests) and moves the part into the blob store.
   */
  async complete(id: string, size: number, state: SessionHash, tail: readonly Uint8Array[]): Promise<CompletedBytes> {
    let upTo = state.upTo;
    for (const t of tail) {
      await state.hash.update(t);
      upTo += t.length;
    }
    const path = this.#sessions.partPath(id);
    const md5 = upTo === size ? await state.hash.digest() : await md5OfFile(path, size);
    this.#sessions.forgetHash(id);
    const blob = SessionStore.blobName(id);
    await this.#blobs.adopt(path, blob).catch(async (e: NodeJS.ErrnoException) => {
      if (e.code !== 'ENOENT') throw e;
      // An empty upload never created a part file.
      const fh = await open(this.#blobs.path(blob), 'w');
      await fh.close();
    });
    return { blob, md5 };
  }
}

/** Hashes the first `length` bytes of `chunks` and returns the rest. */
async function hashPrefix(state: SessionHash, chunks: readonly Uint8Array[], length: number): Promise<Uint8Array[]> {
  let left = length;
  const rest: Uint8Array[] = [];
  for (const p of chunks) {
    if (left >= p.length) {
      await state.hash.update(p);
      left -= p.length;
    } else if (left > 0) {
      await state.hash.update(p.subarray(0, left));
      rest.push(p.subarray(left));
      left = 0;
    } else rest.push(p);
  }
  return rest;
}

async function md5OfFile(path: string, size: number): Promise<string> {
  const hash = createHash('md5');
  if (size > 0) for await (const c of createReadStream(path, { start: 0, end: size - 1 })) hash.update(c as Buffer);
  return hash.digest('hex');
}
