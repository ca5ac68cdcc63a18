/**
 * The one door from the elements to the uploader's main-thread code, loaded with a dynamic `import()`: by
 * `<store-uploader>` when it gets a `base-url` (the headless core's `UploaderOwner`, which the headless store makes
 * its uploader with too), and by a dropzone with a `beforeUpload` hook when the first files are picked. It names the
 * two modules it takes rather than the public entry (`src/uploader/index.ts`):
 * bundlers that split by file (esbuild) count every module the entry re-exports as reached from here, and the one
 * the page's first chunk also holds (`stored-sessions.ts`) became a chunk of its own. No element imports the
 * uploader's code statically, or the whole facade would be in every page's first chunk.
 */
export { UploaderOwner } from '../../headless/uploader-owner.ts';
export { loadBeforeUpload } from '../../uploader/page/before-upload-loader.ts';
