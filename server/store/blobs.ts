/**
 * Content on disk: `<data>/blobs/<name>` (immutable once renamed into place), temp files in `<data>/tmp/`.
 * New content is written to a temp file and renamed, so a crash never leaves a half-written blob referenced.
 */
import { randomBytes } from 'node:crypto';
import { createReadStream, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { open, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { FileWriter } from './file-writer.ts';
import { Md5Hasher } from './md5.ts';

/** A blob written by {@link BlobStore.write}. */
export interface WrittenBlob {
  readonly name: string;
  readonly size: number;
  readonly md5: string;
}

/** Thrown by {@link BlobStore.write} when the body exceeds the allowed size. */
class BlobTooLargeError extends Error {
  constructor(readonly limit: number) {
    super(`the content exceeds ${limit} bytes`);
  }
}

/** Blob directory manager. */
export class BlobStore {
  readonly dir: string;
  readonly tmpDir: string;

  constructor(dataDir: string) {
    this.dir = join(dataDir, 'blobs');
    this.tmpDir = join(dataDir, 'tmp');
    mkdirSync(this.dir, { recursive: true });
    mkdirSync(this.tmpDir, { recursive: true });
  }

  /** A fresh blob name. */
  newName(): string {
    return `b-${Date.now().toString(36)}-${randomBytes(8).toString('hex')}`;
  }

  /** Absolute path of a blob. */
  path(name: string): string {
    return join(this.dir, name);
  }

  /**
   * Streams `source` to a temp file, hashing as it goes, then renames it into place. On any error (cut
   * connection, size cap) the temp file is removed and nothing is referenced.
   */
  async write(source: AsyncIterable<Uint8Array>, maxBytes = Number.MAX_SAFE_INTEGER): Promise<WrittenBlob> {
    const name = this.newName();
    const tmp = join(this.tmpDir, `${name}.tmp`);
    const fh = await open(tmp, 'w');
    const hash = new Md5Hasher();
    const writer = new FileWriter(fh, 0);
    let size = 0;
    try {
      for await (const chunk of source) {
        size += chunk.length;
        if (size > maxBytes) throw new BlobTooLargeError(maxBytes);
        await writer.push(chunk);
        await hash.update(chunk);
      }
      await writer.finish();
      await fh.close();
    } catch (e) {
      hash.dispose();
      // The handle closes only once no write is pending on it.
      await writer.settle();
      await fh.close().catch(() => undefined);
      await rm(tmp, { force: true });
      throw e;
    }
    await rename(tmp, this.path(name));
    return { name, size, md5: await hash.digest() };
  }

  /** Writes bytes already in memory (converted native content). */
  async writeBytes(bytes: Uint8Array): Promise<WrittenBlob> {
    async function* one() {
      yield bytes;
    }
    return this.write(one());
  }

  /** Moves an existing file (a completed session part) into the blob directory under `name`. */
  async adopt(path: string, name: string): Promise<void> {
    await rename(path, this.path(name));
  }

  /** Streams a blob, optionally a byte range `[start, end]` inclusive. */
  read(name: string, range?: { start: number; end: number }): Readable {
    return createReadStream(this.path(name), range ? { start: range.start, end: range.end } : {});
  }

  /** Deletes a blob; missing blobs are fine. */
  async remove(name: string): Promise<void> {
    await rm(this.path(name), { force: true });
  }

  /** Startup clean-up: drops temp files and blobs no row references (left by a crash between steps). */
  collectGarbage(referenced: ReadonlySet<string>): number {
    let removed = 0;
    for (const f of readdirSync(this.tmpDir)) {
      rmSync(join(this.tmpDir, f), { force: true });
      removed++;
    }
    for (const f of readdirSync(this.dir)) {
      if (!referenced.has(f)) {
        rmSync(join(this.dir, f), { force: true });
        removed++;
      }
    }
    return removed;
  }
}
