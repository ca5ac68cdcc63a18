/**
 * The one door from the elements to the uploader's main-thread facade, loaded with a dynamic `import()` when a
 * `<store-uploader>` gets a `base-url`. It names the public entry (`src/uploader/index.ts`) but imports only
 * `createUploader`, so a bundler keeps this chunk to the facade and comlink: the engine, the worker service and the
 * MD5 hasher that the entry also exports never run on the main thread.
 */
export { createUploader } from '../../uploader/index.ts';
