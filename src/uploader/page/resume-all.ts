import { askToRead } from './read-handle.ts';
import type { InterruptedUpload, ResumeAllResult, UploadTask } from '../types.ts';
import { UploadError } from '../upload-error.ts';

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
