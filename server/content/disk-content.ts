/**
 * Content on disk (the default backend of the content port): `<data>/blobs/<name>` (immutable once renamed into
 * place), temp files in `<data>/tmp/`, resumable sessions' part files in `<data>/sessions/` (`disk-session-content.ts`).
 * New content is written to a temp file and renamed, so a crash never leaves a half-written blob referenced.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { open, readdir, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import type { ByteRange, ContentStore, LocalCopy, WrittenContent } from './content-port.ts';
import { DiskSessionContent } from './disk-session-content.ts';
import { FileWriter } from './file-writer.ts';
import { Md5Hasher } from './md5.ts';
import { ContentTooLargeError } from './too-large.ts';

/** The content port on the data folder's disk. */
export class DiskContent implements ContentStore {
  readonly dir: string;
  readonly tmpDir: string;
  readonly sessions: DiskSessionContent;

  constructor(dataDir: string) {
    this.dir = join(dataDir, 'blobs');
    this.tmpDir = join(dataDir, 'tmp');
    mkdirSync(this.dir, { recursive: true });
    mkdirSync(this.tmpDir, { recursive: true });
    this.sessions = new DiskSessionContent(join(dataDir, 'sessions'), this);
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
  async write(source: AsyncIterable<Uint8Array>, maxBytes = Number.MAX_SAFE_INTEGER): Promise<WrittenContent> {
    const name = this.newName();
    const tmp = join(this.tmpDir, `${name}.tmp`);
    const fh = await open(tmp, 'w');
    const hash = new Md5Hasher();
    const writer = new FileWriter(fh, 0);
    let size = 0;
    try {
      for await (const chunk of source) {
        size += chunk.length;
        if (size > maxBytes) throw new ContentTooLargeError(maxBytes);
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
  async writeBytes(bytes: Uint8Array): Promise<WrittenContent> {
    async function* one() {
      yield bytes;
    }
    return this.write(one());
  }

  /** Moves an existing file (a completed session part) into the blob directory under `name`. */
  async adopt(path: string, name: string): Promise<void> {
    await rename(path, this.path(name));
  }

  /** Streams a blob, optionally a byte range; opened first, so a missing blob rejects here. */
  async read(name: string, range?: ByteRange): Promise<Readable> {
    const fh = await open(this.path(name), 'r');
    return fh.createReadStream(range ? { start: range.start, end: range.end } : {});
  }

  /** The blob's own file: nothing to release. */
  async localCopy(name: string): Promise<LocalCopy> {
    return { path: this.path(name), release: () => Promise.resolve() };
  }

  /** Deletes a blob; missing blobs are fine. */
  async remove(name: string): Promise<void> {
    await rm(this.path(name), { force: true });
  }

  /** Startup clean-up: drops temp files and blobs no row references (left by a crash between steps). */
  async collectGarbage(referenced: ReadonlySet<string>): Promise<number> {
    let removed = 0;
    for (const f of await readdir(this.tmpDir)) {
      await rm(join(this.tmpDir, f), { force: true });
      removed++;
    }
    for (const f of await readdir(this.dir)) {
      if (!referenced.has(f)) {
        await rm(join(this.dir, f), { force: true });
        removed++;
      }
    }
    return removed;
  }

  async close(): Promise<void> {
    // Nothing is held open between requests.
  }
}
