// A page reload in the middle of a chunked 40 MiB upload: the plain page (the built bundle, one module script) picks
// the file, reloads while a chunk is on the wire, and the user picks the same file again. The upload must resume from
// what the service stored (not from the last acknowledged chunk), end byte-identical, make one file, leave no record,
// and re-send at most one 256 KiB block plus what was in flight when the page went away. A counting proxy between the
// page and the real service reads bodies at a limited rate (so the reload lands mid-upload) and counts every byte.
// Build first: `npx vite build`.
import { expect, test } from '@playwright/test';
import { createHash, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from './demo-fixture.ts';
import { startService, type ServiceHandle } from '../server/helpers/service.ts';
import { sessionBytes, startCountingProxy, type CountingProxy } from '../client/helpers/counting-proxy.ts';
import { startUploadPage, type UploadPage } from '../client/helpers/upload-page.ts';

const KiB = 1024;
const MiB = 1024 * KiB;
const SIZE = 40 * MiB + 123;
const CHUNK = 8 * MiB;

let service: ServiceHandle;
let proxy: CountingProxy;
let pages: UploadPage;
let dir: string;

test.beforeAll(async () => {
  service = await startService();
  proxy = await startCountingProxy(service.url, 8 * MiB);
  pages = await startUploadPage();
  dir = mkdtempSync(join(tmpdir(), 'uploader-reload-'));
});
test.afterAll(async () => {
  await pages?.stop();
  await proxy?.close();
  await service?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

test('a reload mid-chunk resumes from what the service stored, byte-identical, one file, ≤ 256 KiB re-sent', async ({
  page,
}) => {
  const name = `reload-${randomUUID()}.bin`;
  const path = join(dir, name);
  const bytes = randomBytes(SIZE, 7);
  writeFileSync(path, bytes);
  const md5 = createHash('md5').update(bytes).digest('hex');

  // A worker of the page's own: its upload ends with the page, as where there is no shared worker (the site's shared
  // worker would carry the upload across the reload: shared-engine.spec.ts).
  await page.goto(pages.url(proxy.url, { host: 'dedicated', chunkSize: CHUNK, resumableThreshold: 0 }));
  await page.waitForFunction(() => 'kit' in globalThis);
  await page.setInputFiles('#file', path);
  // Reload once the service has acknowledged a chunk and the next chunk is well under way.
  await expect
    .poll(
      () => {
        const current = proxy.requests.filter((r) => r.method === 'PUT' && r.url.includes('upload_id=')).at(-1);
        // The chunk after an acknowledged one, still unanswered: the reload must cut a request in flight.
        const inFlight = current !== undefined && current.status === undefined && !current.cut;
        return inFlight && current.received > 3 * MiB + 100 * KiB && proxy.requests.some((r) => r.status === 308);
      },
      { timeout: 60_000 },
    )
    .toBe(true);
  // Slow the proxy right down, so the chunk is still on the wire when the reload lands, however loaded the machine.
  proxy.rate = 1 * MiB;
  await page.reload();
  await page.waitForFunction(() => 'kit' in globalThis);

  // The proxy hears the connection go away a moment after the page does.
  await expect.poll(() => proxy.requests.filter((r) => r.cut).length, { timeout: 10_000 }).toBe(1);
  const cut = proxy.requests.filter((r) => r.cut);
  expect(cut[0].method).toBe('PUT');
  const inFlight = cut[0].received - cut[0].forwarded;

  // The new page life lists the upload, then the user picks the same file again.
  const listed = await page.evaluate(async () => {
    const kit = (
      globalThis as unknown as {
        kit: { uploader: { interrupted(): Promise<{ name: string; bytesAcknowledged: number }[]> } };
      }
    ).kit;
    return kit.uploader.interrupted();
  });
  expect(listed.map((u) => u.name)).toEqual([name]);
  expect(listed[0].bytesAcknowledged).toBeGreaterThanOrEqual(CHUNK);
  proxy.rate = undefined;
  await page.setInputFiles('#file', path);
  const result = await page.waitForFunction(
    () => (globalThis as unknown as { kit: { results: unknown[] } }).kit.results[0],
    undefined,
    { timeout: 60_000 },
  );
  const outcome = (await result.jsonValue()) as {
    ok: boolean;
    file?: { id: string; size: string; md5Checksum: string };
    code?: string;
    message?: string;
  };
  expect(outcome.ok, `${outcome.code}: ${outcome.message}`).toBe(true);
  const file = outcome.file!;

  const stored = await service.api('GET', `/store/v3/files/${file.id}?alt=media`);
  expect(stored.status).toBe(200);
  expect(createHash('md5').update(stored.body).digest('hex')).toBe(md5);
  expect(file.size).toBe(String(SIZE));
  const same = await service.api('GET', `/store/v3/files?q=${encodeURIComponent(`name = '${name}'`)}&fields=files(id)`);
  expect(same.json<{ files: { id: string }[] }>().files).toEqual([{ id: file.id }]);

  const resent = sessionBytes(proxy.requests) - SIZE;
  console.log(`re-sent ${resent} bytes after the reload (in flight at the reload: ${inFlight})`);
  expect(resent).toBeGreaterThanOrEqual(0);
  expect(resent).toBeLessThanOrEqual(256 * KiB + inFlight);
  const left = await page.evaluate(async () => {
    const kit = (globalThis as unknown as { kit: { uploader: { interrupted(): Promise<unknown[]> } } }).kit;
    return kit.uploader.interrupted();
  });
  expect(left).toEqual([]);
});
