/**
 * The intake's last step, picked files handed to an uploader: what `<store-dropzone>`, `<store-uploader>` and the
 * headless store (`UploadStore.addPicked`) all end in. Loaded with the intake (`intake.ts`), not with the page.
 */
import type { Uploader } from '../../uploader/index.ts';
import { addOptionsOf, type PickedFile, type RejectedFile } from './picked-file.ts';

/** Where picked files go and what they become. */
export interface PickedAddOptions {
  /** The folder to upload into (default: the uploader's `parentId`). */
  parentId?: string | undefined;
  /** Put every file straight into `parentId`, not into the folders of its relative path. */
  flatten?: boolean | undefined;
  /**
   * The type to convert each file to (one for all, or chosen per file); a `convertTo` the file brings (a
   * `beforeUpload` hook's) wins.
   */
  convertTo?: string | ((picked: PickedFile) => string | undefined);
  /**
   * The language the service reads text in when it converts an image or a PDF to a document (`ocrLanguage`): sent
   * with each converted file, or decided per file by a function (`<store-uploader>` sends it for OCR's sources only).
   */
  ocrLanguage?: string | ((picked: PickedFile, convertTo: string) => string | undefined);
  /** Paths of empty folders to create beside the files (`photos/empty`): a drop's. */
  folders?: readonly string[];
  /** Files the uploader's own `beforeUpload` refused, each as the intake's refusals are told. */
  onReject?: (rejected: RejectedFile[]) => void;
}

/**
 * Runs of adds last about this long before the browser gets its turn, so adding 10,000 files never blocks the main
 * thread for one long task (each `uploader.add` hands a file to the worker and costs tens of microseconds; 10,000 of
 * them in one loop was a 100 ms task). It is small because each add queues about as much again in microtasks (the
 * hand-over to the worker), which run before the slice ends.
 */
const SLICE_MS = 4;

/**
 * Hands `files` to `uploader` with their folder paths, handles and conversions, in slices of {@link SLICE_MS},
 * after creating `folders`; resolves once every file is the uploader's. The first slice runs in the caller's task.
 */
export async function addPicked(
  uploader: Uploader,
  files: readonly PickedFile[],
  options: PickedAddOptions = {},
): Promise<void> {
  const { parentId, flatten, convertTo: chosen, ocrLanguage, onReject } = options;
  const target = { ...(parentId && { parentId }), ...(flatten && { flatten }) };
  // No row shows a folder: the uploader retries a failed create itself, and one that still fails is left out.
  for (const path of options.folders ?? []) uploader.addFolder(path, target).catch(() => undefined);
  let sliceStart = performance.now();
  for (const picked of files) {
    if (performance.now() - sliceStart > SLICE_MS) {
      await yieldToBrowser();
      sliceStart = performance.now();
    }
    const convertTo = picked.convertTo ?? (typeof chosen === 'function' ? chosen(picked) : chosen);
    const ocr = convertTo && (typeof ocrLanguage === 'function' ? ocrLanguage(picked, convertTo) : ocrLanguage);
    const task = uploader.add(picked.file, {
      ...addOptionsOf(picked),
      ...(convertTo && { convertTo }),
      ...(ocr && { ocrLanguage: ocr }),
      ...target,
    });
    // A refusal by the uploader's own hook (`createUploader({ beforeUpload })`) arrives through the task's end.
    task.done.catch((caught: unknown) => {
      const error = caught as { code?: string; reason?: string; message?: string } | undefined;
      if (error?.code !== 'rejected') return;
      const reason = error.reason === 'skipped' ? 'skipped' : 'hook-error';
      onReject?.([{ ...picked, reason, ...(reason === 'hook-error' && { message: error.message ?? '' }) }]);
    });
  }
}

type Scheduler = { yield?: () => Promise<void> };

/** `scheduler.yield()` where the browser has it (continuation first in line), else a message-channel turn. */
function yieldToBrowser(): Promise<void> {
  const scheduler = (globalThis as { scheduler?: Scheduler }).scheduler;
  if (scheduler?.yield) return scheduler.yield();
  return new Promise((done) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => done();
    channel.port2.postMessage(undefined);
  });
}
