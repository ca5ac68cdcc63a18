/**
 * Decoding and encoding shared by thumbnails and resizing; loaded lazily with them, so a worker that never sees an
 * image never loads it. Every decode honours the EXIF orientation (`imageOrientation: 'from-image'`): a photo
 * taken upright on a phone (orientation 6) comes out portrait.
 */

/** The image decoded upright at full size (its width and height are the displayed ones). */
export function decodeUpright(blob: Blob): Promise<ImageBitmap> {
  return createImageBitmap(blob, { imageOrientation: 'from-image' });
}

/** `width` × `height` scaled to fit inside `maxWidth` × `maxHeight`, at least 1 × 1, never enlarged. */
export function fitWithin(
  width: number,
  height: number,
  maxWidth: number,
  maxHeight: number,
): { width: number; height: number } {
  const scale = Math.min(1, maxWidth / width, maxHeight / height);
  return { width: Math.max(1, Math.round(width * scale)), height: Math.max(1, Math.round(height * scale)) };
}

/**
 * Scales an upright bitmap to `width` × `height` (a bitmap source carries no EXIF, so the resize options cannot be
 * confused by orientation) and encodes it. Closes `bitmap`.
 */
export async function encodeScaled(
  bitmap: ImageBitmap,
  width: number,
  height: number,
  type: string,
  quality?: number,
): Promise<Blob> {
  const scaled = await createImageBitmap(bitmap, { resizeWidth: width, resizeHeight: height, resizeQuality: 'high' });
  bitmap.close();
  const canvas = new OffscreenCanvas(width, height);
  const context = canvas.getContext('2d');
  if (!context) throw new Error('no 2d context on OffscreenCanvas');
  context.drawImage(scaled, 0, 0);
  scaled.close();
  return canvas.convertToBlob({ type, ...(quality !== undefined && { quality }) });
}

/** True where this thread can decode and encode images (not in Node, not in browsers without OffscreenCanvas). */
export function canProcessImages(): boolean {
  return typeof createImageBitmap === 'function' && typeof OffscreenCanvas === 'function';
}
