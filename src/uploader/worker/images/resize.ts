import type { ImageResizeOptions } from '../../contract/options.ts';
import { canProcessImages, decodeUpright, encodeScaled, fitWithin } from './bitmap.ts';

/** Types a canvas encodes in every current browser; others (GIF, BMP, AVIF) are re-encoded as PNG unless asked. */
const ENCODABLE = new Set(['image/jpeg', 'image/png', 'image/webp']);
const EXTENSIONS: Record<string, string> = { 'image/jpeg': '.jpg', 'image/png': '.png', 'image/webp': '.webp' };

/** The file to send instead of an image larger than the bounds. */
export interface ResizedImage {
  blob: Blob;
  type: string;
  name: string;
}

/**
 * Scales an image down to fit `maxWidth` × `maxHeight` (upright: EXIF orientation is applied, so the stored image
 * needs none) and encodes it as `type` (default: the original's type when a canvas can write it, else PNG).
 * `undefined` when there is nothing to do: the image already fits, is animated (GIF, whose frames would be lost),
 * does not decode, or this thread cannot process images. A changed type changes the name's extension.
 */
export async function resizeImage(
  blob: Blob,
  name: string,
  given: string,
  options: ImageResizeOptions,
): Promise<ResizedImage | undefined> {
  const type = given === 'image/jpg' ? 'image/jpeg' : given;
  if (!canProcessImages() || type === 'image/gif') return undefined;
  let bitmap: ImageBitmap;
  try {
    bitmap = await decodeUpright(blob);
  } catch {
    return undefined;
  }
  const maxWidth = options.maxWidth ?? Infinity;
  const maxHeight = options.maxHeight ?? Infinity;
  if (bitmap.width <= maxWidth && bitmap.height <= maxHeight) {
    bitmap.close();
    return undefined;
  }
  const fit = fitWithin(bitmap.width, bitmap.height, maxWidth, maxHeight);
  const wanted = options.type ?? (ENCODABLE.has(type) ? type : 'image/png');
  const out = await encodeScaled(bitmap, fit.width, fit.height, wanted, options.quality);
  // A browser that cannot write the asked type writes PNG: name and type follow what it wrote.
  const outType = out.type || wanted;
  const ext = EXTENSIONS[outType];
  const renamed = outType === type || !ext ? name : name.replace(/(\.[^./]*)?$/, ext);
  return { blob: out, type: outType, name: renamed };
}
