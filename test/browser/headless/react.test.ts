// The React hooks in Chromium against the real service (issue 31): StrictMode's double mount makes one uploader and
// one subscription for many components, a new token getter each render neither restarts nor duplicates an upload,
// files dropped and pasted on any element upload byte-identical, pause and resume, and an unmount mid-upload
// cancels nothing — a remount shows the upload at once.
import { expect } from '@open-wc/testing';
import { createElement as h, StrictMode, useState, type ReactNode } from 'react';
import { flushSync } from 'react-dom';
import { createRoot, type Root } from 'react-dom/client';
import { uploadStore, type UploadStore } from '../../../src/headless/index.ts';
import { UploaderProvider, useDropzone, useUploader, useUploads } from '../../../src/react/hooks.ts';
import type { CreateUploaderOptions, Uploader } from '../../../src/uploader/index.ts';
import { baseUrl, download, eventually, randomFile, sameBytes, TOKEN } from '../uploader/helpers.ts';
import { countChangeListeners, freshOptions, MiB, slowPuts, snapshotWhere, testStores } from './helpers.ts';

const store = testStores();
let root: Root | undefined;
let host: HTMLElement;
beforeEach(() => {
  host = document.createElement('div');
  document.body.append(host);
});
afterEach(() => {
  root?.unmount();
  root = undefined;
  host.remove();
});

function mount(node: ReactNode): void {
  root = createRoot(host);
  flushSync(() => root!.render(h(StrictMode, null, node)));
}

/** An app's own list: a row per task with its state, and its own pause and resume buttons. */
function List(props: { options: CreateUploaderOptions; onStore?: (s: UploadStore) => void }): ReactNode {
  // A new token getter on every render, as an inline arrow gives.
  const s = useUploader({ ...props.options, getAccessToken: () => TOKEN });
  props.onStore?.(s);
  const uploads = useUploads(s);
  return h(
    'ul',
    null,
    uploads.tasks.map((t) =>
      h(
        'li',
        { key: t.id, 'data-state': t.state, 'data-name': t.name },
        t.name,
        h('button', { className: 'pause', onClick: () => s.pause(t.id) }, 'Pause'),
        h('button', { className: 'resume', onClick: () => s.resume(t.id) }, 'Resume'),
      ),
    ),
  );
}

function Zone(): ReactNode {
  const { props, isDragging } = useDropzone();
  return h('section', { ...props, className: 'zone', 'data-dragging': String(isDragging) }, 'Drop files');
}

const rowOf = (name: string) => host.querySelector<HTMLElement>(`li[data-name="${name}"]`);

