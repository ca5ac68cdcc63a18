// What outlives the page: file handles (from OPFS, which needs no permission prompt) and small files as Blobs kept
// in IndexedDB with their session, persistent storage asked for once, records that expire after a week without
// activity and never outlive a finished or cancelled upload. Records are read straight from IndexedDB.
import { expect } from '@open-wc/testing';
import { createStore, del, set } from 'idb-keyval';
import type { InterruptedUpload, TaskSnapshot, Uploader, UploadError } from '../../../src/uploader/index.ts';
import {
  addFault,
  baseUrl,
  clearFaults,
  download,
  eventually,
  filesNamed,
  nextEvent,
  principalOf,
  randomFile,
  sameBytes,
  storedRecords,
  testUploaders,
} from './helpers.ts';

const KiB = 1024;
const MiB = 1024 * KiB;
const DAY = 24 * 3600 * 1000;

// Page lives end with `destroy()`: dedicated workers, whose uploads stop with their page.
const uploader = testUploaders({
  host: 'dedicated',
  chunkSize: 256 * KiB,
  resumableThreshold: 0,
  backoff: { baseMs: 20, capMs: 200 },
});

/** Starts an upload, lets the service acknowledge some of it, then ends that "page life". */
async function interruptAfter(
  u: Uploader,
  file: File,
  bytes: number,
  options: Parameters<Uploader['add']>[1] = {},
): Promise<void> {
  u.add(file, options);
  await nextEvent<TaskSnapshot>(u, 'progress', (s) => s.bytesAcknowledged >= bytes);
  u.destroy();
}

/** The next page life's view of the upload, once the previous worker has let go of it. */
async function findInterrupted(u: Uploader, name: string): Promise<InterruptedUpload> {
  let found: InterruptedUpload | undefined;
  await eventually(
    async () => (found = (await u.interrupted()).find((x) => x.name === name)) !== undefined,
    `${name} to be interrupted`,
  );
  return found!;
}

