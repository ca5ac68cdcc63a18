/**
 * `<store-uploader>` with the kit's uploader against the real service whose disk fills mid-upload (the `--admin`
 * storage fault: ENOSPC after N bytes of a request's writes, then on every write). The service answers `503` with
 * `Retry-After`, keeping the whole 256 KiB blocks on disk; the uploader retries it as the service's failure and, once
 * its retries are spent, the row shows the failure with a Retry button. Space that returns within the retries needs nothing from the user; space that returns
 * later needs that one click. Either way the file completes from the stored range, byte-identical, as one file.
 * Uses the browser bundle (`npx vite build`, or ELEMENTS_BUNDLE_DIR).
 */
import { expect, test, type Page } from '@playwright/test';
import { randomUUID } from 'node:crypto';
import { startBundleServer, type BundleServer } from './bundle-server.ts';
import { startService, type ServiceHandle } from '../server/helpers/service.ts';
import { randomBytes } from './demo-fixture.ts';

const TOKEN = 'dev-token-alice';
const KiB = 1024;
const sessionPut = { method: 'PUT', uploadType: 'resumable' };

let service: ServiceHandle;
let server: BundleServer | undefined;

test.beforeAll(async () => {
  service = await startService();
  server = await startBundleServer((_req, res, path) => {
    if (path !== '/full-disk.html') return false;
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(PAGE);
    return true;
  });
});
test.afterAll(async () => {
  await server?.close();
  await service?.stop();
});
test.afterEach(async () => {
  await service.api('DELETE', '/__admin/faults', { token: null });
});

/** The element, given an uploader with a short backoff and few retries so the spec sees them end. */
const PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>full disk</title></head><body>
<store-uploader token="${TOKEN}"></store-uploader>
<script type="module">
  import { createUploader } from '/kit/store-upload-kit.js';
  const params = new URLSearchParams(location.search);
  const el = document.querySelector('store-uploader');
  el.uploader = createUploader({
    baseUrl: params.get('service'),
    getAccessToken: () => '${TOKEN}',
    resumableThreshold: 0,
    maxRetries: Number(params.get('retries')),
    backoff: { baseMs: 50, capMs: 200 },
  });
  // Retry events, not the row's transient "Retrying" text: a backoff of a few ms can begin and end within one frame.
  window.retries = [];
  el.uploader.addEventListener('retry', (e) => window.retries.push({ cause: e.detail.retry?.cause, status: e.detail.retry?.status }));
  window.ready = true;
</script></body></html>`;

async function open(page: Page, retries: number): Promise<void> {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(`${server!.origin}/full-disk.html?service=${encodeURIComponent(service.url)}&retries=${retries}`);
  await page.waitForFunction(() => (window as unknown as { ready?: boolean }).ready === true);
  expect(errors).toEqual([]);
}

/** Picks a file of `bytes` through the element's own file chooser. */
async function pick(page: Page, name: string, bytes: Buffer): Promise<void> {
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: 'Browse files' }).click();
  await (await chooser).setFiles({ name, mimeType: 'application/octet-stream', buffer: bytes });
}

/** The disk fills after `afterBytes` bytes of the first session PUT and stays full for `times` more requests. */
async function fillDisk(afterBytes: number, times: number): Promise<void> {
  for (const [after, n] of [
    [afterBytes, 1],
    [0, times],
  ] as const) {
    const action = { type: 'disk', error: 'ENOSPC', afterBytes: after };
    const r = await service.api('POST', '/__admin/faults', {
      token: null,
      body: { match: sessionPut, action, times: n },
    });
    expect(r.status).toBe(200);
  }
}

/** Counts session starts from now on (a fault that delays by nothing, listed with its hits). */
async function countSessionStarts(): Promise<void> {
  const fault = { match: { method: 'POST', uploadType: 'resumable' }, action: { type: 'delay', ms: 0 }, times: 1000 };
  expect((await service.api('POST', '/__admin/faults', { token: null, body: fault })).status).toBe(200);
}

async function sessionStarts(): Promise<number> {
  const faults = (await service.api('GET', '/__admin/faults', { token: null })).json().faults as {
    match: { method?: string };
    hits: number;
  }[];
  return faults.find((f) => f.match.method === 'POST')?.hits ?? -1;
}

/** The one stored file of that name, byte-identical to `bytes`. */
async function expectStoredOnce(name: string, bytes: Buffer): Promise<void> {
  const q = encodeURIComponent(`name = '${name}'`);
  const list = await service.api('GET', `/store/v3/files?q=${q}&fields=files(id,size)`, { token: TOKEN });
  const files = list.json().files as { id: string; size: string }[];
  expect(files).toHaveLength(1);
  expect(files[0]!.size).toBe(String(bytes.length));
  const stored = await service.api('GET', `/store/v3/files/${files[0]!.id}?alt=media`, { token: TOKEN });
  expect(stored.status).toBe(200);
  expect(Buffer.compare(stored.body, bytes)).toBe(0);
}

test("space that returns within the retries: the storage failures are retried as the service's, then it completes", async ({
  page,
}) => {
  await open(page, 8);
  await fillDisk(300 * KiB, 2);
  const name = `d-${randomUUID()}.bin`;
  const bytes = randomBytes(1024 * KiB + 5, 3);
  await pick(page, name, bytes);
  const row = page.getByRole('listitem').filter({ hasText: name });
  await expect(row.getByText('Uploaded', { exact: true })).toBeVisible({ timeout: 30_000 });
  await expectStoredOnce(name, bytes);
  // The storage failures were retried as the service's (503), with no action from the user.
  const retries = await page.evaluate(() => (window as unknown as { retries: object[] }).retries);
  expect(retries.length).toBeGreaterThan(0);
  for (const r of retries) expect(r).toEqual({ cause: 'server-error', status: 503 });
});

test('a disk that stays full: the upload fails with the error shown, and one Retry once space returns completes it', async ({
  page,
}) => {
  await open(page, 2);
  await fillDisk(300 * KiB, 1000);
  const name = `e-${randomUUID()}.bin`;
  const bytes = randomBytes(1024 * KiB + 7, 5);
  await pick(page, name, bytes);
  const row = page.getByRole('listitem').filter({ hasText: name });
  await expect(row.getByText('The upload kept failing and was stopped.')).toBeVisible({ timeout: 30_000 });
  // The service said why; the task carries its 503 and words.
  const error = await page.evaluate(async () => {
    const el = document.querySelector('store-uploader') as Element & { getUploader(): Promise<unknown> };
    const u = (await el.getUploader()) as { snapshot: { tasks: { error?: { message: string; status?: number } }[] } };
    return u.snapshot.tasks[0]!.error;
  });
  expect(error?.status).toBe(503);
  expect(error?.message).toMatch(/out of storage space \(ENOSPC\)/);

  // Space returns; the user presses Retry. The upload resumes its session (no new session start) from its range.
  await service.api('DELETE', '/__admin/faults', { token: null });
  await countSessionStarts();
  await row.getByRole('button', { name: `Retry ${name}` }).click();
  await expect(row.getByText('Uploaded', { exact: true })).toBeVisible({ timeout: 30_000 });
  await expectStoredOnce(name, bytes);
  expect(await sessionStarts()).toBe(0);
});
