/**
 * Decodes JPEG, PNG, GIF (first frame) and BMP with pure-JS decoders, so a broken image is reported as `corrupt`
 * before OCR sees it, and every format reaches tesseract as one well-formed PNG flattened onto white.
 */
import { decode as decodeBmp } from 'bmp-js';
import jpeg from 'jpeg-js';
import { GifReader } from 'omggif';
import { PNG } from 'pngjs';
import { ConversionError, corrupt } from './conversion-error.ts';

/** Largest image decoded, in pixels: a guard against decompression bombs. */
const MAX_IMAGE_PIXELS = 50_000_000;

/** Image formats recognised by signature. */
export type ImageFormat = 'png' | 'jpeg' | 'gif' | 'bmp';

/** Decoded pixels, RGBA, 8 bits per channel. */
export interface Rgba {
  width: number;
  height: number;
  data: Uint8Array;
}

const NAMES: Record<ImageFormat, string> = { png: 'PNG image', jpeg: 'JPEG image', gif: 'GIF image', bmp: 'BMP image' };
const MIME_OF: Record<ImageFormat, string> = {
  png: 'image/png',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  bmp: 'image/bmp',
};

/** The format the bytes' signature shows, or undefined. */
function sniffImage(b: Uint8Array): ImageFormat | undefined {
  if (b[0] === 0x89 && b[1] === 0x50 && b[2] === 0x4e && b[3] === 0x47) return 'png';
  if (b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return 'jpeg';
  if (b[0] === 0x47 && b[1] === 0x49 && b[2] === 0x46 && b[3] === 0x38) return 'gif';
  if (b[0] === 0x42 && b[1] === 0x4d) return 'bmp';
  return undefined;
}

/** MIME type of a sniffed format. */
export function mimeOfImage(format: ImageFormat): string {
  return MIME_OF[format];
}

/** Decodes an image; unknown signature or undecodable data → `corrupt`, too many pixels → `tooLarge`. */
export function decodeImage(bytes: Uint8Array, declaredMime: string): { format: ImageFormat; pixels: Rgba } {
  const format = sniffImage(bytes);
  if (!format) {
    const declared = declaredMime.replace(/^image\//, '').toUpperCase();
    throw new ConversionError(
      'corrupt',
      `The file is not a valid ${declared} image: its first bytes are not a known image signature.`,
    );
  }
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  checkSize(format, buf);
  try {
    return { format, pixels: decodeAs(format, buf) };
  } catch (err) {
    throw corrupt(NAMES[format], err);
  }
}

function checkSize(format: ImageFormat, b: Buffer): void {
  let w = 0;
  let h = 0;
  if (format === 'png' && b.length >= 24) [w, h] = [b.readUInt32BE(16), b.readUInt32BE(20)];
  if (format === 'gif' && b.length >= 10) [w, h] = [b.readUInt16LE(6), b.readUInt16LE(8)];
  if (format === 'bmp' && b.length >= 26) [w, h] = [Math.abs(b.readInt32LE(18)), Math.abs(b.readInt32LE(22))];
  if (w * h > MAX_IMAGE_PIXELS) {
    throw new ConversionError(
      'tooLarge',
      `The ${NAMES[format]} is ${w}×${h} pixels; images up to ${MAX_IMAGE_PIXELS / 1e6} megapixels are converted.`,
    );
  }
}

function decodeAs(format: ImageFormat, b: Buffer): Rgba {
  switch (format) {
    case 'png': {
      const png = PNG.sync.read(b);
      return { width: png.width, height: png.height, data: png.data };
    }
    case 'jpeg': {
      const img = jpeg.decode(b, {
        useTArray: true,
        formatAsRGBA: true,
        maxResolutionInMP: MAX_IMAGE_PIXELS / 1e6,
        maxMemoryUsageInMB: 1024,
      });
      return { width: img.width, height: img.height, data: img.data };
    }
    case 'gif': {
      const gif = new GifReader(b);
      const data = new Uint8Array(gif.width * gif.height * 4);
      gif.decodeAndBlitFrameRGBA(0, data);
      return { width: gif.width, height: gif.height, data };
    }
    case 'bmp': {
      const bmp = decodeBmp(b);
      // bmp-js yields ABGR with A always 0; reorder to opaque RGBA.
      const data = new Uint8Array(bmp.width * bmp.height * 4);
      for (let i = 0; i < data.length; i += 4) {
        data[i] = bmp.data[i + 3]!;
        data[i + 1] = bmp.data[i + 2]!;
        data[i + 2] = bmp.data[i + 1]!;
        data[i + 3] = 255;
      }
      return { width: bmp.width, height: bmp.height, data };
    }
  }
}

/** Encodes pixels as PNG, compositing transparency onto white so OCR never sees black-on-transparent as black. */
export function toOpaquePng(p: Rgba): Uint8Array {
  const png = new PNG({ width: p.width, height: p.height });
  for (let i = 0; i < p.data.length; i += 4) {
    const a = p.data[i + 3] / 255;
    for (let c = 0; c < 3; c++) png.data[i + c] = Math.round(p.data[i + c] * a + 255 * (1 - a));
    png.data[i + 3] = 255;
  }
  return PNG.sync.write(png);
}
