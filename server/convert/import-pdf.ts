/**
 * PDF → document with unpdf (pdf.js): each page's text layer becomes paragraphs. Pages without a text layer
 * (scans) are OCR'd from the images embedded in them, which pdf.js decodes without a canvas; rendering whole
 * pages (vector text drawn as paths) would need a native canvas package and is not done.
 */
import { extractImages, extractText, getDocumentProxy } from 'unpdf';
import { PNG } from 'pngjs';
import { ConversionError, corrupt } from './conversion-error.ts';
import type { Importer } from './importer.ts';
import type { DocumentBlock } from './native-content.ts';
import { recognizeText } from './ocr.ts';

/** Smallest embedded image worth OCR (skips bullets, rules and logos). */
const MIN_OCR_SIDE = 32;

/** Imports a PDF as a document: text per page, OCR for scanned pages. */
export const importPdf: Importer = async (bytes, ctx) => {
  if (!(bytes[0] === 0x25 && bytes[1] === 0x50 && bytes[2] === 0x44 && bytes[3] === 0x46)) {
    throw new ConversionError('corrupt', 'The file is not a valid PDF: it does not start with "%PDF".');
  }
  let pdf: Awaited<ReturnType<typeof getDocumentProxy>>;
  let pages: string[];
  try {
    // pdf.js takes ownership of (detaches) the buffer it is given, so it gets a copy.
    pdf = await getDocumentProxy(new Uint8Array(bytes), { verbosity: 0 });
    pages = (await extractText(pdf, { mergePages: false })).text;
  } catch (err) {
    throw corrupt('PDF', err);
  }
  const blocks: DocumentBlock[] = [];
  try {
    for (let i = 0; i < pages.length; i++) {
      const text = pages[i] ?? '';
      if (text.trim() !== '') {
        for (const line of text.split('\n')) blocks.push({ type: 'paragraph', text: line });
        continue;
      }
      for (const img of await imagesOf(pdf, i + 1)) {
        const ocrText = await recognizeText(img.png, ctx.ocrLang);
        blocks.push({
          type: 'image',
          mimeType: 'image/png',
          data: Buffer.from(img.png).toString('base64'),
          width: img.width,
          height: img.height,
          ocrText,
          ocrLanguage: ctx.ocrLanguage ?? 'en',
        });
      }
    }
  } finally {
    // Frees pdf.js's copy of the document (the serverless build keeps destroy() on the loading task).
    await (pdf as unknown as { loadingTask?: { destroy?(): Promise<void> } }).loadingTask?.destroy?.().catch(() => {});
  }
  return { kind: 'document', blocks };
};

/** Embedded images of a page as opaque PNGs; a page whose images cannot be decoded contributes none. */
async function imagesOf(
  pdf: Parameters<typeof extractImages>[0],
  page: number,
): Promise<{ png: Uint8Array; width: number; height: number }[]> {
  let images: Awaited<ReturnType<typeof extractImages>>;
  try {
    images = await extractImages(pdf, page);
  } catch {
    return [];
  }
  return images
    .filter((img) => img.width >= MIN_OCR_SIDE && img.height >= MIN_OCR_SIDE)
    .map((img) => {
      const png = new PNG({ width: img.width, height: img.height });
      for (let p = 0, s = 0; p < img.width * img.height; p++, s += img.channels) {
        const gray = img.channels === 1;
        png.data[p * 4] = img.data[s]!;
        png.data[p * 4 + 1] = img.data[gray ? s : s + 1]!;
        png.data[p * 4 + 2] = img.data[gray ? s : s + 2]!;
        png.data[p * 4 + 3] = 255;
      }
      return { png: PNG.sync.write(png), width: img.width, height: img.height };
    });
}
