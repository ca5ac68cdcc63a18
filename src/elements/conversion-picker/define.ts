/** Registers `<store-conversion-picker>`. */
import { StoreConversionPicker } from './store-conversion-picker.ts';

if (!customElements.get('store-conversion-picker'))
  customElements.define('store-conversion-picker', StoreConversionPicker);

declare global {
  interface HTMLElementTagNameMap {
    'store-conversion-picker': StoreConversionPicker;
  }
}

export { StoreConversionPicker };
