/** Registers `<store-uploader>` (and the elements it is made of). */
import { StoreUploader } from './store-uploader.ts';

if (!customElements.get('store-uploader')) customElements.define('store-uploader', StoreUploader);

declare global {
  interface HTMLElementTagNameMap {
    'store-uploader': StoreUploader;
  }
}

export { StoreUploader };
