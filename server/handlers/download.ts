/**
 * `GET /store/v3/files/<id>?alt=media`: streamed content with single-range support (206/416), and the conditions a
 * cache or a resumed download sends (RFC 9110 §13): `If-None-Match` (304 when the content is the one it has) and
 * `If-Range` (the range only of the content it began with; else the whole file, never a mix of two contents).
 */
import {
  FOLDER_MIME,
  formatContentRangeResponse,
  formatUnsatisfiedRange,
  isNativeMime,
  MESSAGES,
  resolveByteRange,
} from 'store-upload-kit/protocol';
import { ApiError } from '../errors.ts';
import type { ApiResponse } from '../api-request.ts';
import type { Service } from '../service-types.ts';
import type { FileRow } from '../store/files.ts';

/** Answers a download of a file the caller can see. */
export async function downloadResponse(
  svc: Service,
  row: FileRow,
  request: Readonly<Record<string, string>>,
): Promise<ApiResponse> {
  if (row.mimeType === FOLDER_MIME || isNativeMime(row.mimeType)) {
    throw new ApiError(403, 'fileNotDownloadable', MESSAGES.fileNotDownloadable, {
      where: { location: 'alt', locationType: 'parameter' },
    });
  }
  const size = row.size ?? 0;
  const headers: Record<string, string> = {
    'Content-Type': row.mimeType,
    'Accept-Ranges': 'bytes',
    'Content-Disposition': `attachment; filename*=UTF-8''${encodeURIComponent(row.name)}`,
  };
  const etag = row.md5 === undefined ? undefined : `"${row.md5}"`;
  if (etag !== undefined) headers.ETag = etag;
  const ifNoneMatch = request['if-none-match'];
  if (ifNoneMatch !== undefined && etag !== undefined && namesTag(ifNoneMatch, etag, 'weak')) {
    return { status: 304, headers: { ETag: etag } };
  }
  const ifRange = request['if-range'];
  // An If-Range that is not this content's tag (another tag, or a date: no Last-Modified is sent) asks for it all.
  const rangeHeader = ifRange !== undefined && !(etag && namesTag(ifRange, etag, 'strong')) ? undefined : request.range;
  const range = rangeHeader === undefined ? undefined : resolveByteRange(rangeHeader, size);
  if (range === 'unsatisfiable') {
    throw new ApiError(
      416,
      'requestedRangeNotSatisfiable',
      `The range "${rangeHeader}" is outside the content (${size} bytes).`,
      {
        headers: { 'Content-Range': formatUnsatisfiedRange(size) },
      },
    );
  }
  if (range) {
    headers['Content-Range'] = formatContentRangeResponse(range, size);
    headers['Content-Length'] = String(range.end - range.start + 1);
    return { status: 206, headers, body: await svc.content.read(row.contentKey as string, range) };
  }
  headers['Content-Length'] = String(size);
  if (row.contentKey === undefined || size === 0) return { status: 200, headers, body: new Uint8Array(0) };
  return { status: 200, headers, body: await svc.content.read(row.contentKey) };
}

/**
 * Whether a condition's entity tags name `etag` (RFC 9110 §8.8.3.2): `If-None-Match` compares weakly and takes `*`,
 * `If-Range` strongly (a weak tag never matches).
 */
function namesTag(header: string, etag: string, comparison: 'weak' | 'strong'): boolean {
  if (comparison === 'weak' && header.trim() === '*') return true;
  return header
    .split(',')
    .map((tag) => tag.trim())
    .some((tag) => (comparison === 'weak' ? tag.replace(/^W\//, '') : tag) === etag);
}
