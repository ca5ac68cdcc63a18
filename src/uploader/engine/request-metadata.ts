import { H_LOCATION } from '../../protocol/headers.ts';
import type { HttpPort, HttpResponse } from '../contract/ports.ts';
import type { UploadInput } from './upload-context.ts';

/**
 * The metadata JSON of a create or update, and the query of the upload request. A conversion sets the metadata
 * `mimeType` to the native kind while the media keeps its own type (spec §4.8).
 */
export function requestMetadata(input: UploadInput): {
  metadata: Record<string, unknown>;
  query: Record<string, string>;
} {
  const { options } = input;
  const metadata: Record<string, unknown> = { ...options.metadata };
  if (!input.options.updateFileId && metadata.name === undefined) metadata.name = input.name;
  if (options.convertTo) metadata.mimeType = options.convertTo;
  else if (metadata.mimeType === undefined && input.type && !options.updateFileId) metadata.mimeType = input.type;
  const query: Record<string, string> = {};
  if (options.ocrLanguage) query.ocrLanguage = options.ocrLanguage;
  return { metadata, query };
}

/** `name + size + lastModified + type`: the same file added again resumes its session. */
export function fingerprintOf(input: { name: string; size: number; lastModified: number; type: string }): string {
  return JSON.stringify([input.name, input.size, input.lastModified, input.type]);
}

/** The `lastModified` a fingerprint was made with (records keep the date only there). */
export function lastModifiedOf(fingerprint: string): number {
  return Number((JSON.parse(fingerprint) as unknown[])[2]);
}

/**
 * `DELETE <session>` (answered 499), within the stall timeout: a service that never answers must not hold a cancel
 * (or the session's lock); the session then expires on its own. Never rejects.
 */
export function deleteSession(http: HttpPort, sessionUri: string, stallTimeoutMs: number): Promise<unknown> {
  return http
    .send({ method: 'DELETE', url: sessionUri, headers: {} }, { signal: AbortSignal.timeout(stallTimeoutMs) })
    .catch(() => undefined);
}

/** What a session start answered after its task was cancelled: that session is cancelled too, not left for a week. */
export function cancelLateStart(http: HttpPort, baseUrl: string, stallTimeoutMs: number): (late: HttpResponse) => void {
  return (late) => {
    const location = late.header(H_LOCATION);
    if (late.status === 200 && location) void deleteSession(http, new URL(location, baseUrl).href, stallTimeoutMs);
  };
}
