// "Resume all" after a real reload, with no file dialog: files are picked through `showOpenFilePicker`, which an
// init script answers with real OPFS `FileSystemFileHandle`s (the browser's own handles, as a picker returns them);
// a throttling proxy between the page and the real service keeps the uploads going while the page reloads. The new
// page life lists the unfinished uploads; "Resume all" must finish them from the kept handles, byte-identical, one
// file each, while `filechooser` never fires — and a file rewritten in the meantime must not be resumed silently.
// Build first: `npm run build:browser`.
import { expect, test, type Page } from '@playwright/test';
import { startBundleServer, type BundleServer } from './bundle-server.ts';
import { randomBytes } from './demo-fixture.ts';
import { filesNamed } from './acceptance-fixture.ts';
import { startService, type ServiceHandle } from '../server/helpers/service.ts';
import { startCountingProxy, type CountingProxy } from '../client/helpers/counting-proxy.ts';

const KiB = 1024;
const MiB = 1024 * KiB;
const TOKEN = 'dev-token-alice';

let service: ServiceHandle;
let proxy: CountingProxy;
let server: BundleServer | undefined;
const seeds = new Map<string, Buffer>();

test.beforeAll(async () => {
  service = await startService();
  proxy = await startCountingProxy(service.url);
  server = await startBundleServer((_req, res, path) => {
    const seed = seeds.get(path.replace(/^\/seed\//, ''));
    if (path === '/resume.html') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
        .end(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>resume</title></head>
<body><store-uploader base-url="${proxy.url}" token="${TOKEN}" chunk-size="262144" resumable-threshold="1" host="dedicated"></store-uploader>
<script type="module">import '/kit/store-upload-kit.js';</script></body></html>`);
      return true;
    }
    if (path.startsWith('/seed/') && seed) {
      res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(seed);
      return true;
    }
    return false;
  });
});

test.afterAll(async () => {
  await server?.close();
  await proxy?.close();
  await service?.stop();
});

/** `showOpenFilePicker` answers with the OPFS files named in `window.pick`: real handles, no dialog. */
const PICKER = () => {
  const w = window as unknown as { pick: string[]; showOpenFilePicker: () => Promise<FileSystemFileHandle[]> };
  w.pick = [];
  w.showOpenFilePicker = async () => {
    const root = await navigator.storage.getDirectory();
    return Promise.all(w.pick.map((name) => root.getFileHandle(name)));
  };
};

async function open(page: Page): Promise<void> {
  await page.goto(`${server!.origin}/resume.html`);
  await page.waitForFunction(() => customElements.get('store-uploader') !== undefined);
}

/** Writes `bytes` (served as `/seed/<name>`) into the origin's private file system as `name`. */
async function writeOpfs(page: Page, name: string, bytes: Buffer): Promise<void> {
  seeds.set(name, bytes);
  await page.evaluate(async (n) => {
    const body = await (await fetch(`/seed/${n}`)).arrayBuffer();
    const root = await navigator.storage.getDirectory();
    const writable = await (await root.getFileHandle(n, { create: true })).createWritable();
    await writable.write(body);
    await writable.close();
  }, name);
}

/** Bytes the service has acknowledged per file name, from the kit's session records in IndexedDB. */
function acknowledged(page: Page): Promise<Record<string, number>> {
  return page.evaluate(
    () =>
      new Promise<Record<string, number>>((resolve, reject) => {
        const open = indexedDB.open('store-upload-kit');
        // Not there yet: leave creating it to the kit; and close after reading, so the kit's upgrades never wait on it.
        open.onupgradeneeded = () => open.transaction?.abort();
        open.onerror = () => {
          if (open.error?.name === 'AbortError') resolve({});
          else reject(open.error ?? new Error('IndexedDB open failed'));
        };
        open.onsuccess = () => {
          const db = open.result;
          if (!db.objectStoreNames.contains('sessions')) {
            db.close();
            resolve({});
            return;
          }
          const all = db.transaction('sessions').objectStore('sessions').getAll();
          all.onsuccess = () =>
            resolve(
              Object.fromEntries(
                all.result.map((r: { name: string; acknowledged: number }) => [r.name, r.acknowledged]),
              ),
            );
          all.onerror = () => reject(all.error ?? new Error('IndexedDB read failed'));
          db.close();
        };
      }),
  );
}

/** Picks `names` with "Browse files" (through the picker), lets each upload get some way, and reloads the page. */
async function pickAndReload(page: Page, names: string[]): Promise<void> {
  proxy.rate = 1 * MiB;
  await page.evaluate((n) => ((window as unknown as { pick: string[] }).pick = n), names);
  await page.getByRole('button', { name: 'Browse files' }).click();
  await expect
    .poll(
      async () => {
        const acks = await acknowledged(page);
        return names.every((n) => (acks[n] ?? 0) >= 512 * KiB);
      },
      { timeout: 30_000 },
    )
    .toBe(true);
  await page.reload();
  await page.waitForFunction(() => customElements.get('store-uploader') !== undefined);
  proxy.rate = undefined;
}

/** The stored bytes of the file the service has under `name` (exactly one). */
async function storedBytes(name: string): Promise<Buffer> {
  const ids = await filesNamed(service, name);
  expect(ids).toHaveLength(1);
  const stored = await service.api('GET', `/store/v3/files/${ids[0]}?alt=media`, { token: TOKEN });
  expect(stored.status).toBe(200);
  return stored.body;
}

test('"Resume all" after a reload finishes every upload from its kept handle, with no file chooser, byte-identical', async ({
  page,
}) => {
  let choosers = 0;
  page.on('filechooser', () => choosers++);
  await page.addInitScript(PICKER);
  await open(page);
  const names = [`resume-a-${Date.now()}.bin`, `resume-b-${Date.now()}.bin`];
  await writeOpfs(page, names[0], randomBytes(3 * MiB + 77, 11));
  await writeOpfs(page, names[1], randomBytes(2 * MiB + 5, 12));
  await pickAndReload(page, names);

  const unfinished = page.getByRole('group', { name: 'Unfinished uploads' });
  for (const name of names) await expect(unfinished.getByText(name)).toBeVisible();
  await page.getByRole('button', { name: 'Resume all' }).click();
  for (const name of names) {
    await expect(
      page.getByRole('listitem').filter({ hasText: name }).getByText('Uploaded', { exact: true }),
    ).toBeVisible({ timeout: 60_000 });
  }
  await expect(unfinished).toHaveCount(0);
  for (const name of names) expect(Buffer.compare(await storedBytes(name), seeds.get(name)!)).toBe(0);
  expect(await acknowledged(page)).toEqual({});
  expect(choosers).toBe(0);
});

test('a file rewritten before "Resume all" is reported as changed and not resumed; the others go on', async ({
  page,
}) => {
  let choosers = 0;
  page.on('filechooser', () => choosers++);
  await page.addInitScript(PICKER);
  await open(page);
  const same = `same-${Date.now()}.bin`;
  const changed = `changed-${Date.now()}.bin`;
  await writeOpfs(page, same, randomBytes(2 * MiB + 9, 21));
  await writeOpfs(page, changed, randomBytes(2 * MiB + 9, 22));
  await pickAndReload(page, [same, changed]);

  // Same size, other bytes: only the date and the sampled slices can tell.
  await writeOpfs(page, changed, randomBytes(2 * MiB + 9, 23));
  const unfinished = page.getByRole('group', { name: 'Unfinished uploads' });
  await expect(unfinished.getByText(changed)).toBeVisible();
  await page.getByRole('button', { name: 'Resume all' }).click();
  await expect(page.getByRole('listitem').filter({ hasText: same }).getByText('Uploaded', { exact: true })).toBeVisible(
    { timeout: 60_000 },
  );
  const item = unfinished.getByRole('listitem').filter({ hasText: changed });
  await expect(item).toHaveAttribute('data-error', 'file-changed');
  await expect(item.getByText(`${changed} changed since its upload began`)).toBeVisible();
  await expect(item.getByRole('button', { name: `Choose file again for ${changed}` })).toBeVisible();
  await expect(page.getByRole('status').filter({ hasText: `${changed} changed since` })).toHaveCount(1);
  expect(Buffer.compare(await storedBytes(same), seeds.get(same)!)).toBe(0);
  expect(await filesNamed(service, changed)).toEqual([]);
  expect(Object.keys(await acknowledged(page))).toEqual([changed]);
  expect(choosers).toBe(0);
});
