/** Registers `<store-progress-list>`. */
import { StoreProgressList } from './store-progress-list.ts';

if (!customElements.get('store-progress-list')) customElements.define('store-progress-list', StoreProgressList);

declare global {
  interface HTMLElementTagNameMap {
    'store-progress-list': StoreProgressList;
  }
}

export { StoreProgressList };
