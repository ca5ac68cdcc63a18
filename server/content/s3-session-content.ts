/**
 * Resumable sessions' staged bytes in an S3-compatible bucket, usable from any node: everything a session holds is
 * described by a small state object `sessions/<id>/state.json`, written before `append`/`keep` return, so the node
 * that answers the next request (or a status query) reads the truth from the object store, never from a process.
 *
 * The staging rule. The protocol sends chunks of whole 256 KiB blocks; S3 parts must be at least 5 MiB except the
 * last, and parts cannot be appended to. So a session's bytes are, in order:
 *   1. parts of exactly {@link PART_SIZE} (8 MiB) of one multipart upload to the final key `content/u-<id>`
 *      (`blobs/u-<id>` for a session the version before schema 5 began: its state names no key),
 *   2. then fewer than {@link PART_SIZE} bytes in "segments": small objects of whole blocks, one per request that
 *      ended short of a part boundary.
 * A request's bytes fill the next part in memory; once segments + memory reach a part, the segments are streamed
 * back out of the store ahead of the memory into that part, and no longer referenced. Up to four parts upload at
 * once (`part-pipeline.ts`; memory: those parts), and the state is written once the request's parts have landed.
 * A big chunk or a whole-file PUT therefore goes straight into parts (written once); small chunks are written twice
 * (segment, then part), which is the price of 256 KiB durability against a 5 MiB minimum part. A request cut
 * mid-body keeps its whole blocks (as a segment), as the disk does; its partial block is dropped.
 *
 * The state also keeps the running MD5 (hash-wasm's saved state, so another node can continue it) and the state as
 * it was before the last request (`before`), so a refused request can be taken back (`keep` to the earlier size)
 * even after its bytes filled a part: parts past `before.partCount` are simply not listed, and are overwritten by
 * number later. On completion the remaining segments and the final tail become the last part and the upload is
 * completed into ONE object (or, below one part, one PUT); then the staging is deleted.
 */
import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { createMD5, type IHasher } from 'hash-wasm';
import { floorToBlock } from 'store-upload-kit/protocol';
import { byteLength, ChunkQueue } from './chunk-queue.ts';
import { CONTENT_DIRS, legacySessionKey, sessionContentKey } from './content-keys.ts';
import type { Appended, CompletedContent, SessionContent } from './content-port.ts';
import { PartPipeline } from './part-pipeline.ts';
import {
  asError,
  objectKey,
  PART_SIZE,
  referencedKeys,
  type Segment,
  segmentBytes,
  type Snapshot,
  type Staging,
  stateKey,
  type StagingTimes,
} from './s3-staging.ts';
import type { S3Bucket } from './s3-client.ts';
import { bodyBytesSeen } from '../young-generation.ts';

/** The staged bytes of resumable sessions, in the bucket. */
export class S3SessionContent implements SessionContent {
  readonly #bucket: S3Bucket;
  readonly #times: StagingTimes;

  constructor(bucket: S3Bucket, times: StagingTimes) {
    this.#bucket = bucket;
    this.#times = times;
  }

