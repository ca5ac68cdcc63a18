/**
 * The service's few calls into an S3-compatible bucket, under its key prefix, with the settings that work against
 * Ceph RGW 16 as well as AWS S3 (the workspace notes on PostgreSQL and RGW): path-style addressing, and checksums only where
 * S3 requires them (the SDK's default sends stream bodies as aws-chunked with a trailer, which RGW 16 answers 411).
 *
 * Failures are the service's storage failing: anything but "no such key/upload" is rethrown as an Error with code
 * `EIO` and a message naming the object store, so callers answer it like a failed disk (`503 backendError`, spec §7).
 * The `--admin` storage faults (`storage-faults.ts`) gate every write of bytes here as they gate the disk's.
 */
import { Readable } from 'node:stream';
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListMultipartUploadsCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  UploadPartCommand,
  UploadPartCopyCommand,
} from '@aws-sdk/client-s3';
import { allowWrite } from '../storage-faults.ts';

/** How to reach the bucket. */
export interface BucketAccess {
  readonly bucket: string;
  /** Key prefix every object of the service goes under (without a trailing slash; none: the bucket's root). */
  readonly prefix?: string;
  /** A custom endpoint (RGW, MinIO …); none: AWS S3 of `region`. */
  readonly endpoint?: string;
  readonly region?: string;
  readonly accessKeyId?: string;
  readonly secretAccessKey?: string;
}

/** An object listed under a prefix: its key relative to the service's prefix. */
export interface Listed {
  readonly key: string;
  readonly size: number;
  readonly lastModified: Date;
}

/** A multipart upload in progress. */
export interface OpenUpload {
  readonly key: string;
  readonly uploadId: string;
  readonly initiated: Date;
}

/** Bytes to send: buffers, or a stream of exactly `length` bytes. */
export type Body = readonly Uint8Array[] | Readable;

interface AwsError {
  readonly name?: string;
  readonly message?: string;
  readonly code?: string;
  readonly $metadata?: { readonly httpStatusCode?: number };
}

/** Whether an S3 error says the object or multipart upload is not there (RGW: `NoSuchKey` for an aborted upload). */
function isMissing(e: unknown): boolean {
  const err = e as AwsError;
  return (
    err.name === 'NoSuchKey' ||
    err.name === 'NoSuchUpload' ||
    err.name === 'NotFound' ||
    err.$metadata?.httpStatusCode === 404
  );
}

/** Waits for the request's storage faults; a write the fault cuts short fails whole (S3 has no short writes). */
async function gate(length: number): Promise<void> {
  const allowed = await allowWrite(length);
  // The fault's budget is now used up: the next call throws its errno.
  if (allowed < length) await allowWrite(length - allowed);
}

/** One bucket under one prefix. */
export class S3Bucket {
  readonly client: S3Client;
  readonly bucket: string;
  readonly where: string;
  readonly #prefix: string;

  constructor(access: BucketAccess) {
    // The pin on a release that still supports Node 20 is deliberate; its warning would print on every start.
    process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
    this.bucket = access.bucket;
    this.#prefix = access.prefix ? `${access.prefix}/` : '';
    this.where = `s3://${access.bucket}/${this.#prefix} at ${access.endpoint ?? `AWS S3 (${access.region ?? 'us-east-1'})`}`;
    this.client = new S3Client({
      region: access.region ?? 'us-east-1',
      ...(access.endpoint ? { endpoint: access.endpoint } : {}),
      forcePathStyle: true,
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
      ...(access.accessKeyId && access.secretAccessKey
        ? { credentials: { accessKeyId: access.accessKeyId, secretAccessKey: access.secretAccessKey } }
        : {}),
      // Every wait has a limit: an endpoint that does not answer fails the request, it does not hang it.
      requestHandler: { connectionTimeout: 5_000, requestTimeout: 120_000 },
    });
  }

