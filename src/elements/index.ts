/**
 * Public entry of the elements layer: importing it registers every `store-*` element and exposes their classes,
 * event types and languages.
 */
import './dropzone/define.ts';
import './progress-list/define.ts';
import './conversion-picker/define.ts';
import './uploader/define.ts';

export { StoreDropzone } from './dropzone/store-dropzone.ts';
export { StoreProgressList } from './progress-list/store-progress-list.ts';
export { StoreConversionPicker, DEFAULT_OCR_LANGUAGES } from './conversion-picker/store-conversion-picker.ts';
export { StoreUploader } from './uploader/store-uploader.ts';
export { loadImportFormats, type ImportFormats } from './conversion-picker/import-formats.ts';
export { parseGrants, shareThroughService, type ShareFunction } from './uploader/share.ts';
export { emit } from './events.ts';
export type * from './events.ts';
export type * from './element-typings.ts';
export * from './i18n/index.ts';
