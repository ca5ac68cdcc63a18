/**
 * The demo page's language and direction switches, and what a reader sees of sizes. The uploader's words follow the
 * `lang` of its section, switched live (no reload, which would interrupt uploads) and kept across a reload through
 * the query string.
 */
import { expect, test } from '@playwright/test';
import { startDemoFixture, type DemoFixture } from './demo-fixture.ts';
import { BUILT_IN_LANGUAGES } from '../../src/elements/i18n/built-in-languages.ts';
import { builtInLanguage } from '../../src/elements/i18n/languages.ts';

let demo: DemoFixture;
test.beforeAll(async () => {
  demo = await startDemoFixture();
});
test.afterAll(async () => {
  await demo?.stop();
});

test('switching the uploader to French and right-to-left happens live and survives a reload', async ({ page }) => {
  await page.goto(demo.pageUrl());
  const section = page.locator('#upload-section');
  await expect(page.getByRole('button', { name: 'Browse files' })).toBeVisible();

  await page.getByLabel('Uploader language').selectOption('fr');
  await expect(page.getByRole('button', { name: 'Parcourir les fichiers' })).toBeVisible();
  await expect(page.getByText('Aucun envoi pour l’instant.')).toBeVisible();
  await expect(section).toHaveAttribute('lang', 'fr');

  await page.getByLabel('Layout direction').selectOption('rtl');
  await expect(section).toHaveAttribute('dir', 'rtl');
  // The dropzone's buttons are laid out from the right: "Browse files" comes first in reading order, so it is the
  // rightmost of the two.
  const files = await page.getByRole('button', { name: 'Parcourir les fichiers' }).boundingBox();
  const folder = await page.getByRole('button', { name: 'Parcourir un dossier' }).boundingBox();
  expect(files!.x).toBeGreaterThan(folder!.x);
  // The demo's own words stay English and left to right.
  await expect(page.getByRole('heading', { name: 'Stored files' })).toBeVisible();

  expect(new URL(page.url()).searchParams.get('lang')).toBe('fr');
  expect(new URL(page.url()).searchParams.get('service')).toBe(demo.service.url);
  await page.reload();
  await expect(page.getByRole('button', { name: 'Parcourir les fichiers' })).toBeVisible();
  await expect(section).toHaveAttribute('dir', 'rtl');
  await expect(page.getByLabel('Uploader language')).toHaveValue('fr');
});

test('the language picker offers every built-in language in its own name; Persian and Urdu switch to right to left', async ({
  page,
}) => {
  await page.goto(demo.pageUrl());
  const picker = page.getByLabel('Uploader language');
  const options = await picker
    .locator('option')
    .evaluateAll((all) =>
      all.map((o) => [(o as HTMLOptionElement).value, (o as HTMLOptionElement).lang, o.textContent]),
    );
  expect(options.map(([value]) => value)).toEqual([...BUILT_IN_LANGUAGES]);
  expect(options.length).toBeGreaterThanOrEqual(46);
  expect(options.every(([value, lang]) => value === lang)).toBe(true);
  const named = Object.fromEntries(options.map(([value, , name]) => [value, name]));
  expect([named['ko'], named['fa'], named['ru'], named['zh-TW'], named['en']]).toEqual([
    '한국어',
    'فارسی',
    'Русский',
    '中文（台灣）',
    'English',
  ]);

  const section = page.locator('#upload-section');
  for (const [lang, dir] of [
    ['fa', 'rtl'],
    ['ur', 'rtl'],
    ['ko', 'ltr'],
    ['zh-TW', 'ltr'],
  ] as const) {
    await picker.selectOption(lang);
    await expect(section).toHaveAttribute('lang', lang);
    await expect(section).toHaveAttribute('dir', dir);
    const browse = (await builtInLanguage(lang))!.dropzone.browse;
    await expect(page.getByRole('button', { name: browse })).toBeVisible();
  }
  await page.reload();
  await expect(picker).toHaveValue('zh-TW');
  await expect(page.getByRole('button', { name: '選擇檔案' })).toBeVisible();
});

test('the stored-files table says "bytes" in whole words', async ({ page }) => {
  const created = await demo.service.api('POST', '/upload/store/v3/files?uploadType=media', {
    headers: { 'content-type': 'text/plain' },
    body: 'hi',
  });
  expect(created.status).toBe(200);
  await page.goto(demo.pageUrl());
  await expect(page.locator(`#stored tr[data-id="${created.json<{ id: string }>().id}"] td.num`)).toHaveText('2 bytes');
});

// `Intl`'s short `byte` unit has no English plural ("2 byte"): src/elements/internal/format.ts uses the long form.
test('the progress list says "2 bytes" for a two-byte file', async ({ page }) => {
  await page.goto(demo.pageUrl());
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: 'Browse files' }).click();
  await (await chooser).setFiles({ name: 'two.txt', mimeType: 'text/plain', buffer: Buffer.from('hi') });
  const row = page.locator('store-progress-list [data-state="done"]');
  await expect(row).toHaveCount(1, { timeout: 30_000 });
  await expect(row).toContainText('2 bytes');
});
