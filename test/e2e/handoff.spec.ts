/**
 * The first instant after a choice (issue 28): a file is chosen on a page holding `<store-uploader>` from the built
 * script-tag bundle, and the tab goes to another page of the site 0, 50, 150 or 300 ms later. The file must be stored
 * once, byte-identical: it reached the site's shared worker before the page left. "Once" is judged after every upload
 * the next page's uploader shows has ended and no session for the file is open, and again after a reload of that page
 * (which would offer or resume anything left behind). Each delay runs in a browser context of its own, so nothing of
 * the kit is loaded or running before the choice.
 */
import { expect, test, type Page } from '@playwright/test';
import { createHash, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSessionsNamed } from './acceptance-fixture.ts';
import { startBundleServer, type BundleServer } from './bundle-server.ts';
import { randomBytes } from './demo-fixture.ts';
import { startService, type ServiceHandle } from '../server/helpers/service.ts';

const TOKEN = 'dev-token-alice';
let service: ServiceHandle;
let site: BundleServer;
let dir: string;

const html = (title: string) => `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title>
</head><body><h1>${title}</h1><a href="/next.html">next</a>
<store-uploader base-url="SERVICE" token="${TOKEN}"></store-uploader>
<script type="module" src="/kit/store-upload-kit-elements.js"></script>
</body></html>`;

test.beforeAll(async () => {
  service = await startService();
  site = await startBundleServer((_req, res, path) => {
    const name = /^\/(first|next)\.html$/.exec(path)?.[1];
    if (!name) return false;
    res
      .writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' })
      .end(html(name).replace('SERVICE', service.url));
    return true;
  });
  dir = mkdtempSync(join(tmpdir(), 'handoff-'));
});
test.afterAll(async () => {
  await site?.close();
  await service?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

async function stored(name: string): Promise<{ md5Checksum: string }[]> {
  const q = encodeURIComponent(`name = '${name}'`);
  const r = await service.api('GET', `/store/v3/files?q=${q}&fields=files(md5Checksum)`, { token: TOKEN });
  return (JSON.parse(r.text) as { files: { md5Checksum: string }[] }).files;
}

/**
 * Whether every upload the page's uploader shows (the site's shared worker's) has ended, and how many interrupted
 * uploads it offers.
 */
async function settled(page: Page): Promise<{ shown: number; ended: boolean; interrupted: number }> {
  return page.evaluate(async () => {
    const element = document.querySelector('store-uploader') as HTMLElement & {
      getUploader(): Promise<
        { snapshot: { tasks: { state: string }[] }; interrupted(): Promise<unknown[]> | unknown[] } | undefined
      >;
    };
    await customElements.whenDefined('store-uploader');
    const uploader = await element.getUploader();
    if (!uploader) return { shown: 0, ended: false, interrupted: -1 };
    const ended = uploader.snapshot.tasks.every((t) => ['done', 'failed', 'cancelled'].includes(t.state));
    return { shown: uploader.snapshot.tasks.length, ended, interrupted: (await uploader.interrupted()).length };
  });
}

for (const delay of [0, 50, 150, 300]) {
  test(`a navigation ${delay} ms after the choice: the file is stored once, byte-identical`, async ({ browser }) => {
    const context = await browser.newContext();
    try {
      const name = `handoff-${delay}-${randomUUID()}.bin`;
      const bytes = randomBytes(3 * 1024 * 1024 + delay, delay + 7);
      const path = join(dir, name);
      writeFileSync(path, bytes);
      const page = await context.newPage();
      await page.goto(`${site.origin}/first.html`);
      const chooser = page.waitForEvent('filechooser');
      await page.getByRole('button', { name: 'Browse files' }).click();
      await (await chooser).setFiles(path);
      // eslint-disable-next-line no-restricted-syntax -- time-wait: the delay between the choice and the navigation is what is tested.
      if (delay) await page.waitForTimeout(delay);
      await page.goto(`${site.origin}/next.html`);
      const md5 = createHash('md5').update(bytes).digest('hex');
      await expect.poll(async () => (await stored(name)).length, { timeout: 60_000 }).toBeGreaterThan(0);
      await expect.poll(() => settled(page), { timeout: 60_000 }).toMatchObject({ ended: true, interrupted: 0 });
      await expect.poll(() => openSessionsNamed(service, name)).toEqual([]);
      expect((await stored(name)).map((f) => f.md5Checksum)).toEqual([md5]);
      // Later: a new life of the page, whose uploader would resume or offer anything the handoff left behind.
      await page.reload();
      await expect.poll(() => settled(page), { timeout: 60_000 }).toMatchObject({ ended: true, interrupted: 0 });
      expect((await stored(name)).map((f) => f.md5Checksum)).toEqual([md5]);
      expect(await openSessionsNamed(service, name)).toEqual([]);
    } finally {
      await context.close();
    }
  });
}
