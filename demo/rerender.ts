/**
 * Asks every `store-*` element under a node (inside shadow roots too) to render again. The elements read their
 * language from the nearest `lang` attribute when they render, and a `lang` change is not a property change, so a
 * page that switches language live has to ask.
 */
import type { ReactiveElement } from 'lit';

/** Requests an update of each `store-*` element in `root`'s tree, shadow trees included. */
export function rerenderStoreElements(root: Element | ShadowRoot): void {
  for (const el of root.querySelectorAll('*')) {
    if (el.localName.startsWith('store-') && 'requestUpdate' in el) (el as ReactiveElement).requestUpdate();
    if (el.shadowRoot) rerenderStoreElements(el.shadowRoot);
  }
}
