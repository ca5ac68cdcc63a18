/** Reading a download's body into a Blob while reporting how much has arrived. */

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

/** The response body as a Blob typed with its `Content-Type`, read chunk by chunk for `onProgress`. */
export async function readBlob(response: Response, options: DownloadOptions): Promise<Blob> {
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
  return new Blob(chunks as BlobPart[], { type });
}