describe('persistence', () => {
  // First in the file: the request is made once per page, by whichever uploader comes first.
  it('asks for persistent storage once per page', async () => {
    const storage = navigator.storage as StorageManager & { persist: () => Promise<boolean> };
    const original = storage.persist.bind(storage);
    let calls = 0;
    storage.persist = () => {
      calls++;
      return original();
    };
    try {
      uploader();
      uploader();
      uploader({ persist: { blobQuotaBytes: MiB } });
      expect(calls).to.equal(1);
    } finally {
      storage.persist = original;
    }
  });

  it('keeps an OPFS file handle with the session and resumes after a new page life without the file', async () => {
    const root = await navigator.storage.getDirectory();
    const name = `opfs-${crypto.randomUUID()}.bin`;
    const handle = await root.getFileHandle(name, { create: true });
    const writable = await handle.createWritable();
    await writable.write(randomFile(2 * MiB + 5));
    await writable.close();
    const file = await handle.getFile();
    await addFault(baseUrl, {
      match: { method: 'PUT', uploadType: 'resumable' },
      action: { type: 'delay', ms: 80 },
      times: 100,
    });
    await interruptAfter(uploader(), file, 512 * KiB, { handle });

    const [record] = (await storedRecords()).filter((r) => r.name === name);
    expect(record?.handle).to.be.instanceOf(FileSystemFileHandle);
    expect(record?.file).to.equal(undefined);
    const next = uploader();
    const found = await findInterrupted(next, name);
    expect(found.canResumeWithoutFile).to.equal(true);
    expect(found.bytesAcknowledged).to.be.at.least(512 * KiB);
    const task = await next.resumeInterrupted(found.id);
    const stored = await task.done;
    expect(await sameBytes(file, await download(baseUrl, stored.id))).to.equal(true);
    expect(await filesNamed(baseUrl, name)).to.deep.equal([{ id: stored.id }]);
    expect((await storedRecords()).filter((r) => r.name === name)).to.deep.equal([]);
    await root.removeEntry(name);
  });

  it('resumeAllInterrupted resumes kept handles and copies, reports a rewritten file as changed and one without either as needing its file', async () => {
    const root = await navigator.storage.getDirectory();
    const opfs = async (name: string, bytes: Blob) => {
      const handle = await root.getFileHandle(name, { create: true });
      const writable = await handle.createWritable();
      await writable.write(bytes);
      await writable.close();
      return handle;
    };
    const tag = crypto.randomUUID();
    const kept = await opfs(`kept-${tag}.bin`, randomFile(MiB + 1));
    const rewritten = await opfs(`rewritten-${tag}.bin`, randomFile(MiB + 2));
    const copied = randomFile(MiB + 3);
    const alone = randomFile(MiB + 4);
    await addFault(baseUrl, {
      match: { method: 'PUT', uploadType: 'resumable' },
      action: { type: 'delay', ms: 80 },
      times: 200,
    });
    await interruptAfter(uploader(), await kept.getFile(), 256 * KiB, { handle: kept });
    await interruptAfter(uploader(), await rewritten.getFile(), 256 * KiB, { handle: rewritten });
    await interruptAfter(uploader(), copied, 256 * KiB);
    await interruptAfter(uploader({ persist: { blobQuotaBytes: 0 } }), alone, 256 * KiB);
    await clearFaults(baseUrl);
    // Same size, other bytes, a new date: not the file the upload began with.
    await opfs(rewritten.name, randomFile(MiB + 2));

    const next = uploader();
    const names = [kept.name, rewritten.name, copied.name, alone.name];
    await eventually(
      async () => (await next.interrupted()).filter((u) => names.includes(u.name)).length === 4,
      'four interrupted uploads',
    );
    const result = await next.resumeAllInterrupted();
    const mine = (list: { name: string }[]) =>
      list
        .map((u) => u.name)
        .filter((n) => names.includes(n))
        .sort();
    expect(mine(result.changed)).to.deep.equal([rewritten.name]);
    expect(mine(result.needFile)).to.deep.equal([alone.name]);
    expect(mine(result.resumed.map((t) => t.snapshot))).to.deep.equal([copied.name, kept.name].sort());
    for (const task of result.resumed.filter((t) => names.includes(t.snapshot.name))) {
      const stored = await task.done;
      const original = task.snapshot.name === kept.name ? await kept.getFile() : copied;
      expect(await sameBytes(original, await download(baseUrl, stored.id))).to.equal(true);
    }
    expect(mine(await next.interrupted())).to.deep.equal([alone.name, rewritten.name].sort());
    for (const u of await next.interrupted()) if (names.includes(u.name)) await next.discardInterrupted(u.id);
    await root.removeEntry(kept.name);
    await root.removeEntry(rewritten.name);
  });

  it('keeps files under blobQuotaBytes as Blobs, and only those', async () => {
    await addFault(baseUrl, {
      match: { method: 'PUT', uploadType: 'resumable' },
      action: { type: 'delay', ms: 80 },
      times: 100,
    });
    const persist = { blobQuotaBytes: 2 * MiB };
    const small = randomFile(2 * MiB);
    const large = randomFile(2 * MiB + 1);
    await interruptAfter(uploader({ persist }), small, 256 * KiB);
    await interruptAfter(uploader({ persist }), large, 256 * KiB);
    const records = await storedRecords();
    expect(records.find((r) => r.name === small.name)?.file?.size).to.equal(small.size);
    expect(records.find((r) => r.name === large.name)?.file).to.equal(undefined);

    const next = uploader({ persist });
    expect((await findInterrupted(next, large.name)).canResumeWithoutFile).to.equal(false);
    const refused = await next.resumeInterrupted((await findInterrupted(next, large.name)).id).then(
      () => undefined,
      (e: UploadError) => e,
    );
    expect(refused?.code).to.equal('file-changed');
    const found = await findInterrupted(next, small.name);
    expect(found.canResumeWithoutFile).to.equal(true);
    const stored = await (await next.resumeInterrupted(found.id)).done;
    expect(await sameBytes(small, await download(baseUrl, stored.id))).to.equal(true);
    expect((await storedRecords()).some((r) => r.name === small.name)).to.equal(false);
    await next.discardInterrupted((await findInterrupted(next, large.name)).id);
    expect((await storedRecords()).some((r) => r.name === large.name)).to.equal(false);
  });

  it('keeps a copy of files up to 64 MiB by default, in its own store, and deletes it when the upload ends', async () => {
    await addFault(baseUrl, {
      match: { method: 'PUT', uploadType: 'resumable' },
      action: { type: 'delay', ms: 80 },
      times: 100,
    });
    const file = randomFile(MiB + 3);
    await interruptAfter(uploader(), file, 256 * KiB);
    const copies = async () =>
      (await (await import('idb-keyval')).keys(createStore('store-upload-kit-files', 'files'))).length;
    const [record] = (await storedRecords()).filter((r) => r.name === file.name);
    expect(record?.file?.size).to.equal(file.size);
    expect(await copies()).to.equal(1);

    const next = uploader();
    const found = await findInterrupted(next, file.name);
    expect(found.canResumeWithoutFile).to.equal(true);
    const stored = await (await next.resumeInterrupted(found.id)).done;
    expect(await sameBytes(file, await download(baseUrl, stored.id))).to.equal(true);
    expect((await storedRecords()).some((r) => r.name === file.name)).to.equal(false);
    expect(await copies()).to.equal(0);
  });

  it('leaves no record behind after a success or a cancel', async () => {
    await addFault(baseUrl, {
      match: { method: 'PUT', uploadType: 'resumable' },
      action: { type: 'delay', ms: 50 },
      times: 100,
    });
    const u = uploader();
    const done = randomFile(MiB + 1);
    const cancelled = randomFile(MiB + 2);
    const finishing = u.add(done);
    const cancelling = u.add(cancelled);
    await nextEvent<TaskSnapshot>(u, 'progress', (s) => s.name === cancelled.name && s.bytesAcknowledged >= 256 * KiB);
    const names = async () => (await storedRecords()).map((r) => r.name);
    expect(await names()).to.include.members([done.name, cancelled.name]);
    cancelling.cancel();
    expect(
      await cancelling.done.then(
        () => 'resolved',
        (e: UploadError) => e.code,
      ),
    ).to.equal('cancelled');
    await finishing.done;
    const left = await names();
    expect(left).to.not.include(done.name);
    expect(left).to.not.include(cancelled.name);
  });

  it('drops records after one week without activity', async () => {
    const db = createStore('store-upload-kit', 'sessions');
    const principal = await principalOf();
    const record = (id: string, updatedAt: number, owner: string | null = principal) => ({
      ...(owner !== null && { principal: owner }),
      id,
      sessionUri: `${baseUrl}/upload/store/v3/files?uploadType=resumable&upload_id=${id}`,
      fingerprint: JSON.stringify([id, 10, 0, '']),
      name: id,
      type: '',
      total: 10,
      metadata: {},
      acknowledged: 0,
      hashedTo: 0,
      createdAt: updatedAt,
      updatedAt,
    });
    await set('stale', record('stale', Date.now() - 7 * DAY - 60_000), db);
    await set('recent', record('recent', Date.now() - 6 * DAY), db);
    // Records from before accounts were kept (no principal) are no one's: never listed, dropped once expired.
    await set('legacy-stale', record('legacy-stale', Date.now() - 7 * DAY - 60_000, null), db);
    await set('legacy-recent', record('legacy-recent', Date.now() - 6 * DAY, null), db);
    // Another account's record is not this one's to list.
    await set('bob-recent', record('bob-recent', Date.now() - 6 * DAY, await principalOf('dev-token-bob')), db);
    const u = uploader();
    await findInterrupted(u, 'recent');
    expect((await u.interrupted()).map((x) => x.id)).to.deep.equal(['recent']);
    const kept = (await storedRecords()).map((r) => r.id);
    expect(kept).to.not.include('stale');
    expect(kept).to.not.include('legacy-stale');
    expect(kept).to.include('legacy-recent');
    expect(kept).to.include('bob-recent');
    await u.discardInterrupted('recent');
    // Another account's record cannot be discarded from here either.
    await u.discardInterrupted('bob-recent');
    expect((await storedRecords()).map((r) => r.id)).to.not.include('recent');
    expect((await storedRecords()).map((r) => r.id)).to.include('bob-recent');
    for (const id of ['legacy-recent', 'bob-recent']) await del(id, db);
  });
});
