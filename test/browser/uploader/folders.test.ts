// Folder trees on the service: files with relative paths land in the same tree of folders under a target, each
// folder created once (three uploads at a time, and again in a next page life), empty directories too, or all
// files directly in the target when flattening. Asserted through the service's API: names, parents, bytes.
import { expect } from '@open-wc/testing';
import { createStore, get, set, values } from 'idb-keyval';
import { FOLDER_DB } from '../../../src/uploader/index.ts';
import type { TaskSnapshot } from '../../../src/uploader/index.ts';
import {
  addFault,
  baseUrl,
  clearFaults,
  download,
  eventually,
  folderKey,
  folderTree as tree,
  newFolder as target,
  nextEvent,
  principalOf,
  sameBytes,
  storedRecords,
  testUploaders,
} from './helpers.ts';

const KiB = 1024;
/** The test token's account: remembered folders are kept per account. */
const alice = await principalOf();

// Page lives end with `destroy()`: dedicated workers, whose uploads stop with their page.
const uploader = testUploaders({
  host: 'dedicated',
  concurrency: 3,
  chunkSize: 256 * KiB,
  resumableThreshold: 600 * KiB,
  backoff: { baseMs: 20, capMs: 200 },
});

/** A file of random bytes at `path` in a dropped folder. */
function picked(path: string, size: number): { file: File; path: string } {
  const bytes = new Uint8Array(size);
  for (let at = 0; at < size; at += 65536) crypto.getRandomValues(bytes.subarray(at, Math.min(size, at + 65536)));
  const name = path.split('/').pop()!;
  return {
    file: new File([bytes], name, { type: 'application/octet-stream', lastModified: 1_700_000_000_000 + size }),
    path,
  };
}

/** Checks the stored bytes of every file against what was sent. */
async function expectBytes(ids: Map<string, string>, files: { file: File; path: string }[]): Promise<void> {
  for (const { file, path } of files)
    expect(await sameBytes(file, await download(baseUrl, ids.get(path)!)), path).to.equal(true);
}

/** The folder records kept in IndexedDB. */
function folderRecords(): Promise<{ key: string; id: string }[]> {
  return values(createStore(FOLDER_DB, 'folders'));
}

/** A unique top folder name: file names alone must not match an earlier test's sessions. */
const unique = () => `top-${crypto.randomUUID().slice(0, 8)}`;

