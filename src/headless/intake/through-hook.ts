/**
 * A `beforeUpload` hook run on picked files after the restrictions, as `<store-dropzone>` runs it before
 * `store-files-add`: what it refuses joins the restrictions' refusals, what it returns replaces the file. Part of the
 * intake chunk; the runner (`uploader/page/before-upload.ts`) is loaded by the caller, only on pages that set a hook.
 */
import type { BeforeUpload } from '../../uploader/index.ts';
import type { loadBeforeUpload } from '../../uploader/page/before-upload-loader.ts';
import { addOptionsOf, type PickedFile, type RejectedFile } from './picked-file.ts';

/** Runs `hook` through `run` on every file (all at once; answers kept in the files' order). */
export async function throughHook(
  run: Awaited<ReturnType<typeof loadBeforeUpload>>,
  hook: BeforeUpload,
  files: readonly PickedFile[],
): Promise<{ accepted: PickedFile[]; rejected: RejectedFile[] }> {
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
