/**
 * The elements' `beforeUpload` hook runner, loaded when a dropzone first has a hook to run: what the hook refuses
 * joins the restrictions' refusals (same list, same `store-files-reject` event).
 */
import type { PickedFile, RejectedFile } from '../events.ts';
import { addOptionsOf } from './before-upload.ts';
import { runBeforeUpload } from '../../uploader/index.ts';
import type { BeforeUpload } from '../../uploader/index.ts';

/** Runs `hook` on every file (all at once; answers kept in the files' order). */
export async function throughHook(hook: BeforeUpload, files: readonly PickedFile[]): Promise<{ accepted: PickedFile[]; rejected: RejectedFile[] }> {
  const outcomes = await Promise.all(files.map((picked) => runBeforeUpload(hook, picked.file, addOptionsOf(picked))));
  const accepted: PickedFile[] = [];
  const rejected: RejectedFile[] = [];
  outcomes.forEach((outcome, i) => {
    const picked = files[i]!;
    if (!outcome.ok) rejected.push({ ...picked, reason: outcome.reason, ...(outcome.reason === 'hook-error' && { message: outcome.message }) });
    else {
      const { handle, metadata, convertTo } = outcome.options;
      accepted.push({ file: outcome.file as File, relativePath: picked.relativePath, ...(handle && { handle }), ...(metadata && { metadata }), ...(convertTo && { convertTo }) });
    }
  });
  return { accepted, rejected };
}