describe('folder trees', () => {
  it('uploads a dropped tree with nested and empty folders into the target, three at a time, each folder once', async () => {
    const root = await target(baseUrl);
    const top = unique();
    const files = [
      picked(`${top}/a.txt`, 10 * KiB),
      picked(`${top}/sub/b.bin`, 300 * KiB),
      picked(`${top}/sub/deep/c.bin`, 40 * KiB),
      picked(`${top}/sub/deep/d.bin`, 50 * KiB),
      picked(`${top}/sub/deep/big.bin`, 1200 * KiB),
      picked(`${top}/other/e.bin`, 20 * KiB),
      picked('loose.bin', 5 * KiB),
    ];
    const u = uploader({ parentId: root });
    let running = 0;
    let most = 0;
    u.addEventListener('change', (event) => {
      running = event.detail.tasks.filter((t) => t.state === 'uploading').length;
      most = Math.max(most, running);
    });
    const empty = Promise.all([u.addFolder(`${top}/empty`), u.addFolder(`${top}/sub/empty-too`)]);
    const tasks = files.map(({ file, path }) => u.add(file, { relativePath: path }));
    const stored = await Promise.all(tasks.map((t) => t.done));
    const [emptyId, emptyTooId] = await empty;

    const { paths, ids } = await tree(baseUrl, root);
    expect(paths).to.deep.equal(
      [
        'loose.bin',
        `${top}/`,
        `${top}/a.txt`,
        `${top}/empty/`,
        `${top}/other/`,
        `${top}/other/e.bin`,
        `${top}/sub/`,
        `${top}/sub/b.bin`,
        `${top}/sub/deep/`,
        `${top}/sub/deep/big.bin`,
        `${top}/sub/deep/c.bin`,
        `${top}/sub/deep/d.bin`,
        `${top}/sub/empty-too/`,
      ].sort(),
    );
    expect(most).to.equal(3);
    expect(emptyId).to.equal(ids.get(`${top}/empty/`));
    expect(emptyTooId).to.equal(ids.get(`${top}/sub/empty-too/`));
    expect(stored.map((f) => f.parents)).to.deep.equal(
      files.map(({ path }) => [path.includes('/') ? ids.get(path.slice(0, path.lastIndexOf('/') + 1)) : root]),
    );
    await expectBytes(ids, files);
    expect(tasks.map((t) => t.snapshot.relativePath)).to.deep.equal(files.map((f) => f.path));
  });

  it('flattens: every file directly in the target, and no folder made', async () => {
    const root = await target(baseUrl);
    const top = unique();
    const files = [
      picked(`${top}/x.bin`, 3 * KiB),
      picked(`${top}/sub/y.bin`, 4 * KiB),
      picked(`${top}/sub/deep/z.bin`, 700 * KiB),
    ];
    const u = uploader({ parentId: root, flatten: true });
    expect(await u.addFolder(`${top}/empty`)).to.equal(undefined);
    await Promise.all(files.map(({ file, path }) => u.add(file, { relativePath: path }).done));
    const { paths, ids } = await tree(baseUrl, root);
    expect(paths).to.deep.equal(['x.bin', 'y.bin', 'z.bin']);
    await expectBytes(
      ids,
      files.map(({ file }) => ({ file, path: file.name })),
    );
  });

  it('takes the target and flattening per file too', async () => {
    const [first, second] = [await target(baseUrl), await target(baseUrl)];
    const u = uploader({ parentId: first });
    const kept = picked('p/q/kept.bin', 2 * KiB);
    const flat = picked('p/q/flat.bin', 3 * KiB);
    const elsewhere = picked('p/moved.bin', 4 * KiB);
    await Promise.all([
      u.add(kept.file, { relativePath: kept.path }).done,
      u.add(flat.file, { relativePath: flat.path, flatten: true }).done,
      u.add(elsewhere.file, { relativePath: elsewhere.path, parentId: second }).done,
    ]);
    expect((await tree(baseUrl, first)).paths).to.deep.equal(['flat.bin', 'p/', 'p/q/', 'p/q/kept.bin']);
    expect((await tree(baseUrl, second)).paths).to.deep.equal(['p/', 'p/moved.bin']);
  });

  it('creates a folder with the remembered ID when the page went away during its create', async () => {
    const root = await target(baseUrl);
    const top = unique();
    const files = [picked(`${top}/one.bin`, 6 * KiB), picked(`${top}/inner/two.bin`, 7 * KiB)];
    // The first folder create is held by the service while the page goes: the next page life must use its ID.
    await addFault(baseUrl, {
      match: { method: 'POST', pathPrefix: '/store/v3/files' },
      action: { type: 'delay', ms: 1500 },
      times: 1,
    });
    const before = uploader({ parentId: root });
    for (const { file, path } of files) before.add(file, { relativePath: path });
    const key = folderKey(alice, root, top);
    await eventually(async () => (await folderRecords()).some((r) => r.key === key), 'the folder ID to be remembered');
    before.destroy();

    const after = uploader({ parentId: root });
    await Promise.all(files.map(({ file, path }) => after.add(file, { relativePath: path }).done));
    const { paths, ids } = await tree(baseUrl, root);
    expect(paths).to.deep.equal([`${top}/`, `${top}/inner/`, `${top}/inner/two.bin`, `${top}/one.bin`]);
    expect(ids.get(`${top}/`)).to.equal((await folderRecords()).find((r) => r.key === key)?.id);
    await expectBytes(ids, files);
  });

  it('drops folder records past their lifetime (a week unused) when it next uploads a folder, and keeps the rest', async () => {
    const folders = createStore(FOLDER_DB, 'folders');
    const week = 7 * 24 * 3600 * 1000;
    const stale = {
      key: JSON.stringify(['stale-target', unique()]),
      id: 'stale-id',
      updatedAt: Date.now() - week - 60_000,
    };
    const recent = {
      key: JSON.stringify(['recent-target', unique()]),
      id: 'recent-id',
      updatedAt: Date.now() - week + 3_600_000,
    };
    await set(stale.key, stale, folders);
    await set(recent.key, recent, folders);
    const root = await target(baseUrl);
    const top = unique();
    const u = uploader({ parentId: root });
    await u.add(picked(`${top}/a.bin`, 3 * KiB).file, { relativePath: `${top}/a.bin` }).done;
    await eventually(async () => (await get(stale.key, folders)) === undefined, 'the stale record to be dropped');
    expect(await get(recent.key, folders)).to.deep.equal(recent);
    expect((await folderRecords()).some((r) => r.key === folderKey(alice, root, top))).to.equal(true);
  });

  it('resumes a tree interrupted mid-upload in a next page life into the same folders', async () => {
    const root = await target(baseUrl);
    const top = unique();
    const files = [
      picked(`${top}/a/one.bin`, 1100 * KiB),
      picked(`${top}/a/two.bin`, 1000 * KiB),
      picked(`${top}/b/three.bin`, 900 * KiB),
      picked(`${top}/b/c/four.bin`, 800 * KiB),
      picked(`${top}/b/c/five.bin`, 30 * KiB),
      picked(`${top}/six.bin`, 20 * KiB),
    ];
    await addFault(baseUrl, {
      match: { method: 'PUT', uploadType: 'resumable' },
      action: { type: 'delay', ms: 80 },
      times: 100,
    });
    const first = uploader({ parentId: root });
    const finished = new Set<string>();
    first.addEventListener('success', (event) => finished.add(event.detail.name));
    for (const { file, path } of files) first.add(file, { relativePath: path });
    await nextEvent<TaskSnapshot>(first, 'progress', (s) => s.bytesAcknowledged >= 256 * KiB);
    first.destroy();
    const left = files.filter(({ file }) => !finished.has(file.name));
    expect(left.length).to.be.at.least(3);
    await clearFaults(baseUrl);
    // The first page life made the folders it got to; the next one sends their creates again (409) and reuses them.
    const made = await tree(baseUrl, root);
    expect(made.paths).to.include(`${top}/`);
    const remembered = new Map((await folderRecords()).map((r) => [r.key, r.id]));
    expect(made.ids.get(`${top}/`)).to.equal(remembered.get(folderKey(alice, root, top)));

    const next = uploader({ parentId: root });
    // Sessions the first page life started are resumed once its worker has let go of them.
    const started = (await storedRecords())
      .filter((r) => left.some(({ file }) => file.name === r.name))
      .map((r) => r.name);
    expect(started.length).to.be.at.least(1);
    await eventually(async () => {
      const free = (await next.interrupted()).map((x) => x.name);
      return started.every((name) => free.includes(name));
    }, 'the sessions to be free');
    const tasks = left.map(({ file, path }) => next.add(file, { relativePath: path }));
    await Promise.all(tasks.map((t) => t.done));
    const { paths, ids } = await tree(baseUrl, root);
    expect(paths).to.deep.equal(
      [
        `${top}/`,
        `${top}/a/`,
        `${top}/a/one.bin`,
        `${top}/a/two.bin`,
        `${top}/b/`,
        `${top}/b/c/`,
        `${top}/b/c/five.bin`,
        `${top}/b/c/four.bin`,
        `${top}/b/three.bin`,
        `${top}/six.bin`,
      ].sort(),
    );
    await expectBytes(ids, files);
    expect(ids.get(`${top}/`)).to.equal(made.ids.get(`${top}/`));
    expect(tasks.some((t) => t.snapshot.strategy === 'resumable' && started.includes(t.snapshot.name))).to.equal(true);
  });
});
