/** `GET /store/v3/files/<id>?alt=media`: streamed content with single-range support (206/416). */
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
  rangeHeader: string | undefined,
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
  if (row.md5 !== undefined) headers.ETag = `"${row.md5}"`;
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
