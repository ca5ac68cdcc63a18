// The smoke pages' module script (external, so it runs under `script-src 'self'`): loads the built bundle the
// plain-page way and exposes `window.h`, which the runner calls through the browser's driver. Every call returns
// plain data; the runner polls `h.*` for states with a bounded timeout.
import * as kit from './dist/browser/store-upload-kit.js';

const params = new URLSearchParams(location.search);
const service = params.get('service');
const TOKEN = 'dev-token-alice';
const files = new Map();
const results = new Map();

/** Deterministic pseudo-random bytes (xorshift32), so a file can be rebuilt identically after a reload. */
function bytesOf(size, seed) {
  const bytes = new Uint8Array(size);
  const words = new Uint32Array(bytes.buffer, 0, size >>> 2);
  let x = seed >>> 0 || 1;
  for (let i = 0; i < words.length; i++) {
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    words[i] = x;
  }
  for (let i = words.length * 4; i < size; i++) bytes[i] = (i * 31 + seed) & 0xff;
  return bytes;
}

/** Every element's text, shadow roots included (what a user reads). */
function deepText(node) {
  let out = '';
  const walk = (n) => {
    if (n.nodeType === Node.TEXT_NODE) out += n.textContent + ' ';
    if (n.shadowRoot) walk(n.shadowRoot);
    for (const c of n.childNodes) walk(c);
  };
  walk(node);
  return out.replace(/\s+/g, ' ');
}

function record(task) {
  task.done.then(
    (file) => results.set(task.id, { ok: true, file }),
    (error) => results.set(task.id, { ok: false, code: error.code, message: String(error.message) }),
  );
}

