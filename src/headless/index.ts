/**
 * The kit's state for apps that draw their own upload UI (`store-upload-kit/headless`), with no framework: a store
 * over `createUploader` with `subscribe` / `getSnapshot`, shared per options; the React, Vue, Svelte and Angular
 * bindings wrap it. See README, "Your own UI".
 */
export { uploadStore, optionsKey, storeFor } from './registry.ts';
export { UploadStore } from './upload-store.ts';
export { EMPTY_UPLOADS, type TaskView, type TaskBase, type UploadsSnapshot } from './task-view.ts';
export { pickFiles, type PickOptions } from './pick-files.ts';
export { collectFromFileList } from './intake/collect-files.ts';
export type { PickedFile, RejectedFile, RejectReason } from './intake/picked-file.ts';
export type { Restrictions } from './intake/restrictions.ts';
export type { PickedAddOptions } from './intake/add-picked.ts';
export {
  dropTarget,
  filesOf,
  type DropTarget,
  type DropTargetOptions,
  type IntakeRules,
  type DragLike,
  type PasteLike,
  type KeyLike,
  type ClickLike,
} from './drop-target.ts';
export type { CreateUploaderOptions, UploaderInput, Uploader, UploadTask, AddOptions } from '../uploader/index.ts';
