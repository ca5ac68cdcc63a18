import { StoreError } from '../../client/store-error.ts';
import { joinUrl, pathWithQuery } from '../../client/url.ts';
import { formatChunkRange, formatStatusQuery, parseStoredRange } from '../../protocol/content-range.ts';
import {
  H_AUTHORIZATION,
  H_CONTENT_RANGE,
  H_CONTENT_TYPE,
  H_LOCATION,
  H_RANGE,
  H_UPLOAD_CONTENT_LENGTH,
  H_UPLOAD_CONTENT_TYPE,
  JSON_CONTENT_TYPE,
  STATUS_RESUME_INCOMPLETE,
  bearer,
} from '../../protocol/headers.ts';
import { UPLOAD_FILES_PATH, uploadFilePath } from '../../protocol/routes.ts';
import type { ChunkSizer } from './chunk-sizer.ts';
import { withTimeout } from '../contract/with-timeout.ts';
import { deferredTracker } from './hashing/deferred-tracker.ts';
import { savedHashOf } from './hashing/md5-engine.ts';
import { sampleOf } from './file-sample.ts';
import { refusedByPath, type ByPath } from './by-path.ts';
import { sessionLockKey } from '../contract/ports.ts';
import type { HashTracker, HttpResponse, ReleaseLock, SessionRecord } from '../contract/ports.ts';
import { Interrupt } from './interrupt.ts';
import { cancelLateStart, deleteSession, fingerprintOf, requestMetadata } from './request-metadata.ts';
import { answerWithin, sendGuarded, sendSurvivingCancel } from './send-guarded.ts';
import { HeldElsewhere, SessionExpired } from './session-errors.ts';
import { SessionWriter } from './session-writer.ts';
import type { StoreFile } from '../contract/types.ts';
import type { UploadContext, UploadInput } from './upload-context.ts';
import type { UploadStrategy } from './upload-strategy.ts';
import { verifyResult } from './verify-result.ts';

/**
 * A resumable upload (spec §3.1, §4.3–§4.5) as a small state machine: no session → start one; a session whose state
 * is unknown (after any failure, or found in IndexedDB) → status query; then PUT bytes from the first byte not
 * acknowledged. The service may keep less than was sent: the acknowledged offset only comes from its answers.
 */
export class ResumableUpload implements UploadStrategy {
  record?: SessionRecord;
  /** True when the service's state is unknown and must be asked before sending. */
  private needsStatus: boolean;
  /** The MD5 of the bytes sent, hashed beside the requests (absent when the uploader does not verify). */
  private tracker?: HashTracker;
  private writer?: SessionWriter;
  /** This tab's hold on the session (Web Locks): no byte is sent without it. */
  private lock?: ReleaseLock;
  private readonly byPath: ByPath = { sliced: false, sent: 0 };

  constructor(
    private readonly ctx: UploadContext,
    private readonly input: UploadInput,
    private readonly sizer: ChunkSizer,
    resumeFrom?: SessionRecord,
  ) {
    if (resumeFrom) this.record = { ...resumeFrom };
    this.needsStatus = resumeFrom !== undefined;
  }

  get recordId(): string | undefined {
    return this.record?.id;
  }

  /** One attempt from wherever the upload stands; throws for the job to judge (and calls `run` again). */
  async run(signal: AbortSignal, token: string): Promise<StoreFile> {
    try {
      return await this.attempt(signal, token);
    } finally {
      // Whatever ends the attempt, the stored record must show the latest acknowledged offset before anyone looks.
      await this.writer?.flush();
    }
  }