const h = {
  ready: true,
  errors: () => window.__smokeErrors.slice(),
  userAgent: () => navigator.userAgent,
  features: () => ({
    showOpenFilePicker: 'showOpenFilePicker' in window,
    locks: 'locks' in navigator,
    storage: 'storage' in navigator,
  }),
  defined: () =>
    ['store-uploader', 'store-dropzone', 'store-progress-list', 'store-conversion-picker'].filter((n) =>
      customElements.get(n),
    ),
  makeFile(name, size, seed = 1) {
    files.set(
      name,
      new File([bytesOf(size, seed)], name, { type: 'application/octet-stream', lastModified: 1700000000000 + seed }),
    );
    return files.get(name).size;
  },
  async sha256(name) {
    const digest = await crypto.subtle.digest('SHA-256', await files.get(name).arrayBuffer());
    return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
  },
  /** `options.token`: the signed-in account's token (default Alice's); the rest are `createUploader`'s options. */
  create({ token = TOKEN, ...options } = {}) {
    h.uploader = kit.createUploader({
      baseUrl: service,
      getAccessToken: () => token,
      backoff: { baseMs: 50, capMs: 400 },
      ...options,
    });
    h.uploader.addEventListener('success', (e) => results.set(e.detail.id, { ok: true, file: e.detail.file }));
    h.uploader.addEventListener('error', (e) =>
      results.set(e.detail.id, { ok: false, code: e.detail.error?.code, message: e.detail.error?.message }),
    );
    return true;
  },
  add(name) {
    const task = h.uploader.add(files.get(name));
    h.task = task;
    record(task);
    return task.id;
  },
  /** Whether this browser lets a page keep a Blob in IndexedDB (WebKit's ephemeral sessions refuse it). */
  blobInIndexedDb() {
    return new Promise((resolve) => {
      const open = indexedDB.open('smoke-blob-probe', 1);
      open.onupgradeneeded = () => open.result.createObjectStore('s');
      open.onerror = () => resolve(false);
      open.onsuccess = () => {
        const db = open.result;
        const finish = (ok) => {
          db.close();
          resolve(ok);
        };
        try {
          const tx = db.transaction('s', 'readwrite');
          tx.objectStore('s').put(new Blob([new Uint8Array(16)]), 'k');
          tx.oncomplete = () => finish(true);
          tx.onerror = () => finish(false);
          tx.onabort = () => finish(false);
        } catch {
          finish(false);
        }
      };
    });
  },
  /** Resumes an interrupted upload with the file chosen again (what the element's "choose again" does). */
  async resumeWith(id, name) {
    const task = await h.uploader.resumeInterrupted(id, files.get(name));
    record(task);
    return task.id;
  },
  snapshot: (id) => h.uploader.task(id)?.snapshot ?? null,
  result: (id) => results.get(id) ?? null,
  results: () => [...results.values()],
  async interrupted() {
    return (await h.uploader.interrupted()).map((u) => ({
      id: u.id,
      name: u.name,
      bytesAcknowledged: u.bytesAcknowledged,
      total: u.total,
      canResumeWithoutFile: u.canResumeWithoutFile,
    }));
  },

  // <store-uploader>
  element: () => document.querySelector('store-uploader'),
  /** Creates the element: with `own`, it makes its own uploader from `base-url`; otherwise it gets `h.uploader`. */
  mount(own) {
    const el = document.createElement('store-uploader');
    if (own) {
      el.setAttribute('base-url', service);
      el.setAttribute('token', TOKEN);
    } else el.uploader = h.uploader;
    document.body.append(el);
    return true;
  },
  rendered() {
    const el = h.element();
    const root = el?.shadowRoot;
    const zone = root?.querySelector('store-dropzone');
    const list = root?.querySelector('store-progress-list');
    const box = zone?.getBoundingClientRect();
    return {
      upgraded: el instanceof customElements.get('store-uploader'),
      dropzone: Boolean(zone?.shadowRoot?.querySelector('input[type=file]')),
      list: Boolean(list?.shadowRoot),
      width: box?.width ?? 0,
      height: box?.height ?? 0,
      text: el ? deepText(el).slice(0, 400) : '',
    };
  },
  /** Sets a file on the dropzone's file input inside the shadow roots, as the browser does after a pick. */
  pickInElement(name) {
    const input = h.element().shadowRoot.querySelector('store-dropzone').shadowRoot.querySelector('input#files');
    const transfer = new DataTransfer();
    transfer.items.add(files.get(name));
    input.files = transfer.files;
    const count = input.files.length; // the dropzone empties the input once it has read it
    input.dispatchEvent(new Event('change', { bubbles: true }));
    return count;
  },
  elementState() {
    const el = h.element();
    const tasks = el.activeUploader?.snapshot?.tasks ?? [];
    return {
      value: [...(el.value ?? [])],
      tasks: tasks.map((t) => ({ name: t.name, state: t.state, error: t.error?.code ?? null, file: t.file ?? null })),
      text: deepText(el),
    };
  },
  /** The element's "interrupted" offer: names shown and which buttons each has. */
  offered() {
    const items = h.element()?.shadowRoot?.querySelectorAll('[part=interrupted] li') ?? [];
    return [...items].map((li) => ({
      id: li.dataset.id,
      text: deepText(li),
      actions: [...li.querySelectorAll('button')].map((b) => b.dataset.action),
    }));
  },
  /** Results so far, with the uploader's tasks and the element's offer: what a stuck resume is diagnosed from. */
  resumeState() {
    const tasks = h.uploader.snapshot.tasks.map((t) => ({
      id: t.id,
      state: t.state,
      bytesAcknowledged: t.bytesAcknowledged,
      inOtherTab: t.inOtherTab ?? false,
      error: t.error?.code ?? null,
    }));
    return { results: h.results(), tasks, offered: h.offered() };
  },
  /**
   * After a failed check: what the engine holds, which Web Locks are held or asked for, and whether the kit's
   * IndexedDB stores answer a read and a write, each within 2 s (a stuck upload waits on one of them).
   */
  async diag() {
    const within = (promise) =>
      // eslint-disable-next-line no-restricted-syntax -- time-wait: a diagnosis bounds each probe; it is not a synchronisation
      Promise.race([promise, new Promise((r) => setTimeout(() => r('no answer within 2 s'), 2000))]);
    const idb = (db, store, mode) =>
      new Promise((resolve) => {
        const open = indexedDB.open(db);
        open.onblocked = () => resolve('open blocked');
        open.onerror = () => resolve(`open failed: ${open.error}`);
        open.onsuccess = () => {
          try {
            const tx = open.result.transaction(store, mode);
            const request =
              mode === 'readonly' ? tx.objectStore(store).count() : tx.objectStore(store).put(1, '__diag');
            if (mode === 'readwrite') tx.objectStore(store).delete('__diag'); // the write is the probe; nothing stays
            tx.oncomplete = () => resolve(`${mode} ok (${request.result})`);
            tx.onerror = () => resolve(`${mode} failed: ${tx.error}`);
          } catch (error) {
            resolve(`${mode} threw: ${error}`);
          } finally {
            open.result.close();
          }
        };
      });
    const engine = h.uploader?.remote?.tasks
      ? await within(
          h.uploader.remote
            .tasks()
            .then((list) => list.map((t) => [t.id, t.state, t.bytesSent, t.inOtherTab ?? false]), String),
        )
      : null;
    const locks = await within(
      navigator.locks
        .query()
        .then(({ held, pending }) => ({ held: held.map((l) => l.name), pending: pending.map((l) => l.name) }), String),
    );
    return {
      host: h.uploader?.host ?? null,
      engine,
      locks,
      sessionsRead: await within(idb('store-upload-kit', 'sessions', 'readonly')),
      filesRead: await within(idb('store-upload-kit-files', 'files', 'readonly')),
      filesWrite: await within(idb('store-upload-kit-files', 'files', 'readwrite')),
    };
  },
  /** Which worker runs the engine (`uploader.host`); null until it answered. */
  host: () => h.uploader.host ?? null,
  /** Opens this page again in an iframe (a second document of the site) and makes its own uploader there. */
  async second(options = {}) {
    const frame = document.createElement('iframe');
    frame.src = location.href;
    document.body.append(frame);
    await new Promise((resolve) => frame.addEventListener('load', resolve, { once: true }));
    // eslint-disable-next-line no-restricted-syntax -- time-wait: the poll interval of a bounded wait for the frame's harness (it sends no ready event).
    for (let i = 0; i < 200 && !frame.contentWindow.h?.ready; i++) await new Promise((r) => setTimeout(r, 25));
    h.frame = frame.contentWindow.h;
    h.frame.create(options);
    return true;
  },
  /** What the second document's uploader lists. */
  secondTasks() {
    return h.frame.uploader.snapshot.tasks.map((t) => ({
      id: t.id,
      name: t.name,
      state: t.state,
      bytesSent: t.bytesSent,
      host: h.frame.uploader.host ?? null,
    }));
  },
  /** Adds a file made in this document to the second document's uploader (its account's). */
  addInSecond(name) {
    return h.frame.uploader.add(files.get(name)).id;
  },
  /** The names and states this document's uploader lists. */
  tasks() {
    return h.uploader.snapshot.tasks.map((t) => ({ id: t.id, name: t.name, state: t.state }));
  },
  cancelInSecond(id) {
    h.frame.uploader.task(id).cancel();
    return true;
  },
  clickOffered(id, action) {
    const li = [...h.element().shadowRoot.querySelectorAll('[part=interrupted] li')].find((l) => l.dataset.id === id);
    li.querySelector(`button[data-action=${action}]`).click();
    return true;
  },
};
window.h = h;
