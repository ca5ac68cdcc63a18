/**
 * OCR with tesseract.js 7. One worker per language, created on first use and kept: loading a language's model is
 * the slow part, and each worker runs in its own thread so recognition stays off the service's event loop.
 * Language data comes from the installed `@tesseract.js-data/<lang>` packages on disk, never from the network.
 */
import { createRequire } from 'node:module';
import { mkdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createWorker, OEM } from 'tesseract.js';
import type { Worker } from 'tesseract.js';
import { ConversionError } from './conversion-error.ts';
import type { OcrLang } from './importer.ts';

const require = createRequire(import.meta.url);
const workers = new Map<OcrLang, Promise<Worker>>();
let cacheDir = path.join(os.tmpdir(), 'store-service-tessdata');

/**
 * Where tesseract keeps unpacked language data (call before the first OCR; e.g. inside the service's data dir).
 * Defaults to a folder in the system temp dir.
 */
export function setOcrCacheDir(dir: string): void {
  cacheDir = dir;
}

/** Folder holding `<lang>.traineddata.gz` for the LSTM engine (the packages' `4.0.0_best_int` layout). */
function langPathFor(lang: OcrLang): string {
  return path.join(path.dirname(require.resolve(`@tesseract.js-data/${lang}/package.json`)), '4.0.0_best_int');
}

function workerFor(lang: OcrLang): Promise<Worker> {
  let worker = workers.get(lang);
  if (!worker) {
    mkdirSync(cacheDir, { recursive: true });
    worker = createWorker(lang, OEM.LSTM_ONLY, {
      langPath: langPathFor(lang),
      cachePath: cacheDir,
      gzip: true,
      // Without a handler tesseract.js rethrows worker errors where nothing can catch them.
      errorHandler: () => {},
    });
    // A worker that failed to start is forgotten, so the next request tries again.
    worker.catch(() => workers.delete(lang));
    workers.set(lang, worker);
  }
  return worker;
}

/** Text tesseract finds in an image (PNG, JPEG or BMP bytes), trimmed. OCR failures → `ocrFailed`. */
export async function recognizeText(image: Uint8Array, lang: OcrLang): Promise<string> {
  try {
    const worker = await workerFor(lang);
    const { data } = await worker.recognize(Buffer.from(image.buffer, image.byteOffset, image.byteLength));
    return data.text.trim();
  } catch (err) {
    throw new ConversionError('ocrFailed', `OCR failed: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
  }
}

/** Stops every OCR worker (on shutdown, or at the end of a test run so the process can exit). */
export async function terminateOcr(): Promise<void> {
  const all = [...workers.values()];
  workers.clear();
  await Promise.allSettled(all.map(async (w) => (await w).terminate()));
}
