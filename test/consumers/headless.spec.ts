/**
 * The headless pages of the fixture apps (issue 31), built by scripts/test-consumers.sh from the packed tarball:
 * Next.js (React hooks), Nuxt (Vue composables), SvelteKit (Svelte store), each served by its production server, and
 * Angular (signals), a static build whose router keeps its pages in the hash. Each page draws its own list, input and
 * buttons with no `store-*` element. The server renders the empty list (Angular's static shell has none); in the
 * browser a chosen file uploads byte-identical, the page's own Pause and Resume buttons pause and resume it, a
 * client-side route change to the app's other page keeps showing it from that page's first render, and so does a
 * full page load of the first page while it still runs: it finishes there.
 */
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { expect, type Page, test } from '@playwright/test';
import { startAppServer } from './app-server.ts';
import { type ConsumerService, startService } from './service.ts';
import { startStaticSite } from './static-site.ts';
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
test.afterEach(async () => {
  await fetch(`${service.url}/__admin/faults`, { method: 'DELETE' });
});

/** An app's headless pages: where its server or site answers, and the page addresses for a query. */
interface HeadlessApp {
  readonly name: string;
  /** Starts what serves the app; its base URL, and how to stop it. */
  serve(): Promise<{ url: string; stop(): Promise<void> }>;
  /** The first headless page. */
  first(query: string): string;
  /** The first headless page again, by an address that loads a new document from wherever the other page is. */
  again(query: string): string;
  /** Whether the app's server renders the (empty) list. */
  readonly serverRendered: boolean;
}

const serverApp = (name: string, dir: string, command: string, args: string[]): HeadlessApp => ({
  name,
  serve: () => startAppServer(command, args, join(DIR, dir)),
  first: (query) => `/headless${query}`,
  again: (query) => `/headless${query}`,
  serverRendered: true,
});

const APPS: HeadlessApp[] = [
  serverApp('Next.js (React hooks)', 'apps/next', join(BIN, 'next'), ['start', '-p', '{port}', '-H', '127.0.0.1']),
  serverApp('Nuxt (Vue composables)', 'apps/nuxt', process.execPath, ['.output/server/index.mjs']),
  serverApp('SvelteKit (Svelte store)', 'apps/sveltekit', process.execPath, ['build']),
  {
    name: 'Angular (signals)',
    serve: async () => {
      const site = await startStaticSite(DIR);
      return { url: `${site.url}/apps/angular/dist/browser`, stop: () => site.stop() };
    },
    first: (query) => `/index.html${query}#/headless`,
    // The folder's address serves the same index.html: another path, so a new document, not a change of the hash.
    again: (query) => `/${query}#/headless`,
    serverRendered: false,
  },
];

/** How many elements of the kit's (`store-*`) the page holds. */
const kitElements = (page: Page): Promise<number> =>
  page.evaluate(() => [...document.querySelectorAll('*')].filter((el) => el.localName.startsWith('store-')).length);

for (const app of APPS) {
  test.describe(app.name, () => {
    test.describe.configure({ timeout: 180_000 });
    let server: { url: string; stop(): Promise<void> };
    test.beforeAll(async () => {
      test.setTimeout(180_000);
      server = await app.serve();
    });
    test.afterAll(async () => server?.stop());

    test('its own UI: empty at first, byte-identical upload, pause and resume, kept across a route change and a full page load', async ({
      page,
    }) => {
      const query = `?service=${encodeURIComponent(service.url)}&token=${TOKEN}`;
      const html = await (await fetch(`${server.url}${app.first(query)}`)).text();
      if (app.serverRendered) expect(html).toMatch(/id="uploads"[^>]*data-count="0"/);
      expect(html).not.toContain('<store-');

      // 17 requests of 256 KiB (and the 3 bytes), each held 700 ms: the upload runs through both navigations.
      const faults = await fetch(`${service.url}/__admin/faults`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          match: { method: 'PUT', uploadType: 'resumable' },
          action: { type: 'delay', ms: 700 },
          times: 100,
        }),
      });
      expect(faults.ok).toBe(true);
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(error.message));
      await page.route('**/favicon.ico', (route) => route.fulfill({ status: 204 }));
      await page.goto(`${server.url}${app.first(query)}`);
      await expect(page.locator('#uploads[data-ready="yes"]')).toHaveCount(1, { timeout: 60_000 });

      const bytes = randomBytes(4 * 1024 * 1024 + 3);
      const name = `${app.name.replace(/\W+/g, '-')}-headless.bin`;
      await page
        .locator('input[type=file]')
        .setInputFiles({ name, mimeType: 'application/octet-stream', buffer: bytes });
      const row = page.locator(`#uploads li[data-name="${name}"]`);
      await expect(row).toHaveAttribute('data-state', 'uploading', { timeout: 30_000 });
      await row.getByRole('button', { name: 'Pause' }).click();
      await expect(row).toHaveAttribute('data-state', 'paused');
      await row.getByRole('button', { name: 'Resume' }).click();
      await expect(row).toHaveAttribute('data-state', 'uploading');

      // A client-side route change: the other page lists the same upload from its first render on.
      await page.getByRole('link', { name: 'Other page' }).click();
      await expect(page.getByRole('heading', { name: 'Other page' })).toBeVisible();
      await expect(row).toHaveCount(1, { timeout: 1_000 });
      await expect(row).toHaveAttribute('data-state', 'uploading');

      // A full page load while the upload runs (the mark on the old window is gone): the new document attaches to
      // the site's running engine and lists the upload, still running, which finishes there.
      await page.evaluate(() => Object.assign(window, { beforeFullLoad: true }));
      await page.goto(`${server.url}${app.again(query)}`);
      await expect(page.getByRole('heading', { name: 'Headless uploads' })).toBeVisible({ timeout: 30_000 });
      expect(await page.evaluate(() => 'beforeFullLoad' in window)).toBe(false);
      await expect(row).toHaveAttribute('data-state', 'uploading', { timeout: 30_000 });
      await expect(row).toHaveAttribute('data-state', 'done', { timeout: 60_000 });
      expect(await kitElements(page)).toBe(0);

      const id = await row.getAttribute('data-file-id');
      const stored = await fetch(`${service.url}/store/v3/files/${id}?alt=media`, {
        headers: { authorization: `Bearer ${TOKEN}` },
      });
      expect(stored.status).toBe(200);
      expect(Buffer.from(await stored.arrayBuffer()).equals(bytes)).toBe(true);
      expect(errors).toEqual([]);
    });
  });
}
