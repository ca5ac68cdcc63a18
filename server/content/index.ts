/**
 * Opens the content port's backend: the data folder's disk (the default) or an S3-compatible bucket. The S3 backend
 * and its SDK are loaded only here and only when configured (a dynamic `import()`), so the default service never
 * loads them.
 */
import type { ContentStore } from './content-port.ts';
import { DiskContent } from './disk-content.ts';
import type { BucketAccess } from './s3-client.ts';

export type { ContentStore, SessionContent } from './content-port.ts';

/** Where an S3-compatible bucket is and how to reach it (a type only: the SDK is not loaded by naming it). */
export interface S3Location extends BucketAccess {
  /** Staging of sessions untouched this long is swept by `collectGarbage` (the sessions' TTL). */
  readonly stagingTtlMs?: number;
}

/** Which content backend to open. */
export type ContentSpec = { readonly dataDir: string } | { readonly s3: S3Location };

/**
 * Opens the content store. For S3 it first checks that the bucket exists and takes a write, and otherwise throws an
 * Error whose message is one readable line saying which and why (no bucket, refused credentials, no endpoint).
 */
export async function openContent(spec: ContentSpec): Promise<ContentStore> {
  if ('dataDir' in spec) return new DiskContent(spec.dataDir);
  const { openS3Content } = await import('./s3-content.ts');
  return openS3Content(spec.s3);
}

/**
 * `s3://BUCKET[/PREFIX]` (the `--content` flag, the config file's `content`) with the endpoint, keys and region from
 * the standard AWS variables: `AWS_ENDPOINT_URL_S3` (or `AWS_ENDPOINT_URL`), `AWS_ACCESS_KEY_ID`,
 * `AWS_SECRET_ACCESS_KEY`, `AWS_REGION`. Throws a one-line Error for anything else.
 */
export function parseContentUrl(url: string, env: NodeJS.ProcessEnv = process.env): S3Location {
  const match = /^s3:\/\/([^/]+)(?:\/(.*))?$/.exec(url);
  if (!match) throw new Error(`content must be s3://BUCKET[/PREFIX], got "${url}"`);
  const bucket = match[1];
  // S3's bucket naming rules: 3–63 lower-case letters, digits, dots and hyphens.
  if (!/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(bucket))
    throw new Error(`content: "${bucket}" is not a valid S3 bucket name (3–63 of a–z, 0–9, "." and "-")`);
  const prefix = (match[2] ?? '').replace(/\/+$/, '');
  const endpoint = env.AWS_ENDPOINT_URL_S3 || env.AWS_ENDPOINT_URL || undefined;
  return {
    bucket,
    ...(prefix ? { prefix } : {}),
    ...(endpoint ? { endpoint } : {}),
    ...(env.AWS_REGION ? { region: env.AWS_REGION } : {}),
    ...(env.AWS_ACCESS_KEY_ID ? { accessKeyId: env.AWS_ACCESS_KEY_ID } : {}),
    ...(env.AWS_SECRET_ACCESS_KEY ? { secretAccessKey: env.AWS_SECRET_ACCESS_KEY } : {}),
  };
}
