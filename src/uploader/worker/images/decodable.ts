/**
 * The image types the worker decodes for thumbnails and resizing: what every current browser's
 * `createImageBitmap` reads. SVG (a document, not a bitmap), HEIC and TIFF are left to their file-type icon.
 */
const DECODABLE = /^image\/(jpeg|png|gif|webp|avif|bmp)$/;

/** True when the worker can decode this MIME type (`image/jpg` and `image/x-ms-bmp` count as their usual names). */
export function isDecodableImage(type: string): boolean {
  return DECODABLE.test(type.toLowerCase().replace('image/jpg', 'image/jpeg').replace('image/x-ms-bmp', 'image/bmp'));
}
