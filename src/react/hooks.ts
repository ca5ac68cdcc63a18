'use client';
/**
 * React hooks over the kit's headless store (`store-upload-kit/react/hooks`), for apps that draw their own upload UI:
 * `useUploader(options)` gives the store of those options (one uploader per options and account, shared by every
 * component), `useUploads()` its snapshot through `useSyncExternalStore` (empty on the server and while hydrating),
 * `useDropzone()` and `useFileInput()` the props that turn any element into a place to add files. No `store-*`
 * element and no Lit are loaded. Safe in StrictMode: a double mount finds the same uploader.
 */
import { createContext, createElement, useContext, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import type { ChangeEvent, ReactNode } from 'react';
import {
  collectFromFileList,
  dropTarget,
  optionsKey,
  pickFiles,
  uploadStore,
  type UploaderInput,
  type ClickLike,
  type DragLike,
  type KeyLike,
  type PasteLike,
  type PickOptions,
  type IntakeRules,
  type PickedFile,
  type UploadStore,
  type UploadsSnapshot,
} from '../headless/index.ts';

export type { TaskView, UploadsSnapshot, UploadStore } from '../headless/index.ts';

const StoreContext = createContext<UploadStore | undefined>(undefined);

/**
 * The store of `options`: made on first use, then shared by every component with the same serialisable options (a new
 * `getAccessToken` each render neither restarts nor duplicates an upload: the latest one is asked). Unmounting leaves
 * its uploads running; a remount shows them at once.
 */
export function useUploader(options: UploaderInput): UploadStore {
  const key = optionsKey(options);
  const store = useMemo(() => uploadStore(options), [key]);
  store.setOptions(options);
  return store;
}

/** Gives `store` to the components below: their `useUploads()`, `useDropzone()`, `useFileInput()` use it. */
export function UploaderProvider(props: { store: UploadStore; children?: ReactNode }): ReactNode {
  return createElement(StoreContext.Provider, { value: props.store }, props.children);
}

/** The store given as argument, else the nearest `UploaderProvider`'s. */
function useStore(store?: UploadStore): UploadStore {
  const provided = useContext(StoreContext);
  const found = store ?? provided;
  if (!found) throw new Error('store-upload-kit: pass the store of useUploader(), or render inside <UploaderProvider>');
  return found;
}

/** The uploads of `store` (or the provided one): the same object until something changes, at most once a frame. */
export function useUploads(store?: UploadStore): UploadsSnapshot {
  const s = useStore(store);
  return useSyncExternalStore(s.subscribe, s.getSnapshot, s.getServerSnapshot);
}

/** Options of `useDropzone` and `useFileInput`. */
export interface AddFilesOptions extends PickOptions, IntakeRules {
  /** The store files go to (default: the provided one). */
  store?: UploadStore;
  /**
   * Called with the files instead of adding them to the store (filter, confirm, then `store.add(picked)`: `picked`
   * holds the same files with their folder paths and handles).
   */
  onFiles?: (files: File[], picked: PickedFile[]) => void;
}

/** The props of a drop target: spread on any element. */
export interface DropzoneProps {
  onDragEnter(event: DragLike): void;
  onDragOver(event: DragLike): void;
  onDragLeave(event: DragLike): void;
  onDrop(event: DragLike): void;
  onPaste(event: PasteLike): void;
  onKeyDown(event: KeyLike): void;
  onClick(event: ClickLike): void;
  role: 'button';
  tabIndex: 0;
}

/** Where the handlers read the latest options, so a new `onFiles` each render is used without new handlers. */
function useLatestAdd(options: AddFilesOptions): {
  readonly current: AddFilesOptions & { add(files: File[], picked: PickedFile[]): void };
} {
  const store = useStore(options.store);
  const add = (files: File[], picked: PickedFile[]): void =>
    options.onFiles ? options.onFiles(files, picked) : void store.add(picked);
  const ref = useRef({ ...options, add });
  ref.current = { ...options, add };
  return ref;
}

/**
 * Turns any element into a dropzone: `<div {...props}>` takes dropped and pasted files, and Enter, Space or a
 * click opens the file dialog (not a click on a control inside it, such as a row's button); `isDragging` is true while files are dragged over it.
 */
export function useDropzone(options: AddFilesOptions & { noClick?: boolean } = {}): {
  props: DropzoneProps;
  isDragging: boolean;
  open(): void;
} {
  const latest = useLatestAdd(options);
  const [isDragging, setDragging] = useState(false);
  const [target] = useState(() =>
    dropTarget({
      get accept() {
        return latest.current.accept;
      },
      get multiple() {
        return latest.current.multiple;
      },
      get restrictions() {
        return latest.current.restrictions;
      },
      get noClick() {
        return options.noClick;
      },
      onReject: (rejected) => latest.current.onReject?.(rejected),
      onFiles: (files, picked) => latest.current.add(files, picked),
      onDragChange: setDragging,
    }),
  );
  const props = useMemo<DropzoneProps>(
    () => ({
      onDragEnter: target.dragenter,
      onDragOver: target.dragover,
      onDragLeave: target.dragleave,
      onDrop: target.drop,
      onPaste: target.paste,
      onKeyDown: target.keydown,
      onClick: target.click,
      role: 'button',
      tabIndex: 0,
    }),
    [target],
  );
  return { props, isDragging, open: target.open };
}

/**
 * A file dialog for the app's own buttons: `open()` inside a click, or `inputProps` on the app's own
 * `<input type="file">`.
 */
export function useFileInput(options: AddFilesOptions = {}): {
  open(): void;
  inputProps: {
    type: 'file';
    accept?: string;
    multiple: boolean;
    onChange(event: ChangeEvent<HTMLInputElement>): void;
  };
} {
  const latest = useLatestAdd(options);
  const [open] = useState(
    () => () => void pickFiles(latest.current).then((f) => f.length && latest.current.add(f, collectFromFileList(f))),
  );
  return {
    open,
    inputProps: {
      type: 'file',
      accept: options.accept,
      multiple: options.multiple ?? true,
      onChange(event) {
        const files = [...(event.currentTarget.files ?? [])];
        event.currentTarget.value = '';
        if (files.length) latest.current.add(files, collectFromFileList(files));
      },
    },
  };
}
