// The kit's Svelte typings: `<store-*>` properties and `on…` event attributes checked by svelte-check.
import type {} from 'store-upload-kit/svelte';
