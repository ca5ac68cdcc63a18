/**
 * Firefox's shared worker and the Blobs a page makes in memory (issue 20). Such a Blob (`new Blob`/`new File` from
 * bytes, over about 1 MiB) reaches a Firefox shared worker as a stream kept by the page: read whole or from its start
 * it arrives, but a slice that starts further in never settles, whatever reads it (`arrayBuffer`, `stream`,
 * `Response`, `FileReader`; `FileReaderSync` blocks the thread for good). Its dedicated workers, and files the user
 * chose (kept on disk), slice fine. Seen in Firefox ESR 153; test/other-browsers/blob-repro/ shows it alone.
 *
 * The engine slices (each chunk, the resume sample, the MD5 read after a rewind), so such a Blob is first copied into
 * this worker by one read from its start. A large Blob whose last byte reads before that copy ends is used as given: a
 * file on disk is not copied. Small ones are copied without asking: near 1 MiB a page's Blob sometimes answers and then hangs.
 */

import type { UploadWorkerService } from './worker-service.ts';

const MiB = 1024 * 1024;
/** Copied without a probe: at most this costs ~40 ms and 8 MiB of memory. */
const COPY_UP_TO = 8 * MiB;
/** How long the copy may wait for its next bytes: the page that gave the Blob may have gone. */
const READ_MS = 30_000;

/** `service`, giving its engine a copy of each page's Blob that would not slice here (what `readableFile` returns). */
export function readingCopies(service: UploadWorkerService): UploadWorkerService {
  const add = service.add.bind(service);
  const check = service.checkInterrupted.bind(service);
  const resume = service.resumeInterrupted.bind(service);
  service.add = async (taskId, file, ...rest) => add(taskId, await readableFile(file), ...rest);
  service.checkInterrupted = async (id, file, info) => check(id, await readableFile(file), info);
  service.resumeInterrupted = async (taskId, id, file, info) => resume(taskId, id, await readableFile(file), info);
  return service;
}

/** `file`, or a copy of its bytes owned by this worker when slices of it would hang here. */
async function readableFile(file: Blob): Promise<Blob> {
  const reader = file.stream().getReader();
  const copied = copyOf(reader, file.type);
  if (file.size <= COPY_UP_TO) return copied;
  // The copy starts with the probe and whichever ends first wins: a page's Blob (whose probe never answers) costs no
  // wait for a probe to give up, and a file on disk, however slow its disk, is used as given and its copy stopped
  // (never a whole large file read into memory because a busy disk answered late).
  copied.catch(() => undefined);
  const answered = await Promise.race([slicesAnswer(file), copied.then(() => false)]);
  if (!answered) return copied;
  void reader.cancel().catch(() => undefined);
  return file;
}

async function copyOf(reader: ReadableStreamDefaultReader<Uint8Array>, type: string): Promise<Blob> {
  const parts: Uint8Array[] = [];
  for (;;) {
    const read = await within(reader.read(), READ_MS);
    if (!read) throw new Error('the page stopped giving the file');
    if (read.done) return new Blob(parts as BlobPart[], { type });
    parts.push(read.value);
  }
}

/** True once a read of `file`'s last byte settles (a read that fails is an answer too: the engine reports it). */
function slicesAnswer(file: Blob): Promise<boolean> {
  return file
    .slice(file.size - 1)
    .arrayBuffer()
    .then(
      () => true,
      () => true,
    );
}

/**
 * `work`'s value, or `undefined` once `ms` have passed. Not the uploader's `withTimeout`: importing it here would move
 * it out of the shared worker's entry into a chunk of its own, which costs the entry more than these lines.
 */
function within<T>(work: Promise<T>, ms: number): Promise<T | undefined> {
  let expire = (): void => undefined;
  const expired = new Promise<undefined>((resolve) => (expire = () => resolve(undefined)));
  const timer = setTimeout(expire, ms);
  return Promise.race([work, expired]).finally(() => clearTimeout(timer));
}
