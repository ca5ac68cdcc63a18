/**
 * The one owner of a resumable session's bytes on disk, `<data>/sessions/<id>.part` (the disk's `SessionContent`):
 * its path, appending a request body (hashing whole 256 KiB blocks as they complete), cutting it back, the running
 * MD5, adopting the finished part into the content directory, deleting it, and recovery after a crash. Session rows and
 * locks are `store/sessions.ts`; the upload handler (`handlers/resumable-put.ts`) keeps only the Content-Range rules
 * and the answers.
 *
 * The part file is the truth for how many bytes are stored: outside a request it always holds whole 256 KiB blocks
 * (or the session is complete). After a crash a part file may end mid-block; it is cut back to the last whole
 * block the next time the session is used, so a kill -9 loses only the in-flight request's partial block.
 */
import { createHash } from 'node:crypto';
import { createReadStream, existsSync, mkdirSync } from 'node:fs';
import { type FileHandle, open, readdir, rename, rm, stat, truncate } from 'node:fs/promises';
import { join } from 'node:path';
import { BLOCK_SIZE, floorToBlock } from 'store-upload-kit/protocol';
import { legacySessionKey, sessionContentKey } from './content-keys.ts';
import type { Appended, CompletedContent, SessionContent } from './content-port.ts';
import { FileWriter } from './file-writer.ts';
import { Md5Hasher } from './md5.ts';

/** What a session needs of the finished content on disk (`DiskContent`): where content's file is, and moving one in. */
interface ContentFiles {
  path(key: string): string;
  adopt(path: string, key: string): Promise<void>;
}

/** MD5 of a session's stored bytes, kept in memory between requests (rebuilt from the part after a restart). */
interface RunningHash {
  readonly hash: Md5Hasher;
  /** How many bytes from the start it has consumed (the stored size between requests). */
  upTo: number;
}

/** Owner of the part files of resumable sessions. */
export class DiskSessionContent implements SessionContent {
  readonly #dir: string;
  readonly #content: ContentFiles;
  readonly #hashes = new Map<string, RunningHash>();

  constructor(dir: string, content: ContentFiles) {
    this.#dir = dir;
    this.#content = content;
    mkdirSync(dir, { recursive: true });
  }

  #path(id: string): string {
    return join(this.#dir, `${id}.part`);
  }

  /**
   * Bytes stored for an open session. Cuts a part file that ends mid-block (a crash during a request) back to its
   * last whole block, so the stored size is always what a 308 reports.
   */
  async stored(id: string): Promise<number> {
    const path = this.#path(id);
    if (!existsSync(path)) return 0;
    const { size } = await stat(path);
    const whole = floorToBlock(size);
    if (whole !== size) await truncate(path, whole);
    return whole;
  }

