/**
 * The service inside an app's own server (`@store-upload-kit/service/handler`, from the packed tarball): an Express
 * app (the handler's Node form) and a Next.js app's route handler (the Fetch form, `next build` + `next start`),
 * each signed in by its own cookie, storing a 64 MiB file the kit uploads resumably from headless Chromium and a
 * small one it sends as one multipart request, byte-identical (read back through the app's own download route,
 * compared by MD5).
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { type AppServer, startAppServer } from './app-server.ts';

const DIR = process.env['CONSUMERS_DIR'];
if (!DIR) throw new Error('CONSUMERS_DIR is not set: run scripts/test-consumers.sh');
const MiB = 1024 * 1024;

/** Seeded bytes (xorshift32): the same file every run, no two blocks alike. */
function seeded(size: number, seed: number): Buffer {
  const out = Buffer.alloc(size);
  let x = seed >>> 0 || 1;
  for (let i = 0; i < size; i += 4) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    out.writeUInt32LE(x >>> 0, i);
  }
  return out;
}
const md5 = (bytes: Uint8Array) => createHash('md5').update(bytes).digest('hex');

const APPS = [
  { name: 'Express (the Node form)', dir: 'apps/express', args: ['server.mjs'], page: '/', bin: process.execPath },
  {
    // apps/next/app/api/store/[...path]/route.ts (the Fetch form), from `next build`, served by `next start`.
    name: 'Next.js route handler (the Fetch form)',
    dir: 'apps/next',
    args: [join(DIR, 'node_modules/next/dist/bin/next'), 'start', '-p', '{port}', '-H', '127.0.0.1'],
    page: '/own-server',
    bin: process.execPath,
  },
];

/** Chooses `path` in the uploader, waits for its file ID and reads its bytes back through the app. */
async function upload(page: Page, appUrl: string, path: string, bytes: Buffer, previous: number): Promise<void> {
  await page.locator('input[type=file]:not([webkitdirectory])').first().setInputFiles(path);
  await expect
    .poll(async () => ((await page.locator('#ids').textContent()) ?? '').trim().split(/\s+/).filter(Boolean).length, {
      timeout: 150_000,
    })
    .toBe(previous + 1);
  const id = ((await page.locator('#ids').textContent()) ?? '').trim().split(/\s+/).at(-1)!;
  // The page's context holds the app's cookie: this is the signed-in user's own download.
  const stored = await page.request.get(`${appUrl}/api/store/store/v3/files/${id}?alt=media`);
  expect(stored.status()).toBe(200);
  expect(md5(await stored.body())).toBe(md5(bytes));
}

for (const app of APPS) {
  test.describe(app.name, () => {
    test.describe.configure({ timeout: 240_000 });
    let server: AppServer;
    const files = mkdtempSync(join(tmpdir(), 'own-server-files-'));
    test.beforeAll(async () => {
      test.setTimeout(120_000);
      server = await startAppServer(app.bin, app.args, join(DIR, app.dir));
    });
    test.afterAll(async () => {
      await server?.stop();
      rmSync(files, { recursive: true, force: true });
    });

    test('is signed in by the app’s cookie and stores a 64 MiB resumable and a multipart upload byte-identical', async ({
      page,
    }) => {
      // Not signed in: the service inside the app answers 401 as the service does.
      const anonymous = await fetch(`${server.url}/api/store/store/v3/files`);
      expect(anonymous.status).toBe(401);

      // The app's sign-in sets its cookie and sends the browser on to the page with the uploader.
      await page.goto(`${server.url}/login`);
      expect(page.url()).toBe(`${server.url}${app.page}`);
      // A session's Location is at the origin the browser asked (`next start` builds request.url from its own name).
      const session = await page.request.post(`${server.url}/api/store/upload/store/v3/files?uploadType=resumable`, {
        data: { name: 'where.bin' },
      });
      expect(session.status()).toBe(200);
      expect(session.headers()['location']).toMatch(new RegExp(`^${server.url}/api/store/upload/store/v3/files\\?`));
      await expect(page.locator('store-uploader')).toBeAttached();
      await expect.poll(() => page.evaluate(() => customElements.get('store-uploader') !== undefined)).toBe(true);

      // Over the kit's resumable threshold (5 MiB): a resumable session through the app's /api/store.
      const big = seeded(64 * MiB, 37);
      writeFileSync(join(files, 'big.bin'), big);
      await upload(page, server.url, join(files, 'big.bin'), big, 0);
      // Under it: one multipart request.
      const small = seeded(300 * 1024 + 8, 38);
      writeFileSync(join(files, 'small.bin'), small);
      await upload(page, server.url, join(files, 'small.bin'), small, 1);
      expect(server.output()).not.toMatch(/could not answer|internal error/);
    });
  });
}
