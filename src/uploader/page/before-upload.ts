import type { AddOptions, BeforeUpload, BeforeUploadChanges, RejectedUpload } from '../contract/types.ts';

/** What a `beforeUpload` hook decided for one file: what to send and how, or why it is refused. */
export type BeforeUploadOutcome =
  | { ok: true; file: File | Blob; options: AddOptions }
  | { ok: false; reason: RejectedUpload['reason']; message: string };

/**
 * Runs `hook` for one file and folds its answer into the file and the options it is added with. Never throws: a
 * hook that throws, rejects or answers something unexpected gives a `hook-error` outcome with a readable message.
 * A replaced file drops `handle` (the handle reads the original, so it could not resume the replacement).
 */
export async function runBeforeUpload(
  hook: BeforeUpload,
  file: File | Blob,
  options: AddOptions = {},
): Promise<BeforeUploadOutcome> {
  const asFile = file instanceof File ? file : new File([file], 'Untitled', { type: file.type });
  let answer: unknown;
  try {
    answer = await hook(asFile, { relativePath: options.relativePath ?? asFile.name });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return { ok: false, reason: 'hook-error', message: message || 'beforeUpload threw an error' };
  }
  if (answer === false) return { ok: false, reason: 'skipped', message: 'skipped by beforeUpload' };
  if (answer === true || answer === undefined || answer === null) return { ok: true, file, options };
  if (answer instanceof Blob) {
    const { handle: _handle, ...rest } = options;
    const replacement =
      answer instanceof File
        ? answer
        : new File([answer], asFile.name, { type: answer.type || asFile.type, lastModified: Date.now() });
    return { ok: true, file: replacement, options: renamedPath(rest, replacement.name) };
  }
  if (typeof answer !== 'object' || !isChanges(answer)) {
    return {
      ok: false,
      reason: 'hook-error',
      message: `beforeUpload must return false, a File or Blob, or { name, metadata, convertTo }; got ${describe(answer)}`,
    };
  }
  const next: AddOptions = { ...options };
  if (answer.metadata) next.metadata = { ...options.metadata, ...answer.metadata };
  if (answer.convertTo) next.convertTo = answer.convertTo;
  // A new File of the same bytes (no copy): the list shows the new name, and the service stores it.
  const renamed = answer.name
    ? new File([file], answer.name, { type: file.type, lastModified: asFile.lastModified })
    : file;
  return { ok: true, file: renamed, options: answer.name ? renamedPath(next, answer.name) : next };
}

/** A file in a folder keeps its folder under a new name: `docs/a.txt` → `docs/b.txt` (the list shows the path). */
function renamedPath(options: AddOptions, name: string): AddOptions {
  const path = options.relativePath;
  return path ? { ...options, relativePath: path.slice(0, path.lastIndexOf('/') + 1) + name } : options;
}

function isChanges(value: object): value is BeforeUploadChanges {
  const { name, metadata, convertTo } = value as Record<string, unknown>;
  return (
    (name === undefined || (typeof name === 'string' && name.length > 0)) &&
    (metadata === undefined || (typeof metadata === 'object' && metadata !== null)) &&
    (convertTo === undefined || typeof convertTo === 'string')
  );
}

function describe(value: unknown): string {
  try {
    return JSON.stringify(value) ?? typeof value;
  } catch {
    return typeof value;
  }
}
