// Typecheck-only (tsconfig.browser.json, strict): the uploader's events are typed by name, as the README shows.
// Nothing here runs; `npm run typecheck` fails if the typing regresses (an `@ts-expect-error` left unused fails too).
import {
  createUploader,
  type InterruptedUpload,
  type TaskSnapshot,
  type UploaderSnapshot,
} from '../../../src/uploader/index.ts';

export function typedEvents(): void {
  const uploader = createUploader({ baseUrl: 'https://store.example', getAccessToken: () => 'token' });
  uploader.addEventListener('progress', (e) => {
    const acknowledged: number = e.detail.bytesAcknowledged;
    const snapshot: TaskSnapshot = e.detail;
    acknowledged;
    snapshot;
  });
  uploader.addEventListener('change', (e) => {
    const all: UploaderSnapshot = e.detail;
    all.tasks.length;
  });
  uploader.addEventListener('interrupted-found', (e) => {
    const list: InterruptedUpload[] = e.detail;
    list;
  });
  uploader.addEventListener('reject', (e) => {
    const reason: 'skipped' | 'hook-error' = e.detail.reason;
    [reason, e.detail.relativePath, e.detail.message];
  });
  // The hook's context and answers are typed: a rename with metadata, a skip, a replacement, async.
  createUploader({
    baseUrl: 'https://store.example',
    getAccessToken: () => 'token',
    beforeUpload: async (file, { relativePath }) =>
      file.size === 0
        ? false
        : relativePath.endsWith('.txt')
          ? new Blob(['x'])
          : { name: file.name, metadata: { description: relativePath } },
  });
  // @ts-expect-error a hook answers a boolean, a File/Blob or changes, not a string
  createUploader({ baseUrl: 'https://store.example', getAccessToken: () => 'token', beforeUpload: () => 'skip' });
  const onError = (e: CustomEvent<TaskSnapshot>) => void e.detail.error?.code;
  uploader.addEventListener('error', onError);
  uploader.removeEventListener('error', onError);
  // Any other event name still takes a plain listener.
  uploader.addEventListener('something-else', (e: Event) => void e.type);
  // @ts-expect-error a progress event carries a task snapshot, which has no `tasks`
  uploader.addEventListener('progress', (e) => void e.detail.tasks);
  // @ts-expect-error a change event carries the uploader snapshot, which has no `bytesAcknowledged`
  uploader.addEventListener('change', (e) => void e.detail.bytesAcknowledged);
}
