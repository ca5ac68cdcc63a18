// Server rendering of the headless bindings (issue 31): no `window`, so the store gives the one empty snapshot, the
// same object on every call and render, and never creates an uploader; the React and Vue renders are the empty
// state, identical from render to render (what the browser then hydrates against).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createElement, StrictMode } from 'react';
import { renderToString } from 'react-dom/server';
import { createSSRApp, defineComponent, h } from 'vue';
import { renderToString as renderVue } from 'vue/server-renderer';
import { Injector, runInInjectionContext } from '@angular/core';
import { EMPTY_UPLOADS, optionsKey, uploadStore } from '../../src/headless/index.ts';
import { useUploader, useUploads } from '../../src/react/hooks.ts';
import { useUploader as useVueUploader, useUploads as useVueUploads } from '../../src/vue/composables.ts';
import { uploads } from '../../src/svelte/store.ts';
import { injectUploader, injectUploads, provideUploader } from '../../src/angular/index.ts';

const options = { baseUrl: 'http://127.0.0.1:1', getAccessToken: () => 'token' };

test('on the server the store gives the empty snapshot, stays empty when subscribed and creates no uploader', () => {
  assert.equal(typeof window, 'undefined');
  const store = uploadStore(options);
  assert.equal(store.getSnapshot(), EMPTY_UPLOADS);
  assert.equal(store.getServerSnapshot(), EMPTY_UPLOADS);
  const stop = store.subscribe(() => assert.fail('nothing changes on the server'));
  assert.equal(store.uploader, undefined);
  assert.deepEqual(store.add(new Blob(['x'])), []);
  assert.equal(store.getSnapshot(), EMPTY_UPLOADS);
  stop();
  // Each server call gets a store of its own: no request sees another's token getter or state.
  assert.notEqual(uploadStore(options), store);
});

test('the options key leaves functions out and tells accounts, share keys and settings apart', () => {
  const key = optionsKey(options);
  assert.equal(optionsKey({ ...options, getAccessToken: () => 'another' }), key);
  assert.equal(optionsKey({ getAccessToken: () => 'x', baseUrl: options.baseUrl }), key);
  assert.notEqual(optionsKey({ ...options, shareKey: 'alice' }), key);
  assert.notEqual(optionsKey({ ...options, shareKey: 'alice' }), optionsKey({ ...options, shareKey: 'bob' }));
  assert.notEqual(optionsKey({ ...options, concurrency: 2 }), key);
  assert.equal(
    optionsKey({ ...options, backoff: { capMs: 1, baseMs: 2 } }),
    optionsKey({ ...options, backoff: { baseMs: 2, capMs: 1 } }),
  );
});

test('React: useUploads renders the empty state on the server, the same from render to render (StrictMode too)', () => {
  let seen: unknown;
  function List() {
    const store = useUploader(options);
    const uploads = useUploads(store);
    seen = uploads;
    return createElement(
      'ul',
      { 'data-count': uploads.tasks.length },
      ...uploads.tasks.map((t) => createElement('li', { key: t.id }, t.name)),
    );
  }
  const first = renderToString(createElement(StrictMode, null, createElement(List)));
  const second = renderToString(createElement(StrictMode, null, createElement(List)));
  assert.equal(first, '<ul data-count="0"></ul>');
  assert.equal(second, first);
  assert.equal(seen, EMPTY_UPLOADS);
});

test('Vue: useUploads renders the empty state on the server (Nuxt), the same from render to render', async () => {
  const List = defineComponent({
    setup() {
      useVueUploader(options);
      const uploads = useVueUploads();
      return () =>
        h(
          'ul',
          { 'data-count': uploads.value.tasks.length },
          uploads.value.tasks.map((t) => h('li', t.name)),
        );
    },
  });
  const first = await renderVue(createSSRApp(List));
  assert.equal(first, '<ul data-count="0"></ul>');
  assert.equal(await renderVue(createSSRApp(List)), first);
});

test('Svelte: the readable store gives the empty snapshot at once on the server', () => {
  const values: unknown[] = [];
  const stop = uploads(options).subscribe((v) => values.push(v));
  stop();
  assert.ok(values.length >= 1);
  assert.ok(values.every((v) => v === EMPTY_UPLOADS));
});

test('Angular: injectUploads is a signal of the empty snapshot on the server, and no uploader is made', () => {
  const injector = Injector.create({ providers: [provideUploader(options)] });
  const [signal, store] = runInInjectionContext(injector, () => [injectUploads(), injectUploader()] as const);
  assert.equal(signal(), EMPTY_UPLOADS);
  assert.equal(store.uploader, undefined);
});
