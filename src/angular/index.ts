/**
 * Angular support over the kit's headless store (`store-upload-kit/angular`), for apps that draw their own upload UI
 * with signals: `provideUploader(options)` in a component's or the application's providers, then `injectUploads()`
 * (a read-only signal of the uploads' snapshot) and `injectUploader()` (the store: `add`, `pause`, `resume` …) in an
 * injection context. One uploader per serialisable options and account, shared by every component; under server
 * rendering the signal holds the empty snapshot and no uploader is created.
 */
import { DestroyRef, InjectionToken, inject, signal } from '@angular/core';
import type { Provider, Signal } from '@angular/core';
import {
  dropTarget,
  uploadStore,
  type UploaderInput,
  type DropTarget,
  type DropTargetOptions,
  type UploadStore,
  type UploadsSnapshot,
} from '../headless/index.ts';

export type { TaskView, UploadsSnapshot, UploadStore } from '../headless/index.ts';

/** The token `provideUploader` provides the store under. */
export const UPLOAD_STORE = new InjectionToken<UploadStore>('store-upload-kit UploadStore');

/** Providers of the store of `options`: `providers: [provideUploader({ baseUrl, getAccessToken })]`. */
export function provideUploader(options: UploaderInput): Provider[] {
  return [{ provide: UPLOAD_STORE, useFactory: () => uploadStore(options) }];
}

/** The provided store (in an injection context). */
export function injectUploader(): UploadStore {
  return inject(UPLOAD_STORE);
}

/** The provided store's uploads as a read-only signal, followed until the injecting component is destroyed. */
export function injectUploads(): Signal<UploadsSnapshot> {
  const store = inject(UPLOAD_STORE);
  const state = signal(store.getSnapshot());
  const stop = store.subscribe(() => state.set(store.getSnapshot()));
  state.set(store.getSnapshot());
  inject(DestroyRef).onDestroy(stop);
  return state.asReadonly();
}

/**
 * The handlers of a dropzone for `(dragenter)="dz.dragenter($event)"` … bindings, adding files to the provided store
 * unless `onFiles` takes them, and the drag state as a signal.
 */
export function injectDropzone(options: Partial<DropTargetOptions> = {}): DropTarget & { isDragging: Signal<boolean> } {
  const store = inject(UPLOAD_STORE);
  const isDragging = signal(false);
  const target = dropTarget({
    ...options,
    onFiles: (files, picked) => (options.onFiles ? options.onFiles(files, picked) : void store.add(picked)),
    onDragChange: (over) => isDragging.set(over),
  });
  return { ...target, isDragging: isDragging.asReadonly() };
}