  private async attempt(signal: AbortSignal, token: string): Promise<StoreFile> {
    const total = this.input.file.size;
    if (!this.record) await this.start(signal, token);
    else if (!this.lock) {
      const lock = await this.ctx.locks.tryAcquire(sessionLockKey(this.record.sessionUri));
      if (!lock) throw new HeldElsewhere(this.record.sessionUri);
      this.adoptLock(lock);
    }
    if (this.needsStatus) {
      const finished = await this.queryStatus(signal);
      if (finished) return this.finish(finished);
    }
    const record = this.record!;
    const writer = this.writerFor(record);
    // Queued, not awaited: the hash follows the requests from its own reads; nothing waits for it until the end. It
    // starts once bytes flow (the session start and the first byte go first) and reads on at its own pace to the end of
    // the next request (its end a guess: adaptive chunks may change size), so it runs on a core the upload leaves idle
    // and its bytes are hashed while the service answers this one (issue 32), passing each request's end, whose state
    // the record takes. Held 8 MiB ahead of the bytes sent instead, a whole file's MD5 trailed the upload: 1.37 × a
    // raw PUT's time against 1.25, and more CPU (bench/README.md, issue 40's lead A/B).
    let hashed = record.acknowledged;
    const hashAhead = (to: number) => {
      if (to <= hashed) return;
      hashed = to;
      this.openTracker()
        ?.hashTo(this.input.file, to)
        .catch(() => undefined);
    };
    for (let stuck = 0; ;) {
      const start = record.acknowledged;
      if (start === total && total > 0) {
        // A 308 for every byte leaves no range to send: the status query with the total finishes it (supplement §1).
        const finished = await this.queryStatus(signal);
        if (finished) return this.finish(finished);
        if (record.acknowledged === total)
          throw new StoreError(500, `the service keeps answering 308 at ${total} bytes`);
        continue;
      }
      const end = this.sizer.next(start, total);
      const nextEnd = end < total ? this.sizer.next(end, total) : total;
      const lead = () => {
        hashAhead(end);
        hashAhead(nextEnd);
      };
      this.needsStatus = true;
      const began = this.ctx.clock.now();
      let response: HttpResponse;
      const whole = start === 0 && end === total;
      const body = whole && !this.byPath.sliced ? this.input.file : this.input.file.slice(start, end);
      try {
        response = await sendGuarded(
          this.ctx.http,
          {
            method: 'PUT',
            url: record.sessionUri,
            // The session URI is a capability (supplement §1): no Authorization header.
            headers: whole ? {} : { [H_CONTENT_RANGE]: formatChunkRange(start, end - 1, total) },
            body: [body],
          },
          {
            signal,
            stallTimeoutMs: this.ctx.stallTimeoutMs,
            ...answerWithin(this.ctx, end === total && !!this.input.options.convertTo, end === total),
            bodyLength: end - start,
            onProgress: (sent) => {
              this.byPath.sent = sent;
              if (sent > 0) lead();
              this.ctx.onSent(start, sent);
            },
          },
        );
      } catch (error) {
        if (refusedByPath(this.byPath, body, this.input.file, error)) return this.attempt(signal, token); // status, then a slice
        this.tracker?.abort();
        this.sizer.shrink();
        throw error;
      }
      lead();
      if (response.status === 200 || response.status === 201)
        return this.finish(JSON.parse(response.text) as StoreFile);
      if (response.status !== STATUS_RESUME_INCOMPLETE) throw this.failure(response);
      const stored = this.stored(response);
      this.sizer.record(end - start, this.ctx.clock.now() - began);
      // A 308 that keeps nothing new twice in a row would loop forever: let the job's retry budget judge it.
      stuck = stored > start ? 0 : stuck + 1;
      if (stuck >= 2)
        throw new StoreError(500, `the service keeps answering 308 at ${stored} bytes without storing more`);
      // The next request starts now; the record follows in the background (never ahead of `stored`).
      record.acknowledged = stored;
      record.updatedAt = this.ctx.clock.now();
      writer.schedule();
      this.ctx.onAcknowledged(stored);
    }
  }

  /** The session URI, once a session exists. */
  get sessionUri(): string | undefined {
    return this.record?.sessionUri;
  }

  /** Takes over a lock this tab waited for: whatever the other tab did, the service is asked first. */
  adoptLock(lock: ReleaseLock): void {
    this.releaseLock();
    this.lock = lock;
    this.needsStatus = true;
  }

  /** Lets another tab take the session (after a pause, a failure, the end, or when this worker stops). */
  releaseLock(): void {
    const lock = this.lock;
    this.lock = undefined;
    lock?.();
  }

  /** Forgets the session without telling the service (another tab already finished or cancelled it). */
  forget(): void {
    void this.dropWriter();
    this.releaseLock();
    this.record = undefined;
  }

  /** Forgets the session after a 404: the next `run` starts a new one from byte 0. */
  async reset(): Promise<void> {
    await this.dropWriter();
    if (this.record) await this.ctx.store?.delete(this.record.id);
    this.releaseLock();
    this.record = undefined;
    this.tracker?.close();
    this.tracker = undefined;
    this.needsStatus = false;
    this.ctx.onAcknowledged(0);
  }

