/**
 * Each element's docs page in the built Storybook (`npm run build-storybook` → `storybook-static/`, or
 * STORYBOOK_DIR) lists every public attribute, property, method, event, slot, CSS part and CSS custom property that
 * custom-elements.json has, in its section and with its description, and the element's summary at the top.
 */
import { serveStorybookForSpec } from './storybook-server.ts';
import { expect, test } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { publicApi, SECTIONS, type Manifest } from '../../.storybook/manifest-api.ts';

const manifest = JSON.parse(readFileSync('custom-elements.json', 'utf8')) as Manifest & {
  modules: { declarations?: { tagName?: string; summary?: string }[] }[];
};
const elements = manifest.modules.flatMap((m) => m.declarations ?? []).filter((d) => d.tagName);

const storybook = serveStorybookForSpec();

/** Text as a reader sees it: Markdown's code marks gone, runs of white space one space. */
const plain = (text: string) => text.replace(/`/g, '').replace(/\s+/g, ' ').trim();

test('the manifest lists the four elements, every public item described', () => {
  expect(elements.map((d) => d.tagName).sort()).toEqual([
    'store-conversion-picker',
    'store-dropzone',
    'store-progress-list',
    'store-uploader',
  ]);
  for (const { tagName } of elements) {
    const undescribed = publicApi(manifest, tagName!).filter((item) => !item.description.trim());
    expect(
      undescribed.map((i) => `${i.section} ${i.name}`),
      `${tagName}: items without a description`,
    ).toEqual([]);
  }
});

for (const { tagName, summary } of elements) {
  test(`${tagName}: the docs page lists every public item of the manifest`, async ({ page }) => {
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(`${storybook.origin()}/iframe.html?id=elements-${tagName}--docs&viewMode=docs`);
    const table = page.locator('.docblock-argstable');
    await expect(table).toBeVisible();
    await expect(page.locator('.sbdocs-content')).toContainText(plain(summary ?? ''));
    // The table as a reader meets it: a section row (titled "Hide attributes items", its toggle), then its items.
    const rows = await table.locator('tbody tr').evaluateAll((trs) => {
      let section = '';
      return trs.flatMap((tr) => {
        const header = /^(?:Hide|Show) (.+) items$/.exec(tr.getAttribute('title') ?? '');
        if (header) {
          section = header[1]!;
          return [];
        }
        const [name, description] = [...tr.querySelectorAll('td')].map((td) => td.textContent ?? '');
        return [{ section, name: (name ?? '').trim(), description: description ?? '' }];
      });
    });
    const expected = publicApi(manifest, tagName!);
    expect(expected.length).toBeGreaterThan(10);
    const missing: string[] = [];
    for (const item of expected) {
      const row = rows.find((r) => r.section === item.section && r.name === item.name);
      if (!row) missing.push(`${item.section}: ${item.name} not listed`);
      else if (!plain(row.description).includes(plain(item.description)))
        missing.push(`${item.section}: ${item.name} without its description`);
    }
    expect(missing).toEqual([]);
    // Nothing listed that the manifest does not have, and the sections in their order.
    expect(rows).toHaveLength(expected.length);
    const order = [...new Set(rows.map((r) => r.section))];
    expect(order).toEqual(SECTIONS.filter((s) => order.includes(s)));
    expect(errors).toEqual([]);
  });
}
