// `imageResize` across a real page reload (issue 11): the plain page (the built bundle) adds a photo larger than the
// bounds, the worker sends a resized JPEG in 256 KiB chunks through a throttling proxy, and the page reloads mid-upload.
// The new page life lists the upload as resumable without the file (the resized image was kept with its session),
// resumes it with no file chosen, and the service ends up with exactly the resized bytes: one file, the MD5 the kit
// verified, upright within the bounds. Build first: `npx vite build`.
import { expect, test } from '@playwright/test';
import { createHash, randomUUID } from 'node:crypto';
import { startService, type ServiceHandle } from '../server/helpers/service.ts';
import { startCountingProxy, type CountingProxy } from '../client/helpers/counting-proxy.ts';
import { startUploadPage, type UploadPage } from '../client/helpers/upload-page.ts';

const KiB = 1024;
const BOUNDS = { maxWidth: 1600, maxHeight: 1600, type: 'image/jpeg', quality: 0.98 };

let service: ServiceHandle;
let proxy: CountingProxy;
let pages: UploadPage;

test.beforeAll(async () => {
  service = await startService();
  proxy = await startCountingProxy(service.url, 256 * KiB);
  pages = await startUploadPage();
});
test.afterAll(async () => {
  await pages?.stop();
  await proxy?.close();
  await service?.stop();
});

type Kit = {
  uploader: {
    add(file: File): { snapshot: { total: number; originalSize?: number } };
    interrupted(): Promise<{ id: string; name: string; total: number; canResumeWithoutFile: boolean }[]>;
    resumeInterrupted(id: string): Promise<{
      done: Promise<{ id: string; md5Checksum: string; size: string }>;
      snapshot: { total: number; originalSize?: number };
    }>;
  };
};

test('a resized image resumes after a reload from the Blob kept with its session, without choosing the file', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const name = `photo-${randomUUID()}.jpg`;
  // A worker of the page's own, whose upload ends with the page (the shared worker would carry it across the reload).
  await page.goto(
    pages.url(proxy.url, { host: 'dedicated', imageResize: BOUNDS, resumableThreshold: 0, chunkSize: 256 * KiB }),
  );
  await page.waitForFunction(() => 'kit' in globalThis);
  const originalSize = await page.evaluate(async (fileName) => {
    // 2400 × 1800 of grain (a JPEG that stays large once scaled to 1600 × 1200).
    const canvas = new OffscreenCanvas(2400, 1800);
    const g = canvas.getContext('2d')!;
    const pixels = g.createImageData(2400, 1800);
    for (let i = 0; i < pixels.data.length; i++) pixels.data[i] = (i & 3) === 3 ? 255 : Math.random() * 256;
    g.putImageData(pixels, 0, 0);
    const jpeg = await canvas.convertToBlob({ type: 'image/jpeg', quality: 0.95 });
    const kit = (globalThis as unknown as { kit: Kit }).kit;
    kit.uploader.add(new File([jpeg], fileName, { type: 'image/jpeg', lastModified: 1_700_000_000_000 }));
    return jpeg.size;
  }, name);

  // Reload once a chunk is acknowledged and the next is on the wire.
  await expect
    .poll(
      () =>
        proxy.requests.some((r) => r.status === 308) &&
        proxy.requests.some((r) => r.method === 'PUT' && r.status === undefined && r.received > 0),
      { timeout: 60_000 },
    )
    .toBe(true);
  await page.reload();
  await page.waitForFunction(() => 'kit' in globalThis);
  proxy.rate = undefined;

  const outcome = await page.evaluate(async (fileName) => {
    const kit = (globalThis as unknown as { kit: Kit }).kit;
    const found = (await kit.uploader.interrupted()).find((u) => u.name === fileName);
    if (!found) return { listed: false } as const;
    const task = await kit.uploader.resumeInterrupted(found.id);
    const file = await task.done;
    return {
      listed: true,
      canResumeWithoutFile: found.canResumeWithoutFile,
      total: found.total,
      snapshot: task.snapshot,
      file,
    } as const;
  }, name);
  expect(outcome.listed).toBe(true);
  if (!outcome.listed) return;
  expect(outcome.canResumeWithoutFile).toBe(true);
  expect(outcome.snapshot.originalSize).toBe(originalSize);
  expect(outcome.snapshot.total).toBe(outcome.total);

  const stored = await service.api('GET', `/store/v3/files/${outcome.file.id}?alt=media`);
  expect(stored.status).toBe(200);
  expect(stored.body.length).toBe(outcome.total);
  expect(createHash('md5').update(stored.body).digest('hex')).toBe(outcome.file.md5Checksum);
  const same = await service.api('GET', `/store/v3/files?q=${encodeURIComponent(`name = '${name}'`)}&fields=files(id)`);
  expect(same.json<{ files: { id: string }[] }>().files).toEqual([{ id: outcome.file.id }]);
  const size = await page.evaluate(async (b64) => {
    const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
    const bitmap = await createImageBitmap(new Blob([bytes]));
    return [bitmap.width, bitmap.height];
  }, Buffer.from(stored.body).toString('base64'));
  expect(size).toEqual([1600, 1200]);
});
