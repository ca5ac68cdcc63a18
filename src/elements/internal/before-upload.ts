/**
 * The elements' side of `beforeUpload` that every page loads (the hook itself runs in `hook-runner.ts`, loaded when a
 * hook is set): the options a picked file is added with, and hearing of a refusal by the uploader's own hook
 * (`createUploader({ beforeUpload })`), which arrives through the task's `done`.
 */
import type { PickedFile, RejectedFile } from '../events.ts';
import type { AddOptions, UploadTask } from '../../uploader/index.ts';

/** What `uploader.add` is given for a picked file. */
export function addOptionsOf(picked: PickedFile): AddOptions {
  return {
    ...(picked.relativePath !== picked.file.name && { relativePath: picked.relativePath }),
    ...(picked.handle && { handle: picked.handle }),
    ...(picked.metadata && { metadata: picked.metadata }),
    ...(picked.convertTo && { convertTo: picked.convertTo }),
  };
}

/** Calls `refuse` if the uploader's own `beforeUpload` refuses the task's file. */
export function watchRefusal(task: UploadTask, picked: PickedFile, refuse: (file: RejectedFile) => void): void {
  task.done.catch((error: { code?: string; reason?: string; message?: string }) => {
    if (error?.code !== 'rejected') return;
    const reason = error.reason === 'skipped' ? 'skipped' : 'hook-error';
    refuse({ ...picked, reason, ...(reason === 'hook-error' && { message: error.message ?? '' }) });
  });
}
