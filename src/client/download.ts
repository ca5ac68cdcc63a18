/** Getting content back: a file's bytes or a native file's export, as a Blob, reporting how much has arrived. */
import { fileExportPath, filePath } from '../protocol/routes.ts';
import type { RequestOptions } from './api-call.ts';
import { StoreError } from './store-error.ts';

/** The client's authorized request (token, one retry after a 401), answering any status. */
export type AuthorizedFetch = (method: string, path: string, options?: RequestOptions) => Promise<Response>;

/** Bytes of a download so far; `total` when the service said (`Content-Length` of an uncompressed body). */
export interface DownloadProgress {
  readonly loaded: number;
  readonly total?: number;
}

/** Options of `files.download` and `files.export`. */
export interface DownloadOptions {
  /** Called as bytes arrive (once per network chunk), and once more at the end. */
  onProgress?: (progress: DownloadProgress) => void;
  signal?: AbortSignal;
}

/** `files.download`: the stored bytes (`?alt=media`). */
export function download(send: AuthorizedFetch, fileId: string, options: DownloadOptions = {}): Promise<Blob> {
  return fetchBlob(send, filePath(fileId), { alt: 'media' }, options);
}

/** `files.export`: a native file converted to `mimeType`. */
export function exportAs(
  send: AuthorizedFetch,
  fileId: string,
  mimeType: string,
  options: DownloadOptions = {},
): Promise<Blob> {
  return fetchBlob(send, fileExportPath(fileId), { mimeType }, options);
}

async function fetchBlob(
  send: AuthorizedFetch,
  path: string,
  query: Record<string, string>,
  options: DownloadOptions,
): Promise<Blob> {
  const response = await send('GET', path, { query, ...(options.signal && { signal: options.signal }) });
  if (!response.ok) throw StoreError.fromResponse(response.status, await response.text());
  return readBlob(response, options);
}

/** The response body as a Blob typed with its `Content-Type`, read chunk by chunk for `onProgress`. */
async function readBlob(response: Response, options: DownloadOptions): Promise<Blob> {
  const type = response.headers.get('content-type') ?? '';
  const length = Number(response.headers.get('content-length') ?? NaN);
  const total = response.headers.get('content-encoding') || !Number.isFinite(length) ? undefined : length;
  const report = (loaded: number) => options.onProgress?.(total === undefined ? { loaded } : { loaded, total });
  if (!response.body) {
    const blob = await response.blob();
    report(blob.size);
    return new Blob([blob], { type });
  }
  const chunks: Uint8Array[] = [];
  let loaded = 0;
  const reader = response.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    loaded += value.byteLength;
    report(loaded);
  }
  report(loaded);
  return new Blob(chunks as Uint8Array<ArrayBuffer>[], { type });
}
