// The elements are registered in the browser only (a `.client` plugin), before the app hydrates: the server renders
// <store-uploader> as a plain tag with its attributes.
import 'store-upload-kit/elements';

export default defineNuxtPlugin(() => {});
