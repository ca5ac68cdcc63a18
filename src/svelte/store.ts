/**
 * Svelte 5 stores over the kit's headless store (`store-upload-kit/svelte/store`), for apps that draw their own upload
 * UI: `uploads(options)` is a readable store (`$uploads` in a component, runes mode or not; `fromStore` for `.current`)
 * whose value is the snapshot of the uploads, one uploader per serialisable options and account, shared by every
 * component; `dropzone` is an action (`use:dropzone`) that turns any element into a place to add files. On the server
 * it holds the empty snapshot and creates no uploader.
 */
import {
  dropTarget,
  uploadStore,
  type UploaderInput,
  type DropTargetOptions,
  type UploadStore,
  type UploadsSnapshot,
} from '../headless/index.ts';

export type { TaskView, UploadsSnapshot, UploadStore } from '../headless/index.ts';

/** Svelte's store contract: `run` gets the value at once and at each change; the result unsubscribes. */
export interface UploadsReadable {
  subscribe(run: (value: UploadsSnapshot) => void): () => void;
  /** The headless store behind it: `add`, `pause`, `resume`, `cancel`, `retry`, `remove` … */
  readonly store: UploadStore;
}

/** The uploads of `options` (or of a store) as a Svelte readable store. */
export function uploads(options: UploaderInput | UploadStore): UploadsReadable {
  const store = 'subscribe' in options ? options : uploadStore(options);
  return {
    store,
    subscribe(run) {
      run(store.getSnapshot());
      const stop = store.subscribe(() => run(store.getSnapshot()));
      run(store.getSnapshot());
      return stop;
    },
  };
}

/**
 * `use:dropzone={{ store, onDragChange }}`: drops, pastes, Enter, Space and clicks on the element add files to
 * `store` (or go to `onFiles`). Give the element `role="button"` and `tabindex="0"`.
 */
export function dropzone(
  node: HTMLElement,
  options: Partial<DropTargetOptions> & { store?: UploadStore },
): { update(next: Partial<DropTargetOptions> & { store?: UploadStore }): void; destroy(): void } {
  let current = options;
  const target = dropTarget({
    get accept() {
      return current.accept;
    },
    get multiple() {
      return current.multiple;
    },
    get restrictions() {
      return current.restrictions;
    },
    get noClick() {
      return current.noClick;
    },
    onReject: (rejected) => current.onReject?.(rejected),
    onFiles: (files, picked) => (current.onFiles ? current.onFiles(files, picked) : void current.store?.add(picked)),
    onDragChange: (over) => current.onDragChange?.(over),
  });
  const events = ['dragenter', 'dragover', 'dragleave', 'drop', 'paste', 'keydown', 'click'] as const;
  const listeners = events.map((type) => [type, target[type] as (event: Event) => void] as const);
  for (const [type, listener] of listeners) node.addEventListener(type, listener);
  return {
    update(next) {
      current = next;
    },
    destroy() {
      for (const [type, listener] of listeners) node.removeEventListener(type, listener);
    },
  };
}
