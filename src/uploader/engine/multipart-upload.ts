import { StoreError } from '../../client/store-error.ts';
import { H_AUTHORIZATION, H_CONTENT_TYPE, bearer } from '../../protocol/headers.ts';
import { encodeMultipartRelated } from '../../protocol/multipart-encode.ts';
import { UPLOAD_FILES_PATH, uploadFilePath } from '../../protocol/routes.ts';
import { pathWithQuery, joinUrl } from '../../client/url.ts';
import { deferredTracker } from './hashing/deferred-tracker.ts';
import { requestMetadata } from './request-metadata.ts';
import { answerWithin, sendGuarded } from './send-guarded.ts';
import type { UploadContext, UploadInput } from './upload-context.ts';
import { verifyResult } from './verify-result.ts';
import { Interrupt } from './interrupt.ts';
import { withTimeout } from '../contract/with-timeout.ts';
import type { StoreFile } from '../contract/types.ts';
import type { UploadStrategy } from './upload-strategy.ts';

/**
 * A small file in one `multipart/related` request (spec §4.2). A create carries a pre-generated ID (supplement §4)
 * so that retrying after an unanswered request cannot make a duplicate: a 409 for an ID this upload already sent
 * means the earlier try created the file, which is then fetched. Conversions and updates use no pre-generated ID.
 */
export class MultipartUpload implements UploadStrategy {
  readonly recordId = undefined;
  readonly sessionUri = undefined;
  private fileId?: string;
  /** True once a create with `fileId` may have reached the service. */
  private idSent = false;

  constructor(
    private readonly ctx: UploadContext,
    private readonly input: UploadInput,
  ) {}

  /** One attempt; throws `StoreError`/`Interrupt`/`UploadError` for the job to judge. */
  async run(signal: AbortSignal, token: string): Promise<StoreFile> {
    const { ctx, input } = this;
    const update = input.options.updateFileId;
    const { metadata, query } = requestMetadata(input);
    if (!update && !input.options.convertTo) {
      this.fileId ??= await ctx.ids.take();
      metadata.id = this.fileId;
    }
    const encoded = encodeMultipartRelated<Blob>(metadata, input.file, input.type);
    const path = update ? uploadFilePath(update) : UPLOAD_FILES_PATH;
    const url = joinUrl(ctx.baseUrl, pathWithQuery(path, { ...query, uploadType: 'multipart' }));
    const body = new Blob(encoded.body);
    // Hashed beside the request (in the hash worker in a browser); only the result waits for it. A read that stalls
    // is made again within half the stall limit, before the digest's own limit (below) runs out.
    const tracker = ctx.hasher ? deferredTracker(ctx.hasher.open(undefined, 0, ctx.stallTimeoutMs / 2)) : undefined;
    const digest = tracker?.digest(input.file, input.file.size);
    digest?.catch(() => undefined); // awaited below; a failed send must not leave it unhandled
    const retriedCreate = this.idSent;
    if (metadata.id !== undefined) this.idSent = true;
    let response;
    try {
      response = await sendGuarded(
        ctx.http,
        {
          method: update ? 'PATCH' : 'POST',
          url,
          headers: { [H_CONTENT_TYPE]: encoded.contentType, [H_AUTHORIZATION]: bearer(token) },
          body: [body],
        },
        {
          signal,
          stallTimeoutMs: ctx.stallTimeoutMs,
          ...answerWithin(ctx, !!input.options.convertTo, true),
          bodyLength: body.size,
          onProgress: (sent) => ctx.onSent(0, Math.min(sent, input.file.size)),
        },
      );
    } catch (error) {
      tracker?.close();
      throw error;
    }
    let stored: StoreFile;
    if (response.status === 200 || response.status === 201) {
      stored = JSON.parse(response.text) as StoreFile;
    } else {
      const error = StoreError.fromResponse(response.status, response.text);
      if (response.status === 409 && this.fileId !== undefined && retriedCreate && error.reason === 'fileIdInUse') {
        // An earlier try of this very upload created the file: spec §4.6 says treat it as created.
        stored = await ctx.client.files.get(this.fileId);
      } else {
        throw error;
      }
    }
    ctx.onAcknowledged(input.file.size);
    if (tracker) {
      // Reading the file for its hash has a limit too: a read that never settles is retried as a stalled request
      // (the retry's create finds the file this one made: 409, then fetched).
      let md5: string;
      try {
        md5 = await withTimeout(digest!, ctx.stallTimeoutMs, () => new Interrupt('stall'), ctx.clock);
      } finally {
        tracker.close();
      }
      verifyResult(stored, input.file.size, md5);
    }
    return stored;
  }

  /** No session, so nothing to lock, forget or cancel. */
  adoptLock(lock: () => void): void {
    lock();
  }
  releaseLock(): void {}
  forget(): void {}
  async reset(): Promise<void> {}
  async cancel(): Promise<void> {}
}
