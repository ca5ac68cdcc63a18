/**
 * Entry of the self-contained browser bundle (`dist/browser/store-upload-kit.js`): the whole public API, and the
 * `store-*` elements defined, for a page that loads one `<script type="module">` and has no bundler.
 */
export * from './index.ts';
export * from './elements/index.ts';
