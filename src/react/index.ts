/**
 * React wrappers of the `store-*` elements (`store-upload-kit/react`), made with `@lit/react`: properties such as
 * `uploader`, `i18n` and `importFormats` are set as properties, and every event has a typed `on…` prop.
 */
import * as React from 'react';
import { createComponent } from '@lit/react';
import type { EventName } from '@lit/react';
import {
  StoreConversionPicker as ConversionPickerElement,
  StoreDropzone as DropzoneElement,
  StoreProgressList as ProgressListElement,
  StoreUploader as UploaderElement,
} from '../elements/index.ts';
import type { StoreEventMap } from '../elements/index.ts';

const on = <K extends keyof StoreEventMap>(name: K) => name as EventName<StoreEventMap[K]>;
/** The native `change` of an element: fired by the element itself, so its target is the element. */
export type ElementChangeEvent<E extends HTMLElement> = Event & { readonly target: E; readonly currentTarget: E };
/** `onChange` typed so `event.currentTarget.value` reads the element's value. */
const change = <E extends HTMLElement>() => 'change' as EventName<ElementChangeEvent<E>>;

/** `<store-dropzone>` for React: `onFilesAdd`, `onFilesReject`. */
export const StoreDropzone = createComponent({
  tagName: 'store-dropzone',
  elementClass: DropzoneElement,
  react: React,
  events: { onFilesAdd: on('store-files-add'), onFilesReject: on('store-files-reject') },
});

/** `<store-progress-list>` for React: `onTaskAction`. */
export const StoreProgressList = createComponent({
  tagName: 'store-progress-list',
  elementClass: ProgressListElement,
  react: React,
  events: { onTaskAction: on('store-task-action') },
});

/** `<store-conversion-picker>` for React: `onChange` (the native `change`). */
export const StoreConversionPicker = createComponent({
  tagName: 'store-conversion-picker',
  elementClass: ConversionPickerElement,
  react: React,
  events: { onChange: change<ConversionPickerElement>() },
});

/** `<store-uploader>` for React: `onChange` (uploaded IDs), `onFilesAdd`, `onFilesReject`, `onTaskAction`, `onShareComplete`. */
export const StoreUploader = createComponent({
  tagName: 'store-uploader',
  elementClass: UploaderElement,
  react: React,
  events: {
    onChange: change<UploaderElement>(),
    onFilesAdd: on('store-files-add'),
    onFilesReject: on('store-files-reject'),
    onTaskAction: on('store-task-action'),
    onShareComplete: on('store-share-complete'),
  },
});
