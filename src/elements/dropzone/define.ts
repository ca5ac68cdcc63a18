/** Registers `<store-dropzone>`. */
import { StoreDropzone } from './store-dropzone.ts';

if (!customElements.get('store-dropzone')) customElements.define('store-dropzone', StoreDropzone);

declare global {
  interface HTMLElementTagNameMap {
    'store-dropzone': StoreDropzone;
  }
}

export { StoreDropzone };
