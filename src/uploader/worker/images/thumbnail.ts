import { canProcessImages, decodeUpright, encodeScaled, fitWithin } from './bitmap.ts';

/**
 * A thumbnail of an image file fitting `size` × `size` CSS pixels, upright (EXIF orientation applied), as WebP
 * (PNG where the browser cannot encode WebP). `undefined` when the bytes do not decode: a row keeps its icon.
 */
export async function makeThumbnail(blob: Blob, size: number): Promise<Blob | undefined> {
  if (!canProcessImages()) return undefined;
  try {
    const bitmap = await decodeUpright(blob);
    const fit = fitWithin(bitmap.width, bitmap.height, size, size);
    return await encodeScaled(bitmap, fit.width, fit.height, 'image/webp', 0.8);
  } catch {
    return undefined;
  }
}
