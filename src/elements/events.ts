/**
 * Every event the `store-*` elements fire, declared once: its name, its typed detail, and its entry in
 * `HTMLElementEventMap`, so `el.addEventListener('store-files-add', e => e.detail.files)` is typed everywhere.
 * Native `change` is used for form-like values and is not repeated here.
 */

export type { PickedFile, RejectReason, RejectedFile } from '../headless/intake/picked-file.ts';
import type { PickedFile, RejectedFile } from '../headless/intake/picked-file.ts';

/** A control pressed on one row of the progress list. */
export type TaskAction =
  'pause' | 'resume' | 'cancel' | 'retry' | 'remove' | 'resume-interrupted' | 'discard-interrupted';

/** Details of every `store-*` event. */
export interface StoreEventDetails {
  /**
   * Files accepted by a dropzone, and the paths of the empty folders of a dropped folder (`photos/empty`; a folder
   * input never reports them); cancelable: `preventDefault()` stops the dropzone from calling `uploader.add` and
   * `uploader.addFolder`.
   */
  'store-files-add': { files: PickedFile[]; folders: string[] };
  /** Files refused by a dropzone's restrictions or its `beforeUpload` hook. */
  'store-files-reject': { files: RejectedFile[] };
  /** A task control was used; cancelable: `preventDefault()` stops the element from calling the uploader. */
  'store-task-action': { taskId: string; action: TaskAction; file?: File };
  /** The share step granted permissions (or some grants failed). */
  'store-share-complete': { fileIds: string[]; grants: ShareGrant[]; failed: number };
}

/** One person or domain to share uploaded files with. */
export interface ShareGrant {
  type: 'user' | 'domain';
  /** An e-mail address for `user`, a domain name for `domain`. */
  emailAddress?: string;
  domain?: string;
  role: 'reader' | 'writer';
}

/** Names of every `store-*` event. */
export type StoreEventName = keyof StoreEventDetails;

/** Which events may be cancelled with `preventDefault()`. */
const CANCELABLE: ReadonlySet<StoreEventName> = new Set<StoreEventName>(['store-files-add', 'store-task-action']);

/**
 * Fires a `store-*` event from `target`: a `CustomEvent` that bubbles and crosses shadow roots.
 * Returns false when a listener cancelled it.
 */
export function emit<K extends StoreEventName>(target: EventTarget, name: K, detail: StoreEventDetails[K]): boolean {
  const event = new CustomEvent(name, { detail, bubbles: true, composed: true, cancelable: CANCELABLE.has(name) });
  return target.dispatchEvent(event);
}

/** The `CustomEvent` type of each `store-*` event. */
export type StoreEventMap = { [K in StoreEventName]: CustomEvent<StoreEventDetails[K]> };

declare global {
  interface HTMLElementEventMap extends StoreEventMap {}
  interface GlobalEventHandlersEventMap extends StoreEventMap {}
}
