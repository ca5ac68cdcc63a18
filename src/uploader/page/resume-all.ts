import type { Remote } from 'comlink';
import { askToRead, readHandle } from './read-handle.ts';
import type { AddOptions, InterruptedUpload, ResumeAllResult, UploadTask } from '../contract/types.ts';
import type { FileInfo, WorkerCalls } from '../contract/worker-contract.ts';
import { UploadError } from '../contract/upload-error.ts';

/**
 * `Uploader.resumeAllInterrupted`: asks read permission for every kept handle of `shown` (the list the user sees)
 * before anything is awaited — browsers grant it only inside the user's gesture — then resumes what can go on
 * without a file dialog and sorts the rest into changed files and files to choose again.
 */
export async function resumeAllInterrupted(
  shown: InterruptedUpload[],
  list: () => Promise<InterruptedUpload[]>,
  resume: (id: string) => Promise<UploadTask>,
): Promise<ResumeAllResult> {
  const asked = new Map<string, Promise<boolean>>();
  for (const u of shown) if (u.handle) asked.set(u.id, askToRead(u.handle));
  const result: ResumeAllResult = { resumed: [], changed: [], needFile: [] };
  for (const u of await list()) {
    if (!u.canResumeWithoutFile || (u.handle && !(await (asked.get(u.id) ?? askToRead(u.handle))))) {
      result.needFile.push(u);
      continue;
    }
    try {
      result.resumed.push(await resume(u.id));
    } catch (error) {
      const code = error instanceof UploadError ? error.code : undefined;
      if (code === 'file-changed') result.changed.push(u);
      else if (code !== 'not-found') result.needFile.push(u);
    }
  }
  return result;
}

/**
 * What an interrupted upload resumes with: the file chosen again (`chosen`), else the kept copy, else the kept
 * handle's file. A kept handle or copy must still read as the same file: its own date and size, the record's name
 * and type (the worker checks, `checkInterrupted`).
 */
export async function fileToResume(
  remote: Remote<WorkerCalls> | WorkerCalls,
  id: string,
  chosen?: { file: File; info: FileInfo },
): Promise<{ file: Blob; info: FileInfo; options: AddOptions }> {
  const stored = await remote.interruptedSource(id);
  if (!stored) throw new UploadError({ code: 'not-found', message: `no interrupted upload ${id}` });
  let file: Blob | undefined = chosen?.file ?? stored.file;
  if (!file && stored.handle) file = await readHandle(stored.handle);
  if (!file)
    throw new UploadError({ code: 'file-changed', message: `choose the file ${stored.info.name} again to resume it` });
  const kept = file as Partial<File>;
  const info = chosen?.info ?? { ...stored.info, lastModified: kept.lastModified ?? stored.info.lastModified };
  const problem = await remote.checkInterrupted(id, file, info);
  if (problem) throw new UploadError(problem);
  return { file, info, options: stored.options };
}