  /** Cancels the session with the service (`DELETE`, answered 499) and forgets it. */
  async cancel(): Promise<void> {
    const record = this.record;
    if (!record) return;
    await this.dropWriter();
    this.record = undefined;
    this.tracker?.close();
    this.tracker = undefined;
    await this.ctx.store?.delete(record.id);
    await deleteSession(this.ctx.http, record.sessionUri, this.ctx.stallTimeoutMs);
  }

  private async start(signal: AbortSignal, token: string): Promise<void> {
    const { ctx, input } = this;
    const { metadata, query } = requestMetadata(input);
    const update = input.options.updateFileId;
    const path = update ? uploadFilePath(update) : UPLOAD_FILES_PATH;
    const url = joinUrl(ctx.baseUrl, pathWithQuery(path, { ...query, uploadType: 'resumable' }));
    const body = JSON.stringify(metadata);
    const cancelLate = cancelLateStart(ctx.http, ctx.baseUrl, ctx.stallTimeoutMs);
    // The sample is read while the service answers: nothing between the answer and the first byte waits for the disk.
    // Bounded: a file the browser stopped reading is a stall (the task retries, visibly); the session is cancelled.
    const sampling = withTimeout(sampleOf(input.file), ctx.stallTimeoutMs, () => new Interrupt('stall'), ctx.clock);
    const began = ctx.clock.now();
    const starting = sendSurvivingCancel(
      ctx.http,
      {
        method: update ? 'PATCH' : 'POST',
        url,
        headers: {
          [H_AUTHORIZATION]: bearer(token),
          [H_CONTENT_TYPE]: JSON_CONTENT_TYPE,
          [H_UPLOAD_CONTENT_TYPE]: input.type || 'application/octet-stream',
          [H_UPLOAD_CONTENT_LENGTH]: String(input.file.size),
        },
        body: [body],
      },
      { signal, stallTimeoutMs: ctx.stallTimeoutMs, responseTimeoutMs: ctx.stallTimeoutMs, bodyLength: body.length },
      cancelLate,
    );
    const [response, sample] = await Promise.all([starting, sampling]).catch((error: unknown) => {
      void starting.then(cancelLate, () => undefined);
      throw error;
    });
    const location = response.header(H_LOCATION);
    if (response.status !== 200 || !location) {
      if (response.status === 200) throw new StoreError(500, 'the session-start answer has no Location header');
      throw StoreError.fromResponse(response.status, response.text); // a 404 here is the file to update, not a session
    }
    this.sizer.observeRoundTrip(ctx.clock.now() - began);
    const sessionUri = new URL(location, ctx.baseUrl).href;
    // Locked before the record is stored: a tab that finds the record in IndexedDB finds it locked too.
    const lock = await ctx.locks.tryAcquire(sessionLockKey(sessionUri));
    if (!lock) throw new StoreError(500, `the new session ${sessionUri} is already locked`);
    this.releaseLock();
    this.lock = lock;
    const now = ctx.clock.now();
    this.record = {
      id: input.taskId,
      sessionUri,
      fingerprint: fingerprintOf({
        name: input.name,
        size: input.file.size,
        lastModified: input.lastModified,
        type: input.type,
      }),
      sample,
      name: input.name,
      type: input.type,
      total: input.file.size,
      ...(input.originalSize !== undefined && { originalSize: input.originalSize }),
      metadata,
      query,
      ...(input.options.convertTo && { convertTo: input.options.convertTo }),
      ...(update && { updateFileId: update }),
      ...(input.options.handle && { handle: input.options.handle }),
      ...(input.options.relativePath && { relativePath: input.options.relativePath }),
      acknowledged: 0,
      hashedTo: 0,
      createdAt: now,
      updatedAt: now,
    };
    this.needsStatus = false;
    // The session URI is stored before the first byte leaves, so no byte the service could complete a file with is
    // sent while a crash would forget the session. That record is small (a few ms); the file's copy kept for resume
    // is not (tens of MiB into IndexedDB): it follows through the record writer while the bytes go out. A crash
    // before the copy is stored leaves a record without it, which resumes like a record of a file too big to
    // copy: the user is asked for the file again. The writer is closed (its write awaited) before the record is
    // deleted at the end, so the copy never outlives the session.
    if (ctx.store)
      await withTimeout(ctx.store.put(this.record), ctx.stallTimeoutMs, () => new Interrupt('stall'), ctx.clock);
    if (input.keepFile && ctx.store) {
      this.record.file = input.file;
      this.writerFor(this.record).schedule();
    }
  }

