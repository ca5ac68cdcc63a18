/** The Vue demo (Vue 3.5, `store-*` compiled as custom elements) uploads a file to the real service. */
import { expect, test } from '@playwright/test';
import { randomBytes, startDemoFixture, type DemoFixture } from './demo-fixture.ts';

let demo: DemoFixture;
test.beforeAll(async () => {
  demo = await startDemoFixture();
});
test.afterAll(async () => {
  await demo?.stop();
});

test('the Vue demo uploads a file and shows its ID', async ({ page }) => {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await page.goto(demo.pageUrl('vue/'));
  await expect(page.getByRole('heading', { name: 'store-upload-kit in Vue' })).toBeVisible();

  const bytes = randomBytes(300 * 1024, 13);
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: 'Browse files' }).click();
  await (await chooser).setFiles({ name: 'from-vue.bin', mimeType: 'application/octet-stream', buffer: bytes });

  // The ID comes from the element's @change listener, through a Vue ref.
  const item = page.getByRole('list', { name: 'Uploaded file IDs' }).getByRole('listitem');
  await expect(item).toHaveCount(1, { timeout: 30_000 });
  const id = (await item.textContent())!.trim();
  const stored = await demo.service.api('GET', `/store/v3/files/${encodeURIComponent(id)}?alt=media`);
  expect(stored.status).toBe(200);
  expect(stored.body.equals(bytes)).toBe(true);
  expect(errors).toEqual([]);
});
