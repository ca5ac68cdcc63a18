/**
 * Content in an S3-compatible bucket (the content port's object-store backend, `--content s3://BUCKET[/PREFIX]`):
 * finished content is one object under the prefix, its content key `content/<name>` (`blobs/<name>` for content
 * written before schema 5, `content-keys.ts`); resumable sessions stage under `sessions/<id>/`
 * (`s3-session-content.ts`). A body is streamed: a body under one part (8 MiB) is one PUT, a bigger one goes
 * straight into a multipart upload (up to four parts in flight while the next fills), so no byte is written twice.
 * Loaded only when configured (`index.ts`), so the default service never loads the SDK.
 */
import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { ChunkQueue, type Taken } from './chunk-queue.ts';
import { CONTENT_DIRS, checkContentKey, newContentKey } from './content-keys.ts';
import { PartPipeline } from './part-pipeline.ts';
import type { ByteRange, ContentStore, LocalCopy, WrittenContent } from './content-port.ts';
import { type BucketAccess, S3Bucket } from './s3-client.ts';
import { S3SessionContent } from './s3-session-content.ts';
import { PART_SIZE, type StagingTimes } from './s3-staging.ts';
import { ContentTooLargeError } from './too-large.ts';
import { bodyBytesSeen } from '../young-generation.ts';

/** The object store's tuning: how old staging and orphans must be before a sweep removes them. */
export interface S3ContentOptions extends BucketAccess, Partial<StagingTimes> {}

const WEEK_MS = 7 * 24 * 3600 * 1000;
/** Content no row names is removed only this long after it was written: another node may be about to commit it. */
const ORPHAN_GRACE_MS = 3600 * 1000;

/** Opens the bucket, checking first that it exists and takes a write (one readable line otherwise). */
export async function openS3Content(options: S3ContentOptions): Promise<S3Content> {
  const bucket = new S3Bucket(options);
  try {
    await bucket.checkWritable();
  } catch (e) {
    bucket.destroy();
    throw e;
  }
  return new S3Content(bucket, {
    stagingTtlMs: options.stagingTtlMs ?? WEEK_MS,
    orphanGraceMs: options.orphanGraceMs ?? ORPHAN_GRACE_MS,
  });
}

/** The content port on an S3-compatible bucket. */
class S3Content implements ContentStore {
  readonly bucket: S3Bucket;
  readonly sessions: S3SessionContent;
  readonly #times: StagingTimes;

  constructor(bucket: S3Bucket, times: StagingTimes) {
    this.bucket = bucket;
    this.#times = times;
    this.sessions = new S3SessionContent(bucket, times);
  }

  /**
   * Streams `source` into one new object: a body shorter than a part is one PUT; a longer one is a multipart upload
   * whose parts are sent as they fill. On any error the upload is aborted and nothing is kept.
   */
  async write(source: AsyncIterable<Uint8Array>, maxBytes = Number.MAX_SAFE_INTEGER): Promise<WrittenContent> {
    const rel = newContentKey();
    const hash = createHash('md5');
    const queue = new ChunkQueue();
    // The multipart upload, once the body is bigger than one part.
    const multi: { uploadId?: string; parts?: PartPipeline } = {};
    let n = 0;
    let size = 0;
    // Parts go out as they fill, a few at once; the body waits while they are all in flight.
    const send = async (taken: Taken) => {
      try {
        multi.uploadId ??= await this.bucket.createUpload(rel);
      } catch (e) {
        taken.release();
        throw e;
      }
      multi.parts ??= new PartPipeline(this.bucket, rel, multi.uploadId);
      await multi.parts.add(++n, taken.bytes, taken.length, taken.release);
    };
    try {
      for await (const chunk of source) {
        size += chunk.length;
        if (size > maxBytes) throw new ContentTooLargeError(maxBytes);
        hash.update(chunk);
        queue.push(chunk);
        bodyBytesSeen(chunk.length);
        if (queue.length >= PART_SIZE) await send(queue.take(PART_SIZE));
      }
      if (multi.uploadId === undefined || multi.parts === undefined) {
        const taken = queue.take(queue.length);
        await this.bucket.put(rel, taken.bytes, size).finally(taken.release);
      } else {
        if (queue.length > 0) await send(queue.take(queue.length));
        const settled = await multi.parts.settle();
        if (settled.failure !== undefined) throw settled.failure;
        await this.bucket.completeUpload(rel, multi.uploadId, settled.landed);
      }
    } catch (e) {
      await multi.parts?.settle();
      if (multi.uploadId !== undefined) await this.bucket.abortUpload(rel, multi.uploadId).catch(() => undefined);
      throw e;
    } finally {
      queue.dispose();
    }
    return { key: rel, size, md5: hash.digest('hex') };
  }

  /** Writes bytes already in memory (converted native content): one object, whole or not at all. */
  async writeBytes(bytes: Uint8Array): Promise<WrittenContent> {
    async function* one() {
      yield bytes;
    }
    return this.write(one());
  }

  /** Streams an object (or a range of it); rejects when it does not exist. */
  read(key: string, range?: ByteRange): Promise<Readable> {
    return this.bucket.get(checkContentKey(key), range);
  }

  /** A temporary local copy (conversion and export read a path); `release` removes it. */
  async localCopy(key: string): Promise<LocalCopy> {
    const dir = await mkdtemp(join(tmpdir(), 'store-content-'));
    const path = join(dir, basename(checkContentKey(key)));
    const release = () => rm(dir, { recursive: true, force: true });
    try {
      await pipeline(await this.read(key), createWriteStream(path));
    } catch (e) {
      await release();
      throw e;
    }
    return { path, release };
  }

  async remove(key: string): Promise<void> {
    await this.bucket.delete([checkContentKey(key)]);
  }

  /**
   * Removes content no row references once it is older than the orphan grace (another node may be about to commit
   * it), aborts abandoned multipart uploads, and sweeps staging of sessions untouched for the session TTL, also
   * when the node that began them is gone.
   */
  async collectGarbage(referenced: ReadonlySet<string>): Promise<number> {
    const now = Date.now();
    const old: string[] = [];
    for (const dir of CONTENT_DIRS) {
      for await (const o of this.bucket.list(`${dir}/`)) {
        if (!referenced.has(o.key) && now - o.lastModified.getTime() >= this.#times.orphanGraceMs) old.push(o.key);
      }
    }
    await this.bucket.delete(old);
    return old.length + (await this.sessions.sweep());
  }

  async close(): Promise<void> {
    this.bucket.destroy();
  }
}
