/**
 * The React demo (React 19 + the kit's `@lit/react` wrappers: the ID arrives through the `onChange` prop and React
 * state) and the Vue demo (Vue 3.5 compiling `store-*` as custom elements: the ID arrives through an `@change`
 * listener and a ref) each upload a file to the real service.
 */
import { expect, test } from '@playwright/test';
import { randomBytes, startDemoFixture, type DemoFixture } from './demo-fixture.ts';

let demo: DemoFixture;
test.beforeAll(async () => {
  demo = await startDemoFixture();
});
test.afterAll(async () => {
  await demo?.stop();
});

for (const { framework, path, seed } of [
  { framework: 'React', path: 'react/', seed: 11 },
  { framework: 'Vue', path: 'vue/', seed: 13 },
] as const) {
  test(`the ${framework} demo uploads a file and shows its ID`, async ({ page }) => {
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(demo.pageUrl(path));
    await expect(page.getByRole('heading', { name: `store-upload-kit in ${framework}` })).toBeVisible();

    const bytes = randomBytes(300 * 1024, seed);
    const chooser = page.waitForEvent('filechooser');
    await page.getByRole('button', { name: 'Browse files' }).click();
    await (
      await chooser
    ).setFiles({ name: `from-${framework.toLowerCase()}.bin`, mimeType: 'application/octet-stream', buffer: bytes });

    const item = page.getByRole('list', { name: 'Uploaded file IDs' }).getByRole('listitem');
    await expect(item).toHaveCount(1, { timeout: 30_000 });
    const id = (await item.textContent())!.trim();
    const stored = await demo.service.api('GET', `/store/v3/files/${encodeURIComponent(id)}?alt=media`);
    expect(stored.status).toBe(200);
    expect(stored.body.equals(bytes)).toBe(true);
    expect(errors).toEqual([]);
  });
}
