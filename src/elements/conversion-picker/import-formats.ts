/**
 * The service's `importFormats` (about resource), fetched once per base URL and shared by every picker on the
 * page. A failed fetch is forgotten so a later picker can try again.
 */
/** Source MIME type → native kinds it converts to. */
export type ImportFormats = Record<string, string[]>;

const cache = new Map<string, Promise<ImportFormats>>();

/** Loads (once) the import formats of the service at `baseUrl`. */
export function loadImportFormats(
  baseUrl: string,
  getAccessToken: () => string | Promise<string>,
): Promise<ImportFormats> {
  let pending = cache.get(baseUrl);
  if (!pending) {
    // Loaded on demand: pages that pass `importFormats` (or only use the dropzone) never pull in the client.
    pending = import('../../client/index.ts')
      .then(({ createStoreClient }) =>
        createStoreClient({ baseUrl, getAccessToken }).about({ fields: 'importFormats' }),
      )
      .then((about) => about.importFormats ?? {});
    pending.catch(() => cache.delete(baseUrl));
    cache.set(baseUrl, pending);
  }
  return pending;
}

/** The native kinds a MIME type converts to (parameters such as `charset` ignored). */
export function targetsFor(formats: ImportFormats | undefined, mimeType: string): string[] {
  const bare = mimeType.split(';')[0].trim().toLowerCase();
  return bare ? [...(formats?.[bare] ?? [])] : [];
}

/** True for sources the service runs OCR on when converting: images and PDF. */
export function isOcrSource(mimeType: string): boolean {
  const bare = mimeType.split(';')[0].trim().toLowerCase();
  return bare.startsWith('image/') || bare === 'application/pdf';
}