  /**
   * Appends `body` to the part file from `stored` (a body starting at `first` < `stored` has its first bytes
   * skipped: they are already kept), hashing whole blocks as they complete. If the body fails mid-way (connection
   * cut), keeps the whole blocks that reached the disk and rethrows. What it appended stays until {@link keep} or
   * {@link complete} says what the request keeps.
   */
  async append(id: string, stored: number, first: number, body: AsyncIterable<Uint8Array>): Promise<Appended> {
    const state = await this.#hashAt(id, stored);
    const fh = await open(this.#path(id), stored === 0 ? 'w' : 'r+');
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
            pending = await hashPrefix(state.hash, pending, whole);
            state.upTo += whole;
            pendingLength -= whole;
          }
        }
        await writer.finish();
        // On disk before the 308/200 that acknowledges these bytes: a power cut after the answer keeps them.
        await fh.datasync();
      } catch (e) {
        await this.#cutToWritten(id, fh, writer, stored);
        throw e;
      }
    } finally {
      await fh.close();
    }
    return { received, tail: pending };
  }

  /**
   * After a failed request (body cut, or a write refused: ENOSPC, EDQUOT, EFBIG, EIO): keeps the whole blocks that
   * reached the disk, never what merely arrived, so the stored size a status query reports is bytes on disk, equal to
   * what was sent. If even those cannot be made durable, the request keeps nothing.
   */
  async #cutToWritten(id: string, fh: FileHandle, writer: FileWriter, stored: number): Promise<void> {
    // Whole blocks still queued go out first (finish leaves no write pending, even when it fails).
    await writer.finish().catch(() => undefined);
    let kept = floorToBlock(writer.written);
    // A failed cut leaves the file at most `written` long, which `stored()` floors to the same whole blocks.
    await fh.truncate(kept).catch(() => undefined);
    try {
      await fh.datasync();
    } catch {
      kept = stored;
      await fh.truncate(kept).catch(() => undefined);
    }
    // The running hash covers what arrived; it no longer matches the part when less was written.
    if (this.#hashes.get(id)?.upTo !== kept) this.#forgetHash(id);
  }

  /**
   * Cuts the part file back to `size` bytes after a request that does not finish the upload: to its whole blocks,
   * or to what was stored before a refused request (whose blocks the running hash then no longer matches).
   */
  async keep(id: string, size: number): Promise<void> {
    const fh = await open(this.#path(id), 'a');
    try {
      await fh.truncate(size);
      // A refused request's blocks must not come back after a power cut as stored bytes.
      await fh.datasync();
    } finally {
      await fh.close();
    }
    if (this.#hashes.get(id)?.upTo !== size) this.#forgetHash(id);
  }

  /**
   * Finishes a session holding `size` bytes: feeds the tail of its last request into the running hash (or rehashes
   * the part when the hash does not line up, e.g. after a restart) and moves the part into the content directory.
   */
  async complete(id: string, size: number, tail: readonly Uint8Array[] = []): Promise<CompletedContent> {
    // The hash the last append left, or (a status query that completes, a restart) one rebuilt from the part.
    const state = this.#hashes.get(id) ?? (await this.#hashAt(id, size));
    let upTo = state.upTo;
    for (const t of tail) {
      await state.hash.update(t);
      upTo += t.length;
    }
    const path = this.#path(id);
    const md5 = upTo === size ? await state.hash.digest() : await md5OfFile(path, size);
    this.#forgetHash(id);
    const key = sessionContentKey(id);
    await this.#content.adopt(path, key).catch(async (e: unknown) => {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
      // An empty upload never created a part file.
      const fh = await open(this.#content.path(key), 'w');
      await fh.close();
    });
    return { key, md5 };
  }

  /**
   * Moves a completed session's bytes back into its part file (its file's commit failed for lack of storage); false
   * when the content is gone (a conversion consumed it).
   */
  async reopen(id: string, key: string): Promise<boolean> {
    try {
      await rename(this.#content.path(key), this.#path(id));
      return true;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return false;
      throw e;
    }
  }

  /** Deletes a session's bytes (cancelled, expired, or its completion refused). */
  async remove(id: string): Promise<void> {
    this.#forgetHash(id);
    await rm(this.#path(id), { force: true });
  }

  /**
   * Startup recovery. A crash during completion can leave an open session whose part was already renamed to its
   * content: `committed(id, key)` says whether a file row took it (the caller then marks the session complete);
   * otherwise the bytes move back so the session can finish. The previous version's key is looked at too (a
   * completion it began). Part files of sessions not in `open` hold bytes nothing can reach and are deleted.
   */
  async recover(open: readonly string[], committed: (id: string, key: string) => Promise<boolean>): Promise<void> {
    for (const id of open) {
      const part = this.#path(id);
      for (const key of [sessionContentKey(id), legacySessionKey(id)]) {
        if (existsSync(part) || !existsSync(this.#content.path(key))) continue;
        if (!(await committed(id, key))) await rename(this.#content.path(key), part);
      }
    }
    const keep = new Set(open);
    for (const f of await readdir(this.#dir)) {
      if (!f.endsWith('.part') || !keep.has(f.slice(0, -'.part'.length))) await rm(join(this.#dir, f), { force: true });
    }
  }

  /** The running MD5 of the first `stored` bytes, rebuilt from the part file if memory does not have it. */
  async #hashAt(id: string, stored: number): Promise<RunningHash> {
    const known = this.#hashes.get(id);
    if (known && known.upTo === stored) return known;
    known?.hash.dispose();
    const hash = new Md5Hasher();
    if (stored > 0) {
      for await (const chunk of createReadStream(this.#path(id), { start: 0, end: stored - 1 }))
        await hash.update(chunk as Buffer);
    }
    const state = { hash, upTo: stored };
    this.#hashes.set(id, state);
    return state;
  }

  #forgetHash(id: string): void {
    this.#hashes.get(id)?.hash.dispose();
    this.#hashes.delete(id);
  }
}

/** Hashes the first `length` bytes of `chunks` and returns the rest. */
async function hashPrefix(hash: Md5Hasher, chunks: readonly Uint8Array[], length: number): Promise<Uint8Array[]> {
  let left = length;
  const rest: Uint8Array[] = [];
  for (const p of chunks) {
    if (left >= p.length) {
      await hash.update(p);
      left -= p.length;
    } else if (left > 0) {
      await hash.update(p.subarray(0, left));
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