  #key(rel: string): string {
    return this.#prefix + rel;
  }

  /** Sends a command; any failure but a missing key becomes a storage failure (`EIO`) naming the object store. */
  async #send<T>(what: string, run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (e) {
      if (isMissing(e)) throw e;
      const err = e as AwsError;
      // An injected storage fault (`--admin`) already carries its errno.
      if (err.$metadata === undefined && ['ENOSPC', 'EDQUOT', 'EFBIG', 'EIO'].includes(err.code ?? '')) throw e;
      throw Object.assign(
        new Error(`the object store failed (${what}): ${err.name ?? 'Error'}: ${err.message ?? ''}`),
        {
          code: 'EIO',
          cause: e,
        },
      );
    }
  }

  /** Stores an object of `length` bytes. */
  async put(rel: string, body: Body, length: number): Promise<void> {
    await gate(length);
    await this.#send(`PUT ${rel}`, () =>
      this.client.send(
        new PutObjectCommand({ Bucket: this.bucket, Key: this.#key(rel), Body: asBody(body), ContentLength: length }),
      ),
    );
  }

  /** Opens an object (or a range, both ends inclusive) for streaming; rejects with a missing-key error. */
  async get(rel: string, range?: { start: number; end: number }): Promise<Readable> {
    const out = await this.#send(`GET ${rel}`, () =>
      this.client.send(
        new GetObjectCommand({
          Bucket: this.bucket,
          Key: this.#key(rel),
          ...(range ? { Range: `bytes=${range.start}-${range.end}` } : {}),
        }),
      ),
    );
    return out.Body as Readable;
  }

  /** An object's whole content in memory (small objects only: session state). */
  async getBytes(rel: string): Promise<Buffer | undefined> {
    try {
      const body = await this.get(rel);
      const chunks: Buffer[] = [];
      for await (const c of body) chunks.push(c as Buffer);
      return Buffer.concat(chunks);
    } catch (e) {
      if (isMissing(e)) return undefined;
      throw e;
    }
  }

  /** Size and time of an object, or undefined when it is not there. */
  async head(rel: string): Promise<{ size: number; lastModified: Date } | undefined> {
    try {
      const out = await this.#send(`HEAD ${rel}`, () =>
        this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: this.#key(rel) })),
      );
      return { size: out.ContentLength ?? 0, lastModified: out.LastModified ?? new Date(0) };
    } catch (e) {
      if (isMissing(e)) return undefined;
      throw e;
    }
  }

  /** Deletes objects (a missing one is fine). */
  async delete(rels: readonly string[]): Promise<void> {
    for (let i = 0; i < rels.length; i += 1000) {
      const batch = rels.slice(i, i + 1000);
      const out = await this.#send(`DELETE ${batch.length} object(s)`, () =>
        this.client.send(
          new DeleteObjectsCommand({
            Bucket: this.bucket,
            Delete: { Objects: batch.map((r) => ({ Key: this.#key(r) })), Quiet: true },
          }),
        ),
      );
      const failed = (out.Errors ?? []).filter((x) => x.Code !== 'NoSuchKey');
      if (failed.length > 0) {
        throw Object.assign(new Error(`the object store failed (DELETE ${failed[0]?.Key}): ${failed[0]?.Code}`), {
          code: 'EIO',
        });
      }
    }
  }

  /** Objects whose keys start with `rel` (relative keys). */
  async *list(rel: string): AsyncIterable<Listed> {
    let token: string | undefined;
    do {
      const out = await this.#send(`LIST ${rel}`, () =>
        this.client.send(
          new ListObjectsV2Command({ Bucket: this.bucket, Prefix: this.#key(rel), ContinuationToken: token }),
        ),
      );
      for (const o of out.Contents ?? []) {
        yield {
          key: (o.Key ?? '').slice(this.#prefix.length),
          size: o.Size ?? 0,
          lastModified: o.LastModified ?? new Date(0),
        };
      }
      token = out.IsTruncated ? out.NextContinuationToken : undefined;
    } while (token);
  }

  /** Begins a multipart upload to `rel`; the object appears only when it completes. */
  async createUpload(rel: string): Promise<string> {
    const out = await this.#send(`CREATE UPLOAD ${rel}`, () =>
      this.client.send(new CreateMultipartUploadCommand({ Bucket: this.bucket, Key: this.#key(rel) })),
    );
    if (!out.UploadId) throw Object.assign(new Error('the object store gave no UploadId'), { code: 'EIO' });
    return out.UploadId;
  }

  /** Uploads part `n` (1-based) of `length` bytes; returns its ETag. */
  async uploadPart(rel: string, uploadId: string, n: number, body: Body, length: number): Promise<string> {
    await gate(length);
    const out = await this.#send(`UPLOAD PART ${n} of ${rel}`, () =>
      this.client.send(
        new UploadPartCommand({
          Bucket: this.bucket,
          Key: this.#key(rel),
          UploadId: uploadId,
          PartNumber: n,
          Body: asBody(body),
          ContentLength: length,
        }),
      ),
    );
    return out.ETag ?? '';
  }

  /** Makes part `n` from bytes `[start, end]` of another object, inside the object store (no bytes pass here). */
  async copyPart(rel: string, uploadId: string, n: number, source: string, start: number, end: number) {
    const out = await this.#send(`COPY PART ${n} of ${rel}`, () =>
      this.client.send(
        new UploadPartCopyCommand({
          Bucket: this.bucket,
          Key: this.#key(rel),
          UploadId: uploadId,
          PartNumber: n,
          CopySource: `${this.bucket}/${encodeURIComponent(this.#key(source)).replace(/%2F/g, '/')}`,
          CopySourceRange: `bytes=${start}-${end}`,
        }),
      ),
    );
    return out.CopyPartResult?.ETag ?? '';
  }

  /** Completes a multipart upload: the object appears whole. */
  async completeUpload(rel: string, uploadId: string, parts: readonly { n: number; etag: string }[]): Promise<void> {
    await this.#send(`COMPLETE UPLOAD ${rel}`, () =>
      this.client.send(
        new CompleteMultipartUploadCommand({
          Bucket: this.bucket,
          Key: this.#key(rel),
          UploadId: uploadId,
          MultipartUpload: { Parts: parts.map((p) => ({ PartNumber: p.n, ETag: p.etag })) },
        }),
      ),
    );
  }

  /** Aborts a multipart upload; one already gone is fine. */
  async abortUpload(rel: string, uploadId: string): Promise<void> {
    try {
      await this.#send(`ABORT UPLOAD ${rel}`, () =>
        this.client.send(
          new AbortMultipartUploadCommand({ Bucket: this.bucket, Key: this.#key(rel), UploadId: uploadId }),
        ),
      );
    } catch (e) {
      if (!isMissing(e)) throw e;
    }
  }

  /** Multipart uploads in progress whose keys start with `rel`. */
  async *listUploads(rel: string): AsyncIterable<OpenUpload> {
    let keyMarker: string | undefined;
    let idMarker: string | undefined;
    do {
      const out = await this.#send(`LIST UPLOADS ${rel}`, () =>
        this.client.send(
          new ListMultipartUploadsCommand({
            Bucket: this.bucket,
            Prefix: this.#key(rel),
            KeyMarker: keyMarker,
            UploadIdMarker: idMarker,
          }),
        ),
      );
      for (const u of out.Uploads ?? []) {
        if (!u.Key || !u.UploadId) continue;
        yield { key: u.Key.slice(this.#prefix.length), uploadId: u.UploadId, initiated: u.Initiated ?? new Date(0) };
      }
      keyMarker = out.IsTruncated ? out.NextKeyMarker : undefined;
      idMarker = out.IsTruncated ? out.NextUploadIdMarker : undefined;
    } while (keyMarker);
  }

  /**
   * At start: the bucket exists and takes a write (a small object put and deleted). Throws an Error whose message
   * is one line saying which and why.
   */
  async checkWritable(): Promise<void> {
    const probe = `.store-service-probe-${process.pid}-${Date.now().toString(36)}`;
    try {
      await this.client.send(new HeadBucketCommand({ Bucket: this.bucket }));
      await this.client.send(
        new PutObjectCommand({ Bucket: this.bucket, Key: this.#key(probe), Body: 'probe', ContentLength: 5 }),
      );
      await this.client.send(
        new DeleteObjectsCommand({ Bucket: this.bucket, Delete: { Objects: [{ Key: this.#key(probe) }] } }),
      );
    } catch (e) {
      throw new Error(startFailure(e, this));
    }
  }

  destroy(): void {
    this.client.destroy();
  }
}

/** One line: why the bucket cannot be used. */
function startFailure(e: unknown, bucket: S3Bucket): string {
  const err = e as AwsError & { cause?: { code?: string } };
  const status = err.$metadata?.httpStatusCode;
  const name = err.name ?? 'Error';
  const detail = (err.message ?? '').split('\n')[0] || name;
  if (status === 404 || name === 'NoSuchBucket' || name === 'NotFound')
    return `content: the bucket "${bucket.bucket}" does not exist (${bucket.where}); create it first`;
  if (status === 403 || name === 'InvalidAccessKeyId' || name === 'SignatureDoesNotMatch' || name === 'AccessDenied')
    return `content: the object store refused the credentials for ${bucket.where} (${status ?? ''} ${name === 'Forbidden' || name === 'Unknown' ? 'access denied' : name}); check AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY`;
  if (name === 'CredentialsProviderError')
    return `content: no credentials for ${bucket.where}; set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY`;
  if (status === undefined)
    return `content: cannot reach the object store ${bucket.where} (${err.code ?? err.cause?.code ?? name}: ${detail})`;
  return `content: the object store ${bucket.where} failed (${status} ${name}: ${detail})`;
}

/** The chunks as they are (a stream of them), not copied into one buffer: a part in flight is held once. */
function asBody(body: Body): Readable | Uint8Array {
  if (!Array.isArray(body)) return body as Readable;
  const parts = body as readonly Uint8Array[];
  return parts.length === 1 ? parts[0] : Readable.from(parts, { objectMode: false });
}
