// The Vue composables and the Svelte store in Chromium against the real service (issue 31): a component's own list
// and dropzone upload byte-identical, an unmount mid-upload cancels nothing and a remount shows the upload at once;
// the Svelte store keeps Svelte's store contract (`derived`, `get`) over the same shared uploader.
import { expect } from '@open-wc/testing';
import { createApp, defineComponent, h, type App } from 'vue';
import { derived, get } from 'svelte/store';
import { useDropzone, useUploader, useUploads } from '../../../src/vue/composables.ts';
import { uploads } from '../../../src/svelte/store.ts';
import type { CreateUploaderOptions } from '../../../src/uploader/index.ts';
import { baseUrl, download, eventually, randomFile, sameBytes, TOKEN } from '../uploader/helpers.ts';
import { freshOptions, MiB, slowPuts, snapshotWhere, testStores } from './helpers.ts';

const store = testStores();
let app: App | undefined;
let host: HTMLElement;
beforeEach(() => {
  host = document.createElement('div');
  document.body.append(host);
});
afterEach(() => {
  app?.unmount();
  app = undefined;
  host.remove();
});

/** An app's own upload UI in Vue: a dropzone and a list, with a new token getter on each setup. */
function uploadUi(options: CreateUploaderOptions) {
  return defineComponent({
    setup() {
      useUploader({ ...options, getAccessToken: () => TOKEN });
      const list = useUploads();
      const zone = useDropzone();
      return () =>
        h('div', [
          h(
            'section',
            {
              class: 'zone',
              role: 'button',
              tabindex: 0,
              'data-dragging': String(zone.isDragging.value),
              ...on(zone.on),
            },
            'Drop',
          ),
          h(
            'ul',
            list.value.tasks.map((t) => h('li', { key: t.id, 'data-name': t.name, 'data-state': t.state }, t.name)),
          ),
        ]);
    },
  });
}

/** `v-on="handlers"` for a render function: `{ dragenter }` → `{ onDragenter }`. */
function on(handlers: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(handlers).map(([k, v]) => [`on${k[0].toUpperCase()}${k.slice(1)}`, v]));
}

const rowOf = (name: string) => host.querySelector<HTMLElement>(`li[data-name="${name}"]`);

describe('Vue composables', () => {
  it('a drop on the component’s own element uploads byte-identical; unmounting mid-upload cancels nothing', async () => {
    await slowPuts(80);
    const options = freshOptions();
    const s = store(options);
    app = createApp(uploadUi(options));
    app.mount(host);
    const file = randomFile(2 * MiB);
    const data = new DataTransfer();
    data.items.add(file);
    const zone = host.querySelector<HTMLElement>('.zone')!;
    zone.dispatchEvent(new DragEvent('dragenter', { dataTransfer: data, bubbles: true, cancelable: true }));
    await eventually(() => zone.dataset.dragging === 'true', 'the drag state');
    zone.dispatchEvent(new DragEvent('drop', { dataTransfer: data, bubbles: true, cancelable: true }));
    await eventually(() => rowOf(file.name)?.dataset.state === 'uploading', 'uploading');
    app.unmount();
    app = undefined;
    const done = await snapshotWhere(s, (x) => x.tasks[0]?.state === 'done');
    const task = done.tasks[0];
    if (task.state !== 'done') throw new Error('not done');
    expect(await sameBytes(file, await download(baseUrl, task.file.id))).to.equal(true);
    app = createApp(uploadUi(options));
    app.mount(host);
    // The first render after mount already lists it (the store refreshes as the component subscribes).
    await eventually(() => rowOf(file.name)?.dataset.state === 'done', 'the finished upload shown again');
    expect(s.getSnapshot().tasks.length).to.equal(1);
  });
});

describe('Svelte store', () => {
  it('keeps Svelte’s store contract over the shared uploader', async () => {
    const options = freshOptions();
    const s = store(options);
    const readable = uploads({ ...options, getAccessToken: () => TOKEN });
    expect(readable.store).to.equal(s);
    const names = derived(readable, (u) => u.tasks.map((t) => `${t.name}:${t.state}`));
    const seen: string[][] = [];
    const stop = names.subscribe((v) => seen.push(v));
    const file = randomFile(100 * 1024);
    const [task] = readable.store.add(file);
    await task.done;
    await eventually(() => seen.at(-1)?.[0] === `${file.name}:done`, 'the derived store done');
    expect(get(readable).tasks[0].state).to.equal('done');
    stop();
  });
});