describe('React hooks', () => {
  it('StrictMode: three components with new getters each render share one uploader and one subscription', async () => {
    const options = freshOptions();
    const s = store(options);
    const listeners = countChangeListeners(s.uploader!);
    const seen = new Set<UploadStore>();
    const uploaders = new Set<Uploader | undefined>();
    const onStore = (x: UploadStore) => (seen.add(x), uploaders.add(x.uploader));
    mount([
      h(List, { key: 1, options, onStore }),
      h(List, { key: 2, options, onStore }),
      h(List, { key: 3, options, onStore }),
    ]);
    expect(seen.size).to.equal(1);
    expect([...seen][0]).to.equal(s);
    expect(uploaders.size).to.equal(1);
    expect(listeners()).to.equal(1);
    // Re-rendering with new getters starts nothing new; an upload shows once in each list.
    const file = randomFile(300 * 1024);
    const [task] = s.add(file);
    await task.done;
    await eventually(
      () => host.querySelectorAll(`li[data-name="${file.name}"][data-state="done"]`).length === 3,
      'three rows done',
    );
    expect(s.getSnapshot().tasks.length).to.equal(1);
    expect(listeners()).to.equal(1);
    root!.unmount();
    root = undefined;
    expect(listeners()).to.equal(0);
  });

  it('a drop and a paste on any element upload byte-identical; the app’s own buttons pause and resume', async () => {
    await slowPuts(80);
    const options = freshOptions();
    const s = store(options);
    mount(h(UploaderProvider, { store: s }, h(Zone), h(List, { options })));
    const zone = host.querySelector<HTMLElement>('.zone')!;
    const dropped = randomFile(3 * MiB);
    const data = new DataTransfer();
    data.items.add(dropped);
    zone.dispatchEvent(new DragEvent('dragenter', { dataTransfer: data, bubbles: true, cancelable: true }));
    await eventually(() => zone.dataset.dragging === 'true', 'the drag state');
    zone.dispatchEvent(new DragEvent('drop', { dataTransfer: data, bubbles: true, cancelable: true }));
    await eventually(
      () => zone.dataset.dragging === 'false' && rowOf(dropped.name)?.dataset.state === 'uploading',
      'the dropped file uploading',
    );
    rowOf(dropped.name)!.querySelector<HTMLButtonElement>('.pause')!.click();
    await eventually(() => rowOf(dropped.name)?.dataset.state === 'paused', 'paused');
    const pausedAt = (await snapshotWhere(s, (x) => x.tasks[0]?.state === 'paused')).tasks[0].bytesAcknowledged;
    expect(pausedAt).to.be.lessThan(dropped.size);
    rowOf(dropped.name)!.querySelector<HTMLButtonElement>('.resume')!.click();
    await eventually(() => rowOf(dropped.name)?.dataset.state === 'done', 'done after resume', 60_000);

    const pasted = randomFile(200 * 1024);
    const clip = new DataTransfer();
    clip.items.add(pasted);
    zone.dispatchEvent(new ClipboardEvent('paste', { clipboardData: clip, bubbles: true, cancelable: true }));
    await eventually(() => rowOf(pasted.name)?.dataset.state === 'done', 'the pasted file done');

    for (const file of [dropped, pasted]) {
      const task = s.getSnapshot().tasks.find((t) => t.name === file.name)!;
      expect(task.state).to.equal('done');
      if (task.state === 'done') expect(await sameBytes(file, await download(baseUrl, task.file.id))).to.equal(true);
    }
  });

  it('a click on a button inside the dropzone is the button’s: only a click on the zone opens the file dialog', () => {
    // The dialog is the File System Access picker where there is one (Chromium: counted, and closed by the user at
    // once), else a file input's click (pickFiles: counted, and let go on to the browser as it would).
    const dialogs: unknown[] = [];
    const click = Object.getOwnPropertyDescriptor(HTMLElement.prototype, 'click')!;
    Object.defineProperty(HTMLInputElement.prototype, 'click', {
      configurable: true,
      value(this: HTMLInputElement) {
        if (this.type === 'file') dialogs.push(this);
        (click.value as () => void).call(this);
      },
    });
    const picker = Object.getOwnPropertyDescriptor(window, 'showOpenFilePicker');
    Object.defineProperty(window, 'showOpenFilePicker', {
      configurable: true,
      value: (options: unknown) => {
        dialogs.push(options);
        return Promise.reject(new DOMException('The user aborted a request.', 'AbortError'));
      },
    });
    try {
      const s = store(freshOptions());
      function ZoneWithButton(): ReactNode {
        const { props } = useDropzone({ store: s });
        return h(
          'section',
          { ...props, className: 'zone' },
          h('span', { className: 'text' }, 'Drop'),
          h('button', { className: 'inner' }, 'Pause'),
        );
      }
      mount(h(ZoneWithButton));
      host.querySelector<HTMLButtonElement>('.inner')!.click();
      expect(dialogs.length).to.equal(0);
      host.querySelector<HTMLElement>('.zone .text')!.click();
      expect(dialogs.length).to.equal(1);
    } finally {
      delete (HTMLInputElement.prototype as { click?: unknown }).click;
      if (picker) Object.defineProperty(window, 'showOpenFilePicker', picker);
    }
  });

  it('an unmount mid-upload cancels nothing; a remount shows the upload in its first commit', async () => {
    await slowPuts(80);
    const options = freshOptions();
    const s = store(options);
    mount(h(List, { options }));
    const file = randomFile(2 * MiB);
    const [task] = s.add(file);
    await eventually(() => rowOf(file.name)?.dataset.state === 'uploading', 'uploading');
    root!.unmount();
    root = createRoot(host);
    expect(rowOf(file.name)).to.equal(null);
    const stored = await task.done;
    expect(await sameBytes(file, await download(baseUrl, stored.id))).to.equal(true);
    flushSync(() => root!.render(h(StrictMode, null, h(List, { options }))));
    expect(rowOf(file.name)?.dataset.state).to.equal('done');
  });

  it('a page that mounts while the shared engine runs an upload shows it', async () => {
    await slowPuts(80);
    const options = freshOptions();
    // Another page of the site, as far as the engine goes: an uploader of its own with the same options.
    const other = uploadStore({ ...options, concurrency: 1 });
    try {
      const file = randomFile(2 * MiB);
      const [running] = other.add(file);
      await snapshotWhere(other, (x) => (x.tasks[0]?.bytesSent ?? 0) > 0);
      function Page(): ReactNode {
        const [shown] = useState(() => ({ ...options, concurrency: 1 }));
        return h(List, { options: shown });
      }
      // Same options: the store exists; a store of options the engine shares with it sees the same task.
      mount(h(Page));
      await eventually(() => rowOf(file.name) !== null, 'the running upload listed');
      await running.done;
      await eventually(() => rowOf(file.name)?.dataset.state === 'done', 'done');
    } finally {
      other.destroy();
    }
  });
});
