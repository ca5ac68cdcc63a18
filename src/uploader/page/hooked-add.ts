import { loadBeforeUpload } from './before-upload-loader.ts';
import { fileInfo } from './task-table.ts';
import type { AddOptions, BeforeUpload, TaskSnapshot } from '../contract/types.ts';
import { UploadError } from '../contract/upload-error.ts';
import type { FileInfo } from '../contract/worker-contract.ts';

/** What a hooked add reads and changes on the page's uploader. */
export interface HookedAddHost {
  /** The task's snapshot now, if it is still listed. */
  snapshot(id: string): TaskSnapshot | undefined;
  /** The hook renamed, replaced or re-targeted the file: the listed task shows it. */
  amend(id: string, snapshot: TaskSnapshot): void;
  /** Hands the file to the engine. */
  send(id: string, file: Blob, info: FileInfo, options: AddOptions): Promise<TaskSnapshot>;
}

/**
 * The `send` of a file added under a `beforeUpload` hook (main thread): the task is listed (queued) at once, as `add`
 * promises, and the worker hears of it once the hook has decided — a refusal fails it with code `rejected`.
 */
export function hookedSend(
  host: HookedAddHost,
  hook: BeforeUpload,
  file: File | Blob,
  options: AddOptions,
): (id: string) => Promise<TaskSnapshot> {
  const checked = loadBeforeUpload().then((run) => run(hook, file, options));
  return async (id) => {
    const outcome = await checked;
    if (!outcome.ok) throw new UploadError({ code: 'rejected', message: outcome.message, reason: outcome.reason });
    const next = fileInfo(outcome.file);
    const listed = host.snapshot(id);
    if (listed && (outcome.file !== file || outcome.options.convertTo !== options.convertTo)) {
      const { convertTo, relativePath } = outcome.options;
      host.amend(id, {
        ...listed,
        name: next.name,
        type: next.type,
        total: outcome.file.size,
        ...(convertTo && { convertTo }),
        ...(relativePath && { relativePath }),
      });
    }
    return host.send(id, outcome.file, next, outcome.options);
  };
}
