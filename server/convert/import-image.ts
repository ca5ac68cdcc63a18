/** JPEG, PNG, GIF and BMP → document holding the image and the text OCR finds in it. */
import { decodeImage, mimeOfImage, toOpaquePng } from './decode-image.ts';
import type { Importer } from './importer.ts';
import { recognizeText } from './ocr.ts';

/** Imports an image as a one-image document; exports show its OCR text where the image stands. */
export const importImage: Importer = async (bytes, ctx) => {
  const { format, pixels } = decodeImage(bytes, ctx.mimeType);
  const ocrText = await recognizeText(toOpaquePng(pixels), ctx.ocrLang);
  return {
    kind: 'document',
    blocks: [
      {
        type: 'image',
        mimeType: mimeOfImage(format),
        data: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64'),
        width: pixels.width,
        height: pixels.height,
        ocrText,
        ocrLanguage: ctx.ocrLanguage ?? 'en',
      },
    ],
  };
};
