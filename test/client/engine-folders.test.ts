// Folder trees in Node against the real service: a folder create whose answer is lost is repeated with the same
// pre-generated ID (409) and reused; two engines sharing one session store and one lock space (two tabs) make each
// folder once; `addFolder` makes a path of empty folders.
import assert from 'node:assert/strict';
import { getEventListeners } from 'node:events';
import { after, before, describe, test } from 'node:test';
import { startService, type ServiceHandle } from '../server/helpers/service.ts';
import { MemoryLocks } from '../../src/uploader/adapters/memory-locks.ts';
import { MemorySessionStore } from '../../src/uploader/adapters/memory-session-store.ts';
import type { FolderRecord } from '../../src/uploader/contract/ports.ts';
import { placeFile } from '../../src/uploader/engine/place-file.ts';
import { download, harness, randomFile, TOKEN } from './helpers/engine-harness.ts';
import { startFaultProxy } from './helpers/fault-proxy.ts';

const FOLDER = 'application/vnd.svc-apps.folder';

/** One store two engines share, as two tabs share IndexedDB: the memory store plus the optional folder records. */
class SharedStore extends MemorySessionStore {
  readonly folders = new Map<string, FolderRecord>();
  async getFolder(key: string): Promise<FolderRecord | undefined> {
    return this.folders.get(key);
  }
  async putFolder(record: FolderRecord): Promise<void> {
    this.folders.set(record.key, record);
  }
}

let service: ServiceHandle;
before(async () => {
  service = await startService();
});
after(async () => {
  await service.stop();
});

async function api<T>(path: string, init: RequestInit = {}): Promise<T> {
  const res = await fetch(service.url + path, {
    ...init,
    headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
  });
  if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

async function newFolder(): Promise<string> {
  return (
    await api<{ id: string }>('/store/v3/files', {
      method: 'POST',
      body: JSON.stringify({ name: `t-${crypto.randomUUID()}`, mimeType: FOLDER }),
    })
  ).id;
}

/** Paths under a folder, folders ending in `/`, sorted; a twin folder shows up twice. */
async function tree(folderId: string, prefix = ''): Promise<string[]> {
  const q = encodeURIComponent(`'${folderId}' in parents`);
  const { files } = await api<{ files: { id: string; name: string; mimeType: string }[] }>(
    `/store/v3/files?q=${q}&fields=files(id,name,mimeType)`,
  );
  const paths: string[] = [];
  for (const f of files) {
    const path = prefix + f.name + (f.mimeType === FOLDER ? '/' : '');
    paths.push(path);
    if (f.mimeType === FOLDER) paths.push(...(await tree(f.id, path)));
  }
  return paths.sort();
}

describe('folder trees', () => {
  test('a folder create whose answer was lost is repeated with its ID, answers 409, and the folder is reused', async () => {
    const root = await newFolder();
    let lost = 0;
    const proxy = await startFaultProxy(service.url, (req) =>
      req.method === 'POST' && req.url?.startsWith('/store/v3/files') && lost++ === 0 ? 'lose-response' : 'pass',
    );
    try {
      const h = harness(proxy.url, { parentId: root });
      const file = randomFile(2000, 'x.bin');
      await h.engine.add('t1', file, { relativePath: 'lost/x.bin' });
      const stored = await h.engine.done('t1');
      assert.deepEqual(await tree(root), ['lost/', 'lost/x.bin']);
      assert.deepEqual(Buffer.compare(await download(service.url, stored.id), file.bytes), 0);
      const creates = proxy.seen.filter((line) => line.startsWith('POST /store/v3/files'));
      assert.equal(creates.length, 2, 'the lost create, then its repeat');
      assert.ok(
        h.events.some((e) => e.snapshot.retry?.cause === 'network'),
        'the lost answer was retried as a network failure',
      );
    } finally {
      await proxy.close();
    }
  });

  test('two engines sharing a session store and locks (two tabs) make each folder once', async () => {
    const root = await newFolder();
    const store = new SharedStore();
    const locks = new MemoryLocks();
    const tabs = [
      harness(service.url, { store, locks, parentId: root }),
      harness(service.url, { store, locks, parentId: root }),
    ];
    const paths = ['a/b/one.bin', 'a/b/two.bin', 'a/c/three.bin', 'a/four.bin'];
    await Promise.all(
      tabs.flatMap((h, tab) =>
        paths.map(async (path, i) => {
          const id = `t${tab}-${i}`;
          await h.engine.add(id, randomFile(1000 + i, `${tab}-${path.split('/').pop()}`), { relativePath: path });
          return h.engine.done(id);
        }),
      ),
    );
    assert.deepEqual(await tree(root), [
      'a/',
      'a/0-four.bin',
      'a/1-four.bin',
      'a/b/',
      'a/b/0-one.bin',
      'a/b/0-two.bin',
      'a/b/1-one.bin',
      'a/b/1-two.bin',
      'a/c/',
      'a/c/0-three.bin',
      'a/c/1-three.bin',
    ]);
  });

  test('addFolder makes a path of empty folders, once, and nothing when flattening', async () => {
    const root = await newFolder();
    const h = harness(service.url, { parentId: root });
    const [first, again] = await Promise.all([h.engine.addFolder('empty/inner'), h.engine.addFolder('empty/inner')]);
    assert.equal(first, again);
    assert.equal(await h.engine.addFolder('flat/never', { flatten: true }), undefined);
    assert.deepEqual(await tree(root), ['empty/', 'empty/inner/']);
  });
});

test("placing a file in its folder leaves no listener on the task's signal, which lives as long as the task", async () => {
  const task = new AbortController();
  const placed = await placeFile(
    { relativePath: 'a/b/c.txt', parentId: 'root' },
    async (path) => `id-of-${path}`,
    task.signal,
  );
  assert.deepEqual(placed.metadata?.parents, ['id-of-a/b']);
  assert.equal(getEventListeners(task.signal, 'abort').length, 0);
});
