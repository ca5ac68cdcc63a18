/**
 * The headless pages of the server-rendering fixture apps (issue 31), built by scripts/test-consumers.sh from the
 * packed tarball: each page draws its own list, input and buttons with no `store-*` element. The server renders the
 * empty list; in the browser a chosen file uploads byte-identical, the page's own Pause and Resume buttons pause and
 * resume it, and a client-side route change to the app's other page keeps showing the upload, which finishes there.
 */
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { type AppServer, startAppServer } from './app-server.ts';
import { type ConsumerService, startService } from './service.ts';
import { TOKEN } from './upload-check.ts';

const DIR = process.env['CONSUMERS_DIR'];
if (!DIR) throw new Error('CONSUMERS_DIR is not set: run scripts/test-consumers.sh');
const BIN = join(DIR, 'node_modules/.bin');

let service: ConsumerService;
test.beforeAll(async () => {
  // With admin faults: each resumable PUT waits at the service, so the upload is in flight long enough to act on.
  service = await startService(DIR, ['--admin']);
});
test.afterAll(() => service?.stop());

const APPS = [
  {
    name: 'Next.js (React hooks)',
    dir: 'apps/next',
    command: join(BIN, 'next'),
    args: ['start', '-p', '{port}', '-H', '127.0.0.1'],
  },
  {
    name: 'Nuxt (Vue composables)',
    dir: 'apps/nuxt',
    command: process.execPath,
    args: ['.output/server/index.mjs'],
  },
  { name: 'SvelteKit (Svelte store)', dir: 'apps/sveltekit', command: process.execPath, args: ['build'] },
];

for (const app of APPS) {
  test.describe(app.name, () => {
    test.describe.configure({ timeout: 180_000 });
    let server: AppServer;
    test.beforeAll(async () => {
      test.setTimeout(180_000);
      server = await startAppServer(app.command, app.args, join(DIR, app.dir));
    });
    test.afterAll(async () => server?.stop());

    test('its own UI: empty on the server, byte-identical upload, pause and resume, kept across a route change', async ({
      page,
    }) => {
      const query = `?service=${encodeURIComponent(service.url)}&token=${TOKEN}`;
      const html = await (await fetch(`${server.url}/headless${query}`)).text();
      expect(html).toMatch(/id="uploads"[^>]*data-count="0"/);
      expect(html).not.toContain('<store-');

      const faults = await fetch(`${service.url}/__admin/faults`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          match: { method: 'PUT', uploadType: 'resumable' },
          action: { type: 'delay', ms: 150 },
          times: 100,
        }),
      });
      expect(faults.ok).toBe(true);
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(error.message));
      await page.route('**/favicon.ico', (route) => route.fulfill({ status: 204 }));
      await page.goto(`${server.url}/headless${query}`);
      await expect(page.locator('#uploads[data-ready="yes"]')).toHaveCount(1, { timeout: 60_000 });

      const bytes = randomBytes(2 * 1024 * 1024 + 3);
      const name = `${app.name.replace(/\W+/g, '-')}-headless.bin`;
      await page
        .locator('input[type=file]')
        .setInputFiles({ name, mimeType: 'application/octet-stream', buffer: bytes });
      const row = page.locator(`#uploads li[data-name="${name}"]`);
      await expect(row).toHaveAttribute('data-state', 'uploading', { timeout: 30_000 });
      await row.getByRole('button', { name: 'Pause' }).click();
      await expect(row).toHaveAttribute('data-state', 'paused');
      await row.getByRole('button', { name: 'Resume' }).click();
      await expect(row).toHaveAttribute('data-state', /uploading|verifying|done/);

      // A client-side route change: the other page lists the same upload from its first render on.
      await page.getByRole('link', { name: 'Other page' }).click();
      await expect(page.getByRole('heading', { name: 'Other page' })).toBeVisible();
      await expect(row).toHaveCount(1, { timeout: 1_000 });
      await expect(row).toHaveAttribute('data-state', 'done', { timeout: 60_000 });
      const id = await row.getAttribute('data-file-id');
      const stored = await fetch(`${service.url}/store/v3/files/${id}?alt=media`, {
        headers: { authorization: `Bearer ${TOKEN}` },
      });
      expect(stored.status).toBe(200);
      expect(Buffer.from(await stored.arrayBuffer()).equals(bytes)).toBe(true);
      expect(errors).toEqual([]);
      await fetch(`${service.url}/__admin/faults`, { method: 'DELETE' });
    });
  });
}
