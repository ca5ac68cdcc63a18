/**
 * Svelte 5 typings for the `store-*` elements (`store-upload-kit/svelte`, types only): importing this module adds
 * the elements to `svelte/elements`, so svelte-check types their properties and their events as `on…` attributes
 * (`onstore-files-reject={(event) => event.detail.files}`, `onchange={(event) => event.currentTarget.value}`).
 * The elements themselves are registered by importing `store-upload-kit/elements`.
 */
import type { HTMLAttributes } from 'svelte/elements';
import type { StoreElementEvents, StoreElementProperties, StoreEventMap } from '../elements/index.ts';

/** Svelte's `on…` attribute for each of the element's `store-*` events, with the element as `currentTarget`. */
type EventAttributes<Element extends HTMLElement, Names extends keyof StoreEventMap> = {
  [Name in Names as `on${Name}`]?: (event: StoreEventMap[Name] & { currentTarget: EventTarget & Element }) => void;
};

/** A `store-*` element in Svelte markup: the DOM's attributes, its settable properties and its events. */
export type SvelteStoreElement<Tag extends keyof StoreElementProperties> = HTMLAttributes<HTMLElementTagNameMap[Tag]> &
  Partial<StoreElementProperties[Tag]> &
  EventAttributes<HTMLElementTagNameMap[Tag], StoreElementEvents[Tag]>;

declare module 'svelte/elements' {
  interface SvelteHTMLElements {
    'store-dropzone': SvelteStoreElement<'store-dropzone'>;
    'store-progress-list': SvelteStoreElement<'store-progress-list'>;
    'store-conversion-picker': SvelteStoreElement<'store-conversion-picker'>;
    'store-uploader': SvelteStoreElement<'store-uploader'>;
  }
}
