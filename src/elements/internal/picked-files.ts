/**
 * Picked files on their way from an element to the uploader: the element's `beforeUpload` hook runs on each after
 * the restrictions, before `store-files-add` (the one runner, `uploader/page/before-upload.ts`, loads on first use),
 * and what it refuses joins the restrictions' refusals (same list, same `store-files-reject` event). A refusal by
 * the uploader's own hook (`createUploader({ beforeUpload })`) arrives later, through the task's `done`, and is
 * reported the same way.
 */
import type { PickedFile, RejectedFile } from '../events.ts';
import type { BeforeUpload, UploadTask } from '../../uploader/index.ts';
import { addOptionsOf } from '../../headless/intake/picked-file.ts';
export { addOptionsOf };

/** Runs `hook` on every file (all at once; answers kept in the files' order). */
export async function throughHook(
  hook: BeforeUpload,
  files: readonly PickedFile[],
): Promise<{ accepted: PickedFile[]; rejected: RejectedFile[] }> {
  const run = await (await import('./uploader-facade.ts')).loadBeforeUpload();
  const outcomes = await Promise.all(files.map((picked) => run(hook, picked.file, addOptionsOf(picked))));
  const accepted: PickedFile[] = [];
  const rejected: RejectedFile[] = [];
  outcomes.forEach((outcome, i) => {
    const picked = files[i];
    if (!outcome.ok)
      rejected.push({
        ...picked,
        reason: outcome.reason,
        ...(outcome.reason === 'hook-error' && { message: outcome.message }),
      });
    else {
      const { handle, metadata, convertTo, relativePath } = outcome.options;
      const file = outcome.file as File;
      accepted.push({
        file,
        relativePath: relativePath ?? file.name,
        ...(handle && { handle }),
        ...(metadata && { metadata }),
        ...(convertTo && { convertTo }),
      });
    }
  });
  return { accepted, rejected };
}

/** Calls `refuse` if the uploader's own `beforeUpload` refuses the task's file. */
export function watchRefusal(task: UploadTask, picked: PickedFile, refuse: (file: RejectedFile) => void): void {
  task.done.catch((caught: unknown) => {
    const error = caught as { code?: string; reason?: string; message?: string } | undefined;
    if (error?.code !== 'rejected') return;
    const reason = error.reason === 'skipped' ? 'skipped' : 'hook-error';
    refuse({ ...picked, reason, ...(reason === 'hook-error' && { message: error.message ?? '' }) });
  });
}
