/**
 * Vue 3 typings of the `store-*` elements (`store-upload-kit/vue`): importing this module (types only, nothing
 * runs) adds the elements to Vue's `GlobalComponents`, so templates type-check their properties and `@store-*`
 * events under vue-tsc / Volar. The elements themselves are registered by importing `store-upload-kit`'s elements
 * entry; Vue must be told they are custom elements (see `README.md` here).
 */
import type { EmitFn, HTMLAttributes, PublicProps } from 'vue';
import type { StoreConversionPicker, StoreDropzone, StoreProgressList, StoreUploader } from '../elements/index.ts';
import type { StoreEventMap } from '../elements/events.ts';

/** Events of an element, by name. */
type EventMap = Record<string, Event>;

/** `$emit` typed from an event map, as Vue's template checker expects. */
type VueEmit<T extends EventMap> = EmitFn<{ [K in keyof T]: (event: T[K]) => void }>;

/**
 * A custom element as Vue's template checker sees it: the element's chosen properties as props, plus its events
 * (the pattern from Vue's "Web Components and TypeScript" guide).
 */
export type DefineCustomElement<Element extends HTMLElement, Events extends EventMap = {}, Props extends keyof Element = never> = new () => Element & {
  /** For template prop types only; do not read it on an element ref. */
  $props: HTMLAttributes & Partial<Pick<Element, Props>> & PublicProps;
  /** For template event types only; do not call it on an element ref. */
  $emit: VueEmit<Events>;
};

type Common = 'i18n' | 'colorScheme';

/** `<store-dropzone>` in Vue templates. */
export type VueStoreDropzone = DefineCustomElement<
  StoreDropzone,
  Pick<StoreEventMap, 'store-files-add' | 'store-files-reject'>,
  Common | 'accept' | 'multiple' | 'maxFileSize' | 'maxFiles' | 'disabled' | 'uploader'
>;

/** `<store-progress-list>` in Vue templates. */
export type VueStoreProgressList = DefineCustomElement<StoreProgressList, Pick<StoreEventMap, 'store-task-action'>, Common | 'uploader'>;

/** `<store-conversion-picker>` in Vue templates. */
export type VueStoreConversionPicker = DefineCustomElement<
  StoreConversionPicker,
  { change: Event },
  Common | 'mimeType' | 'value' | 'ocrLanguage' | 'name' | 'disabled' | 'baseUrl' | 'token' | 'importFormats' | 'ocrLanguages' | 'getAccessToken'
>;

/** `<store-uploader>` in Vue templates. */
export type VueStoreUploader = DefineCustomElement<
  StoreUploader,
  { change: Event } & Pick<StoreEventMap, 'store-files-add' | 'store-files-reject' | 'store-task-action' | 'store-share-complete'>,
  | Common
  | 'baseUrl'
  | 'token'
  | 'concurrency'
  | 'chunkSize'
  | 'resumableThreshold'
  | 'accept'
  | 'maxFileSize'
  | 'maxFiles'
  | 'conversion'
  | 'share'
  | 'name'
  | 'uploader'
  | 'importFormats'
  | 'getAccessToken'
  | 'shareFiles'
>;

declare module 'vue' {
  interface GlobalComponents {
    'store-dropzone': VueStoreDropzone;
    'store-progress-list': VueStoreProgressList;
    'store-conversion-picker': VueStoreConversionPicker;
    'store-uploader': VueStoreUploader;
  }
}
