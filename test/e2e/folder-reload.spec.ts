// A folder chosen with "Browse folder" (the real `webkitdirectory` chooser) into `<store-uploader parent-id>`, three
// uploads at a time, and a real page reload mid-upload: the user chooses the same folder again and the service ends
// with exactly that tree under the target — each folder once (the next page life repeats the creates with the IDs kept
// in IndexedDB, and the service answers 409), every file once and byte-identical. Build first: `npx vite build`.
import { expect, test, type Page } from '@playwright/test';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { startBundleServer, type BundleServer } from './bundle-server.ts';
import { randomBytes } from './demo-fixture.ts';
import { startService, type ServiceHandle } from '../server/helpers/service.ts';

const KiB = 1024;
// `resumable-threshold="0"` reads as unset in <store-uploader> (the 5 MiB default): 1 byte makes every file resumable.
const TOKEN = 'dev-token-alice';
const FOLDER = 'application/vnd.svc-apps.folder';

let service: ServiceHandle;
let server: BundleServer | undefined;
let dir = '';
let page = '';

test.beforeAll(async () => {
  service = await startService();
  dir = mkdtempSync(join(tmpdir(), 'folder-reload-'));
  server = await startBundleServer((_req, res, path) => {
    if (path !== '/folders.html') return false;
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page);
    return true;
  });
});
test.afterAll(async () => {
  await server?.close();
  await service?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** Every path under a folder as the service lists it (folders end in `/`), sorted, with the IDs and checksums. */
async function tree(
  folderId: string,
  prefix = '',
  out = new Map<string, { id: string; md5?: string }>(),
): Promise<Map<string, { id: string; md5?: string }>> {
  const q = encodeURIComponent(`'${folderId}' in parents`);
  const res = await service.api(
    'GET',
    `/store/v3/files?q=${q}&pageSize=1000&fields=files(id,name,mimeType,md5Checksum)`,
  );
  for (const f of res.json<{ files: { id: string; name: string; mimeType: string; md5Checksum?: string }[] }>().files) {
    const path = prefix + f.name + (f.mimeType === FOLDER ? '/' : '');
    if (out.has(path)) out.set(`${path} (twin)`, { id: f.id });
    else out.set(path, { id: f.id, ...(f.md5Checksum && { md5: f.md5Checksum }) });
    if (f.mimeType === FOLDER) await tree(f.id, path, out);
  }
  return out;
}

/** The most bytes any stored session record says the service acknowledged. */
function acknowledged(p: Page): Promise<number> {
  return p.evaluate(
    () =>
      new Promise<number>((resolve) => {
        const open = indexedDB.open('store-upload-kit');
        // Not there yet: leave creating it to the kit (a database made here would lack its object store).
        open.onupgradeneeded = () => open.transaction?.abort();
        open.onerror = () => resolve(0);
        open.onsuccess = () => {
          const db = open.result;
          if (!db.objectStoreNames.contains('sessions')) {
            resolve(0);
            return;
          }
          const all = db.transaction('sessions').objectStore('sessions').getAll();
          all.onsuccess = () =>
            resolve(Math.max(0, ...all.result.map((r: { acknowledged: number }) => r.acknowledged)));
          db.close();
        };
      }),
  );
}

async function chooseFolder(p: Page, folder: string): Promise<void> {
  const chooser = p.waitForEvent('filechooser');
  await p.getByRole('button', { name: 'Browse folder' }).click();
  await (await chooser).setFiles(folder);
}

test('a folder chosen again after a reload mid-upload ends as exactly its tree, each folder once', async ({
  page: p,
}) => {
  const root = (await service.api('POST', '/store/v3/files', { body: { name: 'target', mimeType: FOLDER } })).json<{
    id: string;
  }>().id;
  const top = join(dir, 'album');
  const files: Record<string, Buffer> = {};
  ['2026/beach.bin', '2026/dunes.bin', '2025/snow/peak.bin', '2025/snow/valley.bin', 'cover.bin'].forEach((path, i) => {
    files[`album/${path}`] = randomBytes(2048 * KiB + i * 1000, i + 1);
    mkdirSync(dirname(join(dir, 'album', path)), { recursive: true });
    writeFileSync(join(dir, 'album', path), files[`album/${path}`]);
  });
  // Each 256 KiB chunk waits at the service, so the reload lands while three uploads are under way.
  const slow = { match: { method: 'PUT', uploadType: 'resumable' }, action: { type: 'delay', ms: 400 }, times: 1000 };
  expect((await service.api('POST', '/__admin/faults', { token: null, body: slow })).status).toBeLessThan(300);
  page = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>folders</title></head><body>
<store-uploader base-url="${service.url}" token="${TOKEN}" parent-id="${root}" conversion="none" concurrency="3" chunk-size="262144" resumable-threshold="1" host="dedicated"></store-uploader>
<script type="module">import '/kit/store-upload-kit.js';</script></body></html>`;
  await p.goto(`${server!.origin}/folders.html`);
  await p.waitForFunction(() => customElements.get('store-uploader') !== undefined);
  await chooseFolder(p, top);

  // The service has stored a chunk of an upload inside the tree, and no file can have finished (eight slow chunks
  // each): reload now. The session records in IndexedDB say what the service acknowledged.
  await expect.poll(() => acknowledged(p), { timeout: 30_000, intervals: [100] }).toBeGreaterThan(0);
  expect([...(await tree(root)).keys()].filter((path) => !path.endsWith('/'))).toEqual([]);
  await p.reload();
  await p.waitForFunction(() => customElements.get('store-uploader') !== undefined);
  await service.api('DELETE', '/__admin/faults', { token: null });

  await chooseFolder(p, top);
  await expect(p.getByRole('listitem').getByText('Uploaded', { exact: true })).toHaveCount(5, { timeout: 60_000 });
  const stored = await tree(root);
  expect([...stored.keys()].sort()).toEqual(
    ['album/', 'album/2025/', 'album/2025/snow/', 'album/2026/', ...Object.keys(files)].sort(),
  );
  for (const [path, bytes] of Object.entries(files)) {
    expect(stored.get(path)?.md5, path).toBe(createHash('md5').update(bytes).digest('hex'));
  }
});
