// Test images made in the page: canvas → PNG/JPEG, and a JPEG given an EXIF orientation by splicing in an APP1
// segment, as a phone camera writes one.

/** A `width` × `height` image: left half red, right half blue (so a rotation is visible), plus `noise` if asked. */
export async function canvasImage(
  width: number,
  height: number,
  type: string,
  noise = false,
  quality = 0.92,
): Promise<Blob> {
  const canvas = new OffscreenCanvas(width, height);
  const context = canvas.getContext('2d')!;
  context.fillStyle = '#d00';
  context.fillRect(0, 0, width / 2, height);
  context.fillStyle = '#00d';
  context.fillRect(width / 2, 0, width / 2, height);
  if (noise) {
    const pixels = context.getImageData(0, 0, width, height);
    const random = new Uint8Array(pixels.data.length);
    for (let at = 0; at < random.length; at += 65536)
      crypto.getRandomValues(random.subarray(at, Math.min(random.length, at + 65536)));
    for (let i = 0; i < pixels.data.length; i += 4) {
      pixels.data[i] = (pixels.data[i] + random[i]) & 255;
      pixels.data[i + 1] = random[i + 1]!;
    }
    context.putImageData(pixels, 0, 0);
  }
  return canvas.convertToBlob({ type, quality });
}

/**
 * The JPEG with an EXIF APP1 segment right after SOI carrying only Orientation (tag 0x0112) = `orientation`
 * (6: the camera was turned a quarter clockwise, so a viewer shows it rotated, width and height swapped).
 */
export async function withExifOrientation(jpeg: Blob, orientation: number): Promise<Blob> {
  const bytes = new Uint8Array(await jpeg.arrayBuffer());
  if (bytes[0] !== 0xff || bytes[1] !== 0xd8) throw new Error('not a JPEG');
  // "Exif\0\0", big-endian TIFF header, one IFD with one SHORT entry, no next IFD.
  const tiff = [
    0x4d,
    0x4d,
    0x00,
    0x2a,
    0,
    0,
    0,
    8,
    0,
    1,
    0x01,
    0x12,
    0,
    3,
    0,
    0,
    0,
    1,
    0,
    orientation,
    0,
    0,
    0,
    0,
    0,
    0,
  ];
  const payload = [0x45, 0x78, 0x69, 0x66, 0, 0, ...tiff];
  const length = payload.length + 2;
  const app1 = new Uint8Array([0xff, 0xe1, length >> 8, length & 255, ...payload]);
  return new Blob([bytes.subarray(0, 2), app1, bytes.subarray(2)], { type: 'image/jpeg' });
}

/** The decoded size of image bytes, upright (EXIF applied). */
export async function imageSize(bytes: Blob): Promise<{ width: number; height: number }> {
  const bitmap = await createImageBitmap(bytes, { imageOrientation: 'from-image' });
  const size = { width: bitmap.width, height: bitmap.height };
  bitmap.close();
  return size;
}