  async #load(id: string): Promise<Staging | undefined> {
    const bytes = await this.#bucket.getBytes(stateKey(id));
    if (!bytes) return undefined;
    const st = JSON.parse(bytes.toString('utf8')) as Staging;
    if (st.v !== 1) throw new Error(`session ${id}: staging state of an unknown version ${String(st.v)}`);
    return st;
  }

  /** Writes the state (durable when it returns), then deletes the segments the previous one needed and it does not. */
  async #save(id: string, next: Staging, previous: Staging | undefined): Promise<Staging> {
    const json = Buffer.from(JSON.stringify(next));
    await this.#bucket.put(stateKey(id), [json], json.length);
    const keep = referencedKeys(next);
    const drop = [...referencedKeys(previous)].filter((k) => !keep.has(k));
    await this.#bucket.delete(drop);
    return structuredClone(next);
  }

  async #fresh(id: string): Promise<Staging> {
    const h = await createMD5();
    h.init();
    const md5 = Buffer.from(h.save()).toString('base64');
    return { v: 1, key: sessionContentKey(id), stored: 0, parts: [], segments: [], md5 };
  }

  async #hasher(md5: string): Promise<IHasher> {
    const h = await createMD5();
    h.load(Buffer.from(md5, 'base64'));
    return h;
  }

  /** Segments (streamed back out of the store) followed by bytes in memory: the body of one part or object. */
  #body(segments: readonly Segment[], bytes: readonly Uint8Array[]): Readable | readonly Uint8Array[] {
    if (segments.length === 0) return bytes;
    const bucket = this.#bucket;
    return Readable.from(
      (async function* () {
        for (const s of segments) {
          if (s.size > 0) yield* await bucket.get(s.key, { start: s.start, end: s.start + s.size - 1 });
        }
        yield* bytes;
      })(),
      { objectMode: false },
    );
  }

  async stored(id: string): Promise<number> {
    return (await this.#load(id))?.stored ?? 0;
  }

  async append(id: string, stored: number, first: number, body: AsyncIterable<Uint8Array>): Promise<Appended> {
    const loaded = await this.#load(id);
    const st = loaded ?? (await this.#fresh(id));
    if (st.stored !== stored) throw new Error(`session ${id}: ${st.stored} byte(s) staged, ${stored} expected`);
    let saved = loaded;
    const before: Snapshot = { stored: st.stored, partCount: st.parts.length, segments: st.segments, md5: st.md5 };
    const cur: Staging = { ...structuredClone(st), before };
    const hash = await this.#hasher(st.md5);
    const queue = new ChunkQueue();
    // Where the session stands after each part handed to the pipeline, should it be the last to land.
    const marks: { stored: number; md5: string }[] = [];
    let pipeline: PartPipeline | undefined;
    let handed = cur.stored;
    let room = PART_SIZE - segmentBytes(cur.segments);
    let skip = stored - first;
    let received = 0;
    let failure: Error | undefined;
    let storageFailed = false;
    try {
      for await (const raw of body) {
        received += raw.length;
        let chunk = raw;
        if (skip > 0) {
          const drop = Math.min(skip, chunk.length);
          skip -= drop;
          chunk = chunk.subarray(drop);
        }
        queue.push(chunk);
        bodyBytesSeen(raw.length);
        while (queue.length >= room) {
          try {
            if (cur.uploadId === undefined) {
              cur.uploadId = await this.#bucket.createUpload(objectKey(id, cur));
              // Saved at once: a sweep then knows the upload belongs to this session.
              saved = await this.#save(id, cur, saved);
            }
            pipeline ??= new PartPipeline(this.#bucket, objectKey(id, cur), cur.uploadId);
            // The first part of a request starts with the session's segments, streamed back out of the store.
            const segments = marks.length === 0 ? cur.segments : [];
            const taken = queue.take(room);
            for (const b of taken.bytes) hash.update(b);
            handed += room;
            marks.push({ stored: handed, md5: Buffer.from(hash.save()).toString('base64') });
            room = PART_SIZE;
            const n = cur.parts.length + marks.length;
            await pipeline.add(n, this.#body(segments, taken.bytes), PART_SIZE, taken.release);
          } catch (e) {
            storageFailed = true;
            throw e;
          }
        }
      }
    } catch (e) {
      failure = asError(e);
    }
    if (pipeline) {
      const settled = await pipeline.settle();
      const last = marks[settled.landed.length - 1];
      if (last) {
        cur.parts.push(...settled.landed);
        cur.stored = last.stored;
        cur.md5 = last.md5;
        cur.segments = [];
      }
      if (settled.failure !== undefined) {
        storageFailed = true;
        failure ??= settled.failure;
      }
    }
    try {
      // Whole blocks past the last part, also of a cut body (as on disk); not after a part failed (a gap).
      if (!storageFailed) {
        const whole = queue.take(floorToBlock(queue.length));
        await this.#stage(id, cur, hash, whole.bytes).finally(whole.release);
      }
      await this.#save(id, cur, saved);
    } catch (e) {
      // The store failed: what it last saved is what the session holds.
      failure ??= asError(e);
    }
    const tail = queue.takeCopy(queue.length);
    queue.dispose();
    if (failure !== undefined) throw failure;
    return { received, tail };
  }

  /** Stores whole blocks as a segment object. */
  async #stage(id: string, cur: Staging, hash: IHasher, bytes: Uint8Array[]): Promise<void> {
    const length = byteLength(bytes);
    if (length === 0) return;
    const key = `sessions/${id}/seg-${cur.stored}-${randomBytes(4).toString('hex')}`;
    await this.#bucket.put(key, bytes, length);
    for (const b of bytes) hash.update(b);
    cur.segments.push({ key, start: 0, size: length });
    cur.stored += length;
    cur.md5 = Buffer.from(hash.save()).toString('base64');
  }

  async keep(id: string, size: number): Promise<void> {
    const st = await this.#load(id);
    if (!st) {
      if (size === 0) return;
      throw new Error(`session ${id}: no staging to keep ${size} byte(s) of`);
    }
    // The request is kept: its `before` stays until the next request replaces it (and deletes what it held),
    // which spares a write per chunk.
    if (size === st.stored) return;
    const b = st.before;
    if (!b || size !== b.stored) throw new Error(`session ${id}: cannot cut ${st.stored} staged byte(s) to ${size}`);
    // The refused request is taken back: its parts are no longer listed, its segments go.
    const back: Staging = {
      v: 1,
      ...(st.key !== undefined ? { key: st.key } : {}),
      stored: b.stored,
      ...(st.uploadId !== undefined ? { uploadId: st.uploadId } : {}),
      parts: st.parts.slice(0, b.partCount),
      segments: [...b.segments],
      md5: b.md5,
    };
    await this.#save(id, back, st);
  }

  async complete(id: string, size: number, tail: readonly Uint8Array[] = []): Promise<CompletedContent> {
    const st = (await this.#load(id)) ?? (await this.#fresh(id));
    const last = segmentBytes(st.segments) + byteLength(tail);
    if (st.stored + byteLength(tail) !== size)
      throw new Error(`session ${id}: ${st.stored} staged + ${byteLength(tail)} byte(s) is not ${size}`);
    const hash = await this.#hasher(st.md5);
    for (const t of tail) hash.update(t);
    const md5 = hash.digest('hex');
    const key = objectKey(id, st);
    if (st.parts.length === 0) {
      if (st.uploadId !== undefined) await this.#bucket.abortUpload(key, st.uploadId);
      await this.#bucket.put(key, this.#body(st.segments, tail), last);
    } else {
      const uploadId = st.uploadId as string;
      const parts = [...st.parts];
      if (last > 0) {
        const n = parts.length + 1;
        parts.push({ n, etag: await this.#bucket.uploadPart(key, uploadId, n, this.#body(st.segments, tail), last) });
      }
      await this.#bucket.completeUpload(key, uploadId, parts);
    }
    await this.#dropStaging(id);
    return { key, md5 };
  }

  /** Deletes a session's staging: its state first (the session then holds nothing), then its objects. */
  async #dropStaging(id: string): Promise<void> {
    await this.#bucket.delete([stateKey(id)]);
    const rest: string[] = [];
    for await (const o of this.#bucket.list(`sessions/${id}/`)) rest.push(o.key);
    await this.#bucket.delete(rest);
  }

  /**
   * Takes a completed object back as the session's staging: its full parts are copied inside the object store into
   * a new multipart upload, the rest of its whole blocks becomes a segment, the MD5 state is rebuilt by reading it
   * once, and the object is deleted. A partial last block is dropped (the client resends it, as on disk).
   */
  async reopen(id: string, completed: string): Promise<boolean> {
    const head = await this.#bucket.head(completed);
    if (!head) return false;
    await this.#abortUploads(id);
    const size = floorToBlock(head.size);
    const full = Math.floor(size / PART_SIZE);
    const st = await this.#fresh(id);
    const key = objectKey(id, st);
    const hash = await this.#hasher(st.md5);
    if (size > 0)
      for await (const c of await this.#bucket.get(completed, { start: 0, end: size - 1 })) hash.update(c as Buffer);
    st.md5 = Buffer.from(hash.save()).toString('base64');
    st.stored = size;
    if (full > 0) {
      st.uploadId = await this.#bucket.createUpload(key);
      for (let n = 1; n <= full; n++) {
        const etag = await this.#bucket.copyPart(
          key,
          st.uploadId,
          n,
          completed,
          (n - 1) * PART_SIZE,
          n * PART_SIZE - 1,
        );
        st.parts.push({ n, etag });
      }
    }
    const rest = size - full * PART_SIZE;
    if (rest > 0) {
      const seg = `sessions/${id}/seg-${full * PART_SIZE}-${randomBytes(4).toString('hex')}`;
      const bytes: Uint8Array[] = [];
      for await (const c of await this.#bucket.get(completed, { start: full * PART_SIZE, end: size - 1 }))
        bytes.push(c as Buffer);
      await this.#bucket.put(seg, bytes, rest);
      st.segments.push({ key: seg, start: 0, size: rest });
    }
    await this.#save(id, st, undefined);
    await this.#bucket.delete([completed]);
    return true;
  }

  /**
   * Aborts every multipart upload to the session's object (the state's, and any a crash left unrecorded), under
   * this version's key and the one before schema 5.
   */
  async #abortUploads(id: string): Promise<void> {
    for (const key of [sessionContentKey(id), legacySessionKey(id)]) {
      for await (const u of this.#bucket.listUploads(key)) {
        if (u.key === key) await this.#bucket.abortUpload(key, u.uploadId);
      }
    }
  }

  async remove(id: string): Promise<void> {
    await this.#abortUploads(id);
    await this.#dropStaging(id);
  }

  /**
   * Start-up recovery. A completed object of an open session means a completion a crash cut before its file was
   * committed (or whose staging was not yet dropped): `committed` says whether a file took it; if none did, the
   * bytes go back to the session. Objects younger than the orphan grace are left (another node may be committing).
   * Staging of sessions that are not open is removed once older than the grace.
   */
  async recover(open: readonly string[], committed: (id: string, key: string) => Promise<boolean>): Promise<void> {
    const now = Date.now();
    const completed = new Map<string, { key: string; at: number }>();
    for (const dir of CONTENT_DIRS) {
      for await (const o of this.#bucket.list(`${dir}/u-`))
        completed.set(o.key.slice(`${dir}/u-`.length), { key: o.key, at: o.lastModified.getTime() });
    }
    for (const id of open) {
      const done = completed.get(id);
      if (done === undefined || now - done.at < this.#times.orphanGraceMs) continue;
      if (await committed(id, done.key)) await this.#dropStaging(id);
      else await this.reopen(id, done.key);
    }
    const isOpen = new Set(open);
    for (const [id, touched] of await this.#stagingAges()) {
      if (!isOpen.has(id) && now - touched >= this.#times.orphanGraceMs) await this.remove(id);
    }
  }

  /** Each session with staging, and when its staging last changed. */
  async #stagingAges(): Promise<Map<string, number>> {
    const ages = new Map<string, number>();
    for await (const o of this.#bucket.list('sessions/')) {
      const id = o.key.split('/')[1] ?? '';
      ages.set(id, Math.max(ages.get(id) ?? 0, o.lastModified.getTime()));
    }
    return ages;
  }

  /**
   * Removes staging untouched for the session TTL (its session expired, whichever node began it), and aborts
   * multipart uploads no live staging owns once older than the orphan grace. Returns how many sessions and uploads.
   */
  async sweep(): Promise<number> {
    const now = Date.now();
    let removed = 0;
    const ages = await this.#stagingAges();
    for (const [id, touched] of ages) {
      if (now - touched < this.#times.stagingTtlMs) continue;
      await this.remove(id);
      ages.delete(id);
      removed++;
    }
    for (const dir of CONTENT_DIRS) {
      for await (const u of this.#bucket.listUploads(`${dir}/`)) {
        const owner = u.key.startsWith(`${dir}/u-`) ? u.key.slice(`${dir}/u-`.length) : undefined;
        if (owner !== undefined && ages.has(owner)) continue;
        if (now - u.initiated.getTime() < this.#times.orphanGraceMs) continue;
        await this.#bucket.abortUpload(u.key, u.uploadId);
        removed++;
      }
    }
    return removed;
  }
}
