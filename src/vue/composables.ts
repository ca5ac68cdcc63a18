/**
 * Vue 3 composables over the kit's headless store (`store-upload-kit/vue/composables`), for apps that draw their own
 * upload UI: `useUploader(options)` gives (and provides to descendants) the store of those options, `useUploads()` its
 * snapshot as a shallow ref, `useDropzone()` the listeners (`v-on`) that turn any element into a place to add files.
 * Safe under SSR (Nuxt): nothing subscribes or creates an uploader before `onMounted`, so the server renders, and the
 * client hydrates, the empty snapshot.
 */
import { getCurrentInstance, inject, onMounted, onScopeDispose, provide, shallowReadonly, shallowRef } from 'vue';
import type { InjectionKey, ShallowRef } from 'vue';
import {
  dropTarget,
  uploadStore,
  type UploaderInput,
  type DropTarget,
  type PickOptions,
  type IntakeRules,
  type PickedFile,
  type UploadStore,
  type UploadsSnapshot,
} from '../headless/index.ts';

export type { TaskView, UploadsSnapshot, UploadStore } from '../headless/index.ts';

/** Where `useUploader` provides its store to the components below. */
export const UPLOAD_STORE: InjectionKey<UploadStore> = Symbol('store-upload-kit');

/**
 * The store of `options` (one uploader per serialisable options and account, shared by every component; the latest
 * token getter is the one asked), provided to the component's descendants.
 */
export function useUploader(options: UploaderInput): UploadStore {
  const store = uploadStore(options);
  provide(UPLOAD_STORE, store);
  const instance = getCurrentInstance();
  if (instance) own.set(instance, store);
  return store;
}

/** The store each component's own `useUploader` gave (Vue's `inject` sees only its ancestors' provides). */
const own = new WeakMap<object, UploadStore>();

/** The store given, else the component's own, else the provided one. */
function storeOf(store?: UploadStore): UploadStore {
  const instance = getCurrentInstance();
  const found = store ?? (instance && own.get(instance)) ?? inject(UPLOAD_STORE, undefined);
  if (!found)
    throw new Error('store-upload-kit: pass the store of useUploader(), or call useUploader() in an ancestor');
  return found;
}

/** The uploads as a read-only shallow ref: a new snapshot object on each change, at most once a frame. */
export function useUploads(store?: UploadStore): Readonly<ShallowRef<UploadsSnapshot>> {
  const s = storeOf(store);
  const state = shallowRef(s.getSnapshot());
  let stop: (() => void) | undefined;
  onMounted(() => {
    stop = s.subscribe(() => (state.value = s.getSnapshot()));
    state.value = s.getSnapshot();
  });
  onScopeDispose(() => stop?.());
  return shallowReadonly(state);
}

/**
 * Any element as a dropzone: `<div v-on="dropzone.on" role="button" tabindex="0">` takes dropped and pasted
 * files, and Enter, Space or a click opens the file dialog; `isDragging` is true while files are dragged over it.
 * Files go to the store (given or provided) unless `onFiles` takes them.
 */
export function useDropzone(
  options: PickOptions &
    IntakeRules & {
      store?: UploadStore;
      onFiles?: (files: File[], picked: PickedFile[]) => void;
      noClick?: boolean;
    } = {},
): { on: Omit<DropTarget, 'open'>; isDragging: Readonly<ShallowRef<boolean>>; open(): void } {
  const store = options.onFiles ? undefined : storeOf(options.store);
  const isDragging = shallowRef(false);
  const { open, ...on } = dropTarget({
    ...options,
    onFiles: (files, picked) => (options.onFiles ? options.onFiles(files, picked) : void store?.add(picked)),
    onDragChange: (over) => (isDragging.value = over),
  });
  return { on, isDragging: shallowReadonly(isDragging), open };
}
