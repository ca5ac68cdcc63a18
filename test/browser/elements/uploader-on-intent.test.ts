/// <reference types="mocha" />
// `<store-uploader base-url>` loads its uploader (the facade, comlink, the worker) when a user is about to upload —
// a pointer over it, focus inside it, a pick — or at once when uploads were left unfinished, not with the page: a
// page that shows the element and is never used loads only the elements. Its own file: once a page has loaded the
// facade, "not loaded yet" cannot be observed.
import { expect, waitUntil } from '@open-wc/testing';
import { createStore, del, set } from 'idb-keyval';
import '../../../src/elements/uploader/define.ts';
import type { StoreUploader } from '../../../src/elements/uploader/store-uploader.ts';
import { SESSION_DB, SESSION_STORE, hasStoredSessions } from '../../../src/uploader/contract/stored-sessions.ts';
import { serviceUrl, TOKEN } from '../uploader/helpers.ts';

/**
 * Counts the workers pages start from here on (the upload worker, the site's shared one or the page's own, is the
 * first thing an uploader starts).
 */
const started: string[] = [];
const RealWorker = globalThis.Worker;
globalThis.Worker = class extends RealWorker {
  constructor(url: string | URL, options?: WorkerOptions) {
    super(url, options);
    started.push(String(url));
  }
};
const RealSharedWorker = globalThis.SharedWorker;
globalThis.SharedWorker = class extends RealSharedWorker {
  constructor(url: string | URL, options?: string | WorkerOptions) {
    super(url, options);
    started.push(String(url));
  }
};

async function mount(): Promise<StoreUploader> {
  const el = document.createElement('store-uploader') as StoreUploader;
  el.baseUrl = await serviceUrl();
  el.token = TOKEN;
  document.body.append(el);
  await el.updateComplete;
  return el;
}

const sessions = () => createStore(SESSION_DB, SESSION_STORE);

describe('<store-uploader> loads its uploader on intent', () => {
  afterEach(() => {
    for (const el of document.querySelectorAll('store-uploader')) el.remove();
  });

  it('loads the uploader of the element a pointer comes over, and not of one nobody points at', async () => {
    expect(await hasStoredSessions(), 'a session was left by another test').to.equal(false);
    const idle = await mount();
    const used = await mount();
    // Both are there and usable meanwhile.
    expect(idle.shadowRoot!.querySelector('store-dropzone')).to.not.equal(null);
    expect(started, 'a worker started with the page').to.deep.equal([]);
    used.dispatchEvent(new PointerEvent('pointerenter'));
    await waitUntil(() => used.activeUploader, 'no uploader after pointerenter');
    // Had the idle element begun loading on connection, its import of the same module would have settled first and
    // its worker would have started before this one's.
    expect(started).to.have.length(1);
    expect(started[0]).to.match(/worker/);
  });

  it('starts it when focus moves inside (keyboard users), and only once', async () => {
    const before = started.length;
    const el = await mount();
    (el.shadowRoot!.querySelector('store-dropzone') as HTMLElement).focus();
    await waitUntil(() => el.activeUploader, 'no uploader after focus');
    expect(started.length - before).to.equal(1);
    const first = el.activeUploader;
    el.dispatchEvent(new PointerEvent('pointerenter'));
    // A second load would start its worker only after its import settles. A witness element loads now through the
    // same steps, begun later: once its worker is there, a second one of `el` would be too.
    const witness = await mount();
    witness.dispatchEvent(new PointerEvent('pointerenter'));
    await waitUntil(() => witness.activeUploader, 'no uploader for the witness');
    expect(started.length - before, 'workers: one for the element, one for the witness').to.equal(2);
    expect(el.activeUploader).to.equal(first);
  });

  it('gives scripts the uploader through getUploader(), loading it once, with no intent', async () => {
    const before = started.length;
    const el = await mount();
    expect(el.activeUploader === undefined || started.length > before, 'loaded before anyone asked').to.equal(true);
    const [first, second] = await Promise.all([el.getUploader(), el.getUploader()]);
    expect(first, 'no uploader').to.not.equal(undefined);
    expect(second).to.equal(first);
    expect(el.activeUploader).to.equal(first);
    expect(started.length - before).to.equal(1);
    // The snapshot is the uploader's own: a script can drive it at once.
    expect(first!.snapshot.tasks).to.deep.equal([]);
    const off = document.createElement('store-uploader') as StoreUploader;
    expect(await off.getUploader(), 'an element with no base-url has none').to.equal(undefined);
  });

  it('starts it at once when an earlier page life left an upload session', async () => {
    const before = started.length;
    const now = Date.now();
    await set(
      'left-over',
      {
        id: 'left-over',
        sessionUri: `${await serviceUrl()}/upload/files?uploadType=resumable&upload_id=gone`,
        fingerprint: 'left.bin:1000:0:',
        name: 'left.bin',
        type: 'application/octet-stream',
        total: 1000,
        metadata: { name: 'left.bin' },
        acknowledged: 0,
        hashedTo: 0,
        createdAt: now,
        updatedAt: now,
      },
      sessions(),
    );
    try {
      expect(await hasStoredSessions()).to.equal(true);
      const el = await mount();
      await waitUntil(() => started.length > before, 'no worker although a session was left');
      await waitUntil(() => el.activeUploader, 'no uploader although a session was left');
    } finally {
      await del('left-over', sessions());
    }
  });
});

describe('hasStoredSessions', () => {
  it("answers false where there is no database, and creates it with the kit's store, as the uploader would", async () => {
    const name = `never-made-${crypto.randomUUID()}`;
    expect(await hasStoredSessions(name, 'sessions')).to.equal(false);
    expect((await indexedDB.databases()).map((d) => d.name)).to.include(name);
    // idb-keyval finds its store there: no upgrade needed.
    await set('k', 1, createStore(name, 'sessions'));
    expect(await hasStoredSessions(name, 'sessions')).to.equal(true);
  });

  it('answers false for an empty store and true once it holds a record', async () => {
    const name = `sessions-${crypto.randomUUID()}`;
    const store = createStore(name, 'sessions');
    await set('x', 1, store);
    await del('x', store);
    expect(await hasStoredSessions(name, 'sessions')).to.equal(false);
    await set('y', 1, store);
    expect(await hasStoredSessions(name, 'sessions')).to.equal(true);
  });
});