  /** Asks the service what it stored (spec §4.5); returns the file when the upload is already complete. */
  private async queryStatus(signal: AbortSignal): Promise<StoreFile | undefined> {
    const record = this.record!;
    const response = await sendGuarded(
      this.ctx.http,
      {
        method: 'PUT',
        url: record.sessionUri,
        headers: { [H_CONTENT_RANGE]: formatStatusQuery(this.input.file.size) },
      },
      { signal, stallTimeoutMs: this.ctx.stallTimeoutMs, responseTimeoutMs: this.ctx.stallTimeoutMs, bodyLength: 0 },
    );
    if (response.status === 200 || response.status === 201) return JSON.parse(response.text) as StoreFile;
    if (response.status !== STATUS_RESUME_INCOMPLETE) throw this.failure(response);
    await this.acknowledge(this.stored(response));
    this.needsStatus = false;
    return undefined;
  }

  private stored(response: HttpResponse): number {
    const stored = parseStoredRange(response.header(H_RANGE));
    if (stored === undefined || stored > this.input.file.size) {
      throw new StoreError(500, `unreadable Range header on 308: ${response.header(H_RANGE)}`);
    }
    return stored;
  }

  /** After a status query: the service's offset replaces ours, and the record is stored before sending on. */
  private async acknowledge(stored: number): Promise<void> {
    const record = this.record!;
    record.acknowledged = stored;
    record.updatedAt = this.ctx.clock.now();
    const writer = this.writerFor(record);
    writer.schedule();
    await writer.flush();
    this.ctx.onAcknowledged(stored);
  }

  /**
   * The tracker, opened once per session from the record's saved state (a state it cannot use means re-hashing),
   * usable at once (the first request does not wait for the hash worker). A stalled read of the file is made again
   * within half the stall limit, so none costs the final digest (bounded by the whole limit) a retry from byte 0.
   */
  private openTracker(): HashTracker | undefined {
    const { hasher, stallTimeoutMs } = this.ctx;
    if (!hasher || !this.record) return undefined;
    if (!this.tracker) {
      const saved = savedHashOf(this.record.hashState);
      this.tracker = deferredTracker(hasher.open(saved, saved ? this.record.hashedTo : 0, stallTimeoutMs / 2));
    }
    return this.tracker;
  }

  private writerFor(record: SessionRecord): SessionWriter {
    const { store, stallTimeoutMs } = this.ctx;
    this.writer ??= new SessionWriter(store, record, this.input.file, () => this.tracker, stallTimeoutMs);
    return this.writer;
  }

  /** Stops record writes and waits for the one in flight, so a delete that follows is not undone by it. */
  private async dropWriter(): Promise<void> {
    const writer = this.writer;
    this.writer = undefined;
    await writer?.close();
  }

  private async finish(stored: StoreFile): Promise<StoreFile> {
    const total = this.input.file.size;
    const record = this.record!;
    this.ctx.onAcknowledged(total);
    // The session is complete whatever the check finds: its record must not outlive it. The hash's last bytes are
    // digested meanwhile; the record is gone before the result is told either way.
    const deleted = this.dropWriter().then(() => this.ctx.store?.delete(record.id));
    const tracker = this.openTracker();
    // Bounded like any read of the file: a digest whose read never settles is a stall, and the retry (a status query
    // that finds the file) digests with a tracker opened anew, as this one is closed whatever happens.
    const { stallTimeoutMs, clock } = this.ctx;
    const md5 = tracker && withTimeout(tracker.digest(this.input.file, total), stallTimeoutMs, stalled, clock);
    let digest: string | undefined;
    try {
      [, digest] = await Promise.all([deleted, md5]);
    } finally {
      tracker?.close();
      this.tracker = undefined;
    }
    if (tracker) verifyResult(stored, total, digest!);
    return stored;
  }

  private failure(response: HttpResponse): Error {
    if (response.status === 404) return new SessionExpired();
    return StoreError.fromResponse(response.status, response.text);
  }
}

const stalled = (): Interrupt => new Interrupt('stall');
