/**
 * Vue 3 support for the `store-*` elements (`store-upload-kit/vue`): `isStoreElement` for Vue's compiler, and
 * typings — importing this module adds the elements to Vue's `GlobalComponents`, so templates type-check their
 * properties and `@store-*` events (and `$event.target` of `change`) under vue-tsc / Volar. The elements themselves are registered by importing `store-upload-kit`'s elements
 * entry; Vue must be told they are custom elements (see `README.md` here).
 */
import type { EmitFn, HTMLAttributes, PublicProps } from 'vue';
import type {
  StoreConversionPicker,
  StoreElementEvents,
  StoreElementProperties,
  StoreEventMap,
  StoreUploader,
} from '../elements/index.ts';

/**
 * For Vue's `compilerOptions.isCustomElement`: the kit's tags are custom elements, not Vue components.
 * `vue({ template: { compilerOptions: { isCustomElement: isStoreElement } } })`.
 */
export const isStoreElement = (tag: string): boolean => tag.startsWith('store-');

/** The native `change` of an element: fired by the element itself, so `$event.target.value` is its value. */
export type ElementChangeEvent<E extends HTMLElement> = Event & { readonly target: E; readonly currentTarget: E };

/** Events of an element, by name. */
type EventMap = Record<string, Event>;

/**
 * Vue's checker reads `@change` from the `onChange` prop before `$emit`, and `HTMLAttributes` types it with a plain
 * `Event`: an element that fires its own `change` gets it typed with the element as target instead.
 */
type ChangeProp<T extends EventMap> = T extends { change: infer C }
  ? { onChange?: (event: C) => void }
  : Pick<HTMLAttributes, 'onChange'>;

/** `$emit` typed from an event map, as Vue's template checker expects. */
type VueEmit<T extends EventMap> = EmitFn<{ [K in keyof T]: (event: T[K]) => void }>;

/**
 * A custom element as Vue's template checker sees it: the element's chosen properties as props, plus its events
 * (the pattern from Vue's "Web Components and TypeScript" guide).
 */
export type DefineCustomElement<
  Element extends HTMLElement,
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- the default is an element with no events: an empty event map.
  Events extends EventMap = {},
  Props extends keyof Element = never,
> = new () => Element & {
  /** For template prop types only; do not read it on an element ref. */
  $props: Omit<HTMLAttributes, 'onChange'> & ChangeProp<Events> & Partial<Pick<Element, Props>> & PublicProps;
  /** For template event types only; do not call it on an element ref. */
  $emit: VueEmit<Events>;
};

/** A `store-*` element in Vue templates: its settable properties and the events it fires. */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- the default is an element with no events: an empty event map.
type VueStoreElement<Tag extends keyof StoreElementProperties, Events extends EventMap = {}> = DefineCustomElement<
  HTMLElementTagNameMap[Tag],
  Events & Pick<StoreEventMap, StoreElementEvents[Tag]>,
  Extract<keyof StoreElementProperties[Tag], keyof HTMLElementTagNameMap[Tag]>
>;

/** `<store-dropzone>` in Vue templates. */
export type VueStoreDropzone = VueStoreElement<'store-dropzone'>;

/** `<store-progress-list>` in Vue templates. */
export type VueStoreProgressList = VueStoreElement<'store-progress-list'>;

/** `<store-conversion-picker>` in Vue templates. */
export type VueStoreConversionPicker = VueStoreElement<
  'store-conversion-picker',
  { change: ElementChangeEvent<StoreConversionPicker> }
>;

/** `<store-uploader>` in Vue templates. */
export type VueStoreUploader = VueStoreElement<'store-uploader', { change: ElementChangeEvent<StoreUploader> }>;

declare module 'vue' {
  interface GlobalComponents {
    'store-dropzone': VueStoreDropzone;
    'store-progress-list': VueStoreProgressList;
    'store-conversion-picker': VueStoreConversionPicker;
    'store-uploader': VueStoreUploader;
  }
}
