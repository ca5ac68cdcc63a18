/**
 * The worker's image work, one chunk loaded on first need (a row of an image asks for its thumbnail, or
 * `imageResize` meets an image): decoding a photo takes tens of milliseconds and its full size in memory, so
 * thumbnails and resizes share one limit of two at a time.
 */
import { limiter } from './limiter.ts';
import { makeThumbnail } from './thumbnail.ts';
import { resizeImage, type ResizedImage } from './resize.ts';
import type { ImageResizeOptions } from '../../contract/options.ts';

const decoding = limiter(2);
/** Thumbnails by source and size, made once; they go with the task's Blob. */
const made = new WeakMap<Blob, Map<number, Promise<Blob | undefined>>>();

/** `makeThumbnail`, at most two decodes at a time, once per Blob and size. */
export function thumbnailOf(blob: Blob, size: number): Promise<Blob | undefined> {
  let sizes = made.get(blob);
  if (!sizes) made.set(blob, (sizes = new Map<number, Promise<Blob | undefined>>()));
  let thumbnail = sizes.get(size);
  if (!thumbnail) sizes.set(size, (thumbnail = decoding(() => makeThumbnail(blob, size))));
  return thumbnail;
}

/** `resizeImage`, at most two decodes at a time. */
export function resizedOf(
  blob: Blob,
  name: string,
  type: string,
  options: ImageResizeOptions,
): Promise<ResizedImage | undefined> {
  return decoding(() => resizeImage(blob, name, type, options));
}
