/**
 * The one door from the elements to the uploader's main-thread code, loaded with a dynamic `import()`: by
 * `<store-uploader>` when it gets a `base-url`, and by a dropzone or uploader with a `beforeUpload` hook when the
 * first files are picked. It names the public entry (`src/uploader/index.ts`) but takes only what the elements
 * run, so a bundler keeps this chunk to the facade and comlink: the engine, the worker service and the MD5 hasher
 * that the entry also exports never run on the main thread. No element imports the uploader's code statically —
 * bundlers that split by file (esbuild) would otherwise put the whole facade into every page's first chunk.
 */
export { createUploader, loadBeforeUpload } from '../../uploader/index.ts';
