/**
 * OCR with tesseract.js 7. One worker per language, created on first use and kept while it is in use: loading a
 * language's model is the slow part, and each worker runs in its own thread so recognition stays off the service's
 * event loop. A worker holds its model (tens of MB per language) in memory, so one left idle for
 * {@link setOcrIdleMs} is terminated and the service's memory falls back to what it was before the conversion;
 * tesseract.js itself is only imported on first use, so start-up loads none of it.
 * Language data comes from the installed `@tesseract.js-data/<lang>` packages on disk, never from the network.
 */
import { createRequire } from 'node:module';
import { mkdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Worker } from 'tesseract.js';
import { ConversionError } from './conversion-error.ts';
import type { OcrLang } from './importer.ts';

/** How long an unused OCR worker is kept by default, in ms. */
export const DEFAULT_OCR_IDLE_MS = 60_000;

const require = createRequire(import.meta.url);
const workers = new Map<OcrLang, Promise<Worker>>();
/** Recognitions running per language: a worker in use is never retired. */
const busy = new Map<OcrLang, number>();
const idleTimers = new Map<OcrLang, NodeJS.Timeout>();
let cacheDir = path.join(os.tmpdir(), 'store-service-tessdata');
let idleMs = DEFAULT_OCR_IDLE_MS;

/**
 * Where tesseract keeps unpacked language data (call before the first OCR; e.g. inside the service's data dir).
 * Defaults to a folder in the system temp dir.
 */
export function setOcrCacheDir(dir: string): void {
  cacheDir = dir;
}

/** How long, in ms, an OCR worker may sit unused before it is terminated (default {@link DEFAULT_OCR_IDLE_MS}). */
export function setOcrIdleMs(ms: number): void {
  if (!Number.isFinite(ms) || ms < 0)
    throw new RangeError(`OCR idle time must be a non-negative number of ms; got ${ms}`);
  idleMs = ms;
}

/** Folder holding `<lang>.traineddata.gz` for the LSTM engine (the packages' `4.0.0_best_int` layout). */
function langPathFor(lang: OcrLang): string {
  return path.join(path.dirname(require.resolve(`@tesseract.js-data/${lang}/package.json`)), '4.0.0_best_int');
}

function workerFor(lang: OcrLang): Promise<Worker> {
  let worker = workers.get(lang);
  if (!worker) {
    mkdirSync(cacheDir, { recursive: true });
    worker = import('tesseract.js').then(({ createWorker, OEM }) =>
      createWorker(lang, OEM.LSTM_ONLY, {
        langPath: langPathFor(lang),
        cachePath: cacheDir,
        gzip: true,
        // Without a handler tesseract.js rethrows worker errors where nothing can catch them.
        errorHandler: () => {},
      }),
    );
    // A worker that failed to start is forgotten, so the next request tries again.
    worker.catch(() => {
      if (workers.get(lang) === worker) workers.delete(lang);
    });
    workers.set(lang, worker);
  }
  return worker;
}

/** Text tesseract finds in an image (PNG, JPEG or BMP bytes), trimmed. OCR failures → `ocrFailed`. */
export async function recognizeText(image: Uint8Array, lang: OcrLang): Promise<string> {
  clearTimeout(idleTimers.get(lang));
  idleTimers.delete(lang);
  busy.set(lang, (busy.get(lang) ?? 0) + 1);
  try {
    const worker = await workerFor(lang);
    const { data } = await worker.recognize(Buffer.from(image.buffer, image.byteOffset, image.byteLength));
    return data.text.trim();
  } catch (err) {
    throw new ConversionError('ocrFailed', `OCR failed: ${err instanceof Error ? err.message : String(err)}`, {
      cause: err,
    });
  } finally {
    const left = (busy.get(lang) ?? 1) - 1;
    if (left > 0) busy.set(lang, left);
    else {
      busy.delete(lang);
      // unref: a pending retirement must not keep a closing process alive.
      idleTimers.set(lang, setTimeout(() => void retire(lang), idleMs).unref());
    }
  }
}

/** Terminates one language's worker; the next recognition in that language starts a new one. */
async function retire(lang: OcrLang): Promise<void> {
  idleTimers.delete(lang);
  const worker = workers.get(lang);
  if (!worker || busy.has(lang)) return;
  workers.delete(lang);
  try {
    await (await worker).terminate();
  } catch {
    // A worker that failed to start or is already gone has nothing left to free.
  }
}

/** Stops every OCR worker (on shutdown, or at the end of a test run so the process can exit). */
export async function terminateOcr(): Promise<void> {
  for (const timer of idleTimers.values()) clearTimeout(timer);
  idleTimers.clear();
  const all = [...workers.values()];
  workers.clear();
  await Promise.allSettled(all.map(async (w) => (await w).terminate()));
}
