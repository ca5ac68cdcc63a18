// The kit's browser adapters, each over the real browser API it wraps: session records in IndexedDB
// (adapters/idb-session-store.ts), locks over Web Locks (adapters/web-locks.ts), HTTP over XMLHttpRequest
// (adapters/xhr-http.ts), and an app's worker that does not load (page/start-host.ts). Node has none of these APIs.
import { expect } from '@open-wc/testing';
import { IdbSessionStore } from '../../../src/uploader/adapters/idb-session-store.ts';
import { webLocks } from '../../../src/uploader/adapters/web-locks.ts';
import { xhrHttp } from '../../../src/uploader/adapters/xhr-http.ts';
import type { SessionRecord } from '../../../src/uploader/contract/ports.ts';
import { createUploader, UploadError } from '../../../src/uploader/index.ts';
import { baseUrl, storedRecords, TOKEN } from './helpers.ts';

function record(id: string, name: string): SessionRecord {
  return {
    id,
    sessionUri: `${baseUrl}/upload/store/v3/files?uploadType=resumable&upload_id=${id}`,
    fingerprint: `${name}:10:1700000000000:text/plain`,
    name,
    type: 'text/plain',
    total: 10,
    metadata: { name },
    acknowledged: 0,
    hashedTo: 0,
    createdAt: 1_700_000_000_000,
    updatedAt: 1_700_000_000_000,
  };
}

describe('IdbSessionStore', () => {
  it('keeps a record put, with its small file copy, for get, list and the database itself', async () => {
    const store = new IdbSessionStore();
    const id = crypto.randomUUID();
    const name = `kept-${id}.txt`;
    const file = new Blob(['ten bytes!'], { type: 'text/plain' });
    await store.put({ ...record(id, name), file });
    try {
      const got = await store.get(id);
      expect(got?.name).to.equal(name);
      expect(await got?.file?.text()).to.equal('ten bytes!');
      expect((await store.list()).map((r) => r.id)).to.include(id);
      expect((await storedRecords()).find((r) => r.id === id)?.name).to.equal(name);
    } finally {
      await store.delete(id);
    }
    expect(await store.get(id)).to.equal(undefined);
  });
});

describe('webLocks', () => {
  it('tryAcquire takes a free lock, answers undefined while it is held, and takes it again once released', async () => {
    const locks = webLocks(navigator.locks);
    const key = `test-lock-${crypto.randomUUID()}`;
    const release = await locks.tryAcquire(key);
    expect(typeof release).to.equal('function');
    expect([...(await locks.held())]).to.include(key);
    const meanwhile = await locks.tryAcquire(key);
    meanwhile?.();
    expect(typeof meanwhile, 'held: not available').to.equal('undefined');
    release!();
    await navigator.locks.request(key, () => undefined); // the release reaches the browser's lock manager
    const again = await locks.tryAcquire(key);
    expect(typeof again, 'released: free again').to.equal('function');
    again!();
  });
});

describe('xhrHttp', () => {
  it('a request that gets no answer rejects naming its method and URL', async () => {
    // Nothing listens on port 9 (discard) of the loopback; Chromium refuses the port outright: a network error.
    const url = 'http://127.0.0.1:9/nowhere';
    let error: unknown;
    try {
      await xhrHttp.send({ method: 'PUT', url, headers: {} }, { signal: new AbortController().signal });
    } catch (e) {
      error = e;
    }
    expect(error).to.be.instanceOf(Error);
    expect((error as Error).message).to.equal(`network error on PUT ${url}`);
  });
});

describe('an app worker that does not load', () => {
  it('fails the tasks added meanwhile, saying its script failed to load', async () => {
    const worker = new Worker(new URL(`/no-such-worker-${crypto.randomUUID()}.js`, location.href), { type: 'module' });
    const u = createUploader({ baseUrl, getAccessToken: () => TOKEN, worker });
    try {
      const task = u.add(new File(['never sent'], 'never-sent.txt', { type: 'text/plain' }));
      let error: unknown;
      try {
        await task.done;
      } catch (e) {
        error = e;
      }
      expect(error).to.be.instanceOf(UploadError);
      expect((error as UploadError).message).to.equal('the upload worker did not start: worker script failed to load');
    } finally {
      u.destroy();
    }
  });
});
