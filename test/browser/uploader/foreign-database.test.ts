// The kit's session database opened first by someone else — a page script or a test reading it before any uploader
// ran — exists without the kit's object store. idb-keyval's own `createStore` would then fail every session write,
// and an upload interrupted by a reload could not resume. The kit adds its store in an upgrade instead. Its own
// file: the database must not exist yet when it starts (web-test-runner runs one file at a time, in a new page).
import { expect } from '@open-wc/testing';
import { createUploader } from '../../../src/uploader/index.ts';
import type { TaskSnapshot } from '../../../src/uploader/index.ts';
import { nextEvent, randomFile, serviceUrl, storedRecords, TOKEN } from './helpers.ts';

const KiB = 1024;

function request<T>(make: () => IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    const r = make();
    r.onsuccess = () => resolve(r.result);
    r.onerror = () => reject(r.error ?? new Error('IndexedDB request failed'));
  });
}

describe('a session database someone else opened first', () => {
  it('still keeps upload sessions: the kit adds its object store', async () => {
    await request(() => indexedDB.deleteDatabase('store-upload-kit'));
    // What a page's own look at the database does when it does not exist: creates it, empty, at version 1.
    const empty = await request(() => indexedDB.open('store-upload-kit'));
    expect([...empty.objectStoreNames]).to.deep.equal([]);
    empty.close();

    const u = createUploader({
      baseUrl: await serviceUrl(),
      getAccessToken: () => TOKEN,
      chunkSize: 256 * KiB,
      resumableThreshold: 0,
    });
    try {
      const file = randomFile(2 * 1024 * KiB);
      u.add(file);
      await nextEvent<TaskSnapshot>(u, 'progress', (s) => s.bytesAcknowledged >= 256 * KiB);
      const records = await storedRecords();
      expect(records.map((r) => r.name)).to.include(file.name);
    } finally {
      u.destroy();
    }
  });
});
