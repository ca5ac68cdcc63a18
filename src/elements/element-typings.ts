/**
 * What a page sets on each `store-*` element and which `store-*` events it fires, by tag — declared once for the
 * framework typings (`store-upload-kit/vue`, `store-upload-kit/svelte`), which offer these properties and not the
 * elements' methods or inner state.
 */
import type { StoreConversionPicker } from './conversion-picker/store-conversion-picker.ts';
import type { StoreDropzone } from './dropzone/store-dropzone.ts';
import type { StoreProgressList } from './progress-list/store-progress-list.ts';
import type { StoreUploader } from './uploader/store-uploader.ts';

type Common = 'i18n' | 'colorScheme';

/** The settable properties of each element (with their types), by tag. */
export interface StoreElementProperties {
  'store-dropzone': Pick<
    StoreDropzone,
    | Common
    | 'accept'
    | 'multiple'
    | 'maxFileSize'
    | 'minFileSize'
    | 'maxFiles'
    | 'maxTotalSize'
    | 'disabled'
    | 'uploader'
    | 'beforeUpload'
    | 'parentId'
    | 'flatten'
  >;
  'store-progress-list': Pick<StoreProgressList, Common | 'uploader'>;
  'store-conversion-picker': Pick<
    StoreConversionPicker,
    | Common
    | 'mimeType'
    | 'value'
    | 'ocrLanguage'
    | 'name'
    | 'disabled'
    | 'baseUrl'
    | 'token'
    | 'importFormats'
    | 'ocrLanguages'
    | 'getAccessToken'
  >;
  'store-uploader': Pick<
    StoreUploader,
    | Common
    | 'baseUrl'
    | 'token'
    | 'concurrency'
    | 'chunkSize'
    | 'resumableThreshold'
    | 'workerBase'
    | 'accept'
    | 'maxFileSize'
    | 'minFileSize'
    | 'maxFiles'
    | 'maxTotalSize'
    | 'beforeUpload'
    | 'conversion'
    | 'parentId'
    | 'flatten'
    | 'share'
    | 'name'
    | 'uploader'
    | 'importFormats'
    | 'getAccessToken'
    | 'shareFiles'
  >;
}

/**
 * The `store-*` events each element fires, by tag (`store-conversion-picker` and `store-uploader` also fire a
 * native `change` whose target is the element).
 */
export interface StoreElementEvents {
  // Each value is a key of StoreEventMap: the typings \`Pick\` them from it, so a wrong name fails to compile.
  'store-dropzone': 'store-files-add' | 'store-files-reject';
  'store-progress-list': 'store-task-action';
  'store-conversion-picker': never;
  'store-uploader': 'store-files-add' | 'store-files-reject' | 'store-task-action' | 'store-share-complete';
}
