/**
 * Content on disk (the default backend of the content port): the file `<data>/<content key>`, i.e.
 * `<data>/content/<name>` (immutable once renamed into place; content written before schema 5 stays in
 * `<data>/blobs/`, `content-keys.ts`), temp files in `<data>/tmp/`, resumable sessions' part files in
 * `<data>/sessions/` (`disk-session-content.ts`). New content is written to a temp file and renamed, so a crash
 * never leaves a half-written object referenced.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { open, readdir, rename, rm, rmdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import type { ByteRange, ContentStore, LocalCopy, WrittenContent } from './content-port.ts';
import { CONTENT_DIR, CONTENT_DIRS, checkContentKey, LEGACY_DIR, newContentKey } from './content-keys.ts';
import { DiskSessionContent } from './disk-session-content.ts';
import { FileWriter } from './file-writer.ts';
import { Md5Hasher } from './md5.ts';
import { ContentTooLargeError } from './too-large.ts';

/** The content port on the data folder's disk. */
export class DiskContent implements ContentStore {
  readonly dataDir: string;
  readonly tmpDir: string;
  readonly sessions: DiskSessionContent;

  constructor(dataDir: string) {
    this.dataDir = dataDir;
    this.tmpDir = join(dataDir, 'tmp');
    mkdirSync(join(dataDir, CONTENT_DIR), { recursive: true });
    mkdirSync(this.tmpDir, { recursive: true });
    this.sessions = new DiskSessionContent(join(dataDir, 'sessions'), this);
  }

  /** Absolute path of the content stored under `key`. */
  path(key: string): string {
    return join(this.dataDir, checkContentKey(key));
  }

  /**
   * Streams `source` to a temp file, hashing as it goes, then renames it into place. On any error (cut
   * connection, size cap) the temp file is removed and nothing is referenced.
   */
  async write(source: AsyncIterable<Uint8Array>, maxBytes = Number.MAX_SAFE_INTEGER): Promise<WrittenContent> {
    const key = newContentKey();
    const tmp = join(this.tmpDir, `${key.slice(CONTENT_DIR.length + 1)}.tmp`);
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
    await rename(tmp, this.path(key));
    return { key, size, md5: await hash.digest() };
  }

  /** Writes bytes already in memory (converted native content). */
  async writeBytes(bytes: Uint8Array): Promise<WrittenContent> {
    async function* one() {
      yield bytes;
    }
    return this.write(one());
  }

  /** Moves an existing file (a completed session part) into the content directory under `key`. */
  async adopt(path: string, key: string): Promise<void> {
    await rename(path, this.path(key));
  }

  /** Streams content, optionally a byte range; opened first, so missing content rejects here. */
  async read(key: string, range?: ByteRange): Promise<Readable> {
    const fh = await open(this.path(key), 'r');
    return fh.createReadStream(range ? { start: range.start, end: range.end } : {});
  }

  /** The content's own file: nothing to release. */
  async localCopy(key: string): Promise<LocalCopy> {
    return { path: this.path(key), release: () => Promise.resolve() };
  }

  /** Deletes content; missing content is fine. */
  async remove(key: string): Promise<void> {
    await rm(this.path(key), { force: true });
  }

  /**
   * Startup clean-up: drops temp files and content no row references (left by a crash between steps), and the
   * directory of content written before schema 5 once nothing is left in it.
   */
  async collectGarbage(referenced: ReadonlySet<string>): Promise<number> {
    let removed = 0;
    for (const f of await readdir(this.tmpDir)) {
      await rm(join(this.tmpDir, f), { force: true });
      removed++;
    }
    for (const dir of CONTENT_DIRS) {
      const path = join(this.dataDir, dir);
      if (!existsSync(path)) continue;
      for (const f of await readdir(path)) {
        if (!referenced.has(`${dir}/${f}`)) {
          await rm(join(path, f), { force: true });
          removed++;
        }
      }
    }
    // Fails while it still holds content (ENOTEMPTY): it goes with the last of it.
    await rmdir(join(this.dataDir, LEGACY_DIR)).catch(() => undefined);
    return removed;
  }

  async close(): Promise<void> {
    // Nothing is held open between requests.
  }
}
