/**
 * The language stories of the built Storybook (`npm run build-storybook` → `storybook-static/`, or STORYBOOK_DIR)
 * in Chromium (issue 12): every state in Arabic (right-to-left) and Japanese, screenshotted at 360 and 1280 px,
 * light and dark (test-results/story-locales/…png, read them), with the numbers and their units checked in visual
 * order — the size of a 40 kB file reads "40 كيلوبايت" right to left in Arabic (the number to the right of its
 * unit) and "40 KB" left to right in Japanese — and the words in the story's language. Then every built-in language
 * (issue 23) through the `AnyLanguage` story: its words, its direction, nothing spilling sideways at 360 px, and a
 * screenshot at 1280 and 360 px of the list in every state (uploading with time left, paused, retrying with its
 * cause, failed with its reason, done).
 */
import { serveStorybookForSpec } from './storybook-server.ts';
import { expect, test, type Page } from '@playwright/test';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { BUILT_IN_LANGUAGES } from '../../src/elements/i18n/built-in-languages.ts';
import { builtInLanguage } from '../../src/elements/i18n/languages.ts';

// LOCALE_SHOTS puts the screenshots elsewhere (a reviewer's folder, outside the repository).
const SHOTS = process.env['LOCALE_SHOTS'] ?? join('test-results', 'story-locales');

const storybook = serveStorybookForSpec();

test.beforeAll(() => {
  mkdirSync(SHOTS, { recursive: true });
});

/** Opens a language story and waits until its rows are rendered in that language. */
async function openStory(page: Page, story: string, scheme: 'light' | 'dark', width: number, args = ''): Promise<void> {
  await page.setViewportSize({ width, height: 900 });
  await page.goto(
    `${storybook.origin()}/iframe.html?id=languages-store-progress-list--${story}&viewMode=story&globals=scheme:${scheme}${args}`,
  );
  await expect(page.locator('[data-id="kb40"]')).toBeVisible();
}

/**
 * Where the number and the unit of a size cell are on screen: the x of the digits' box and of the unit's box,
 * measured with Ranges over the cell's text, plus the text itself.
 */
function numberAndUnit(page: Page, taskId: string) {
  return page.locator(`[data-id="${taskId}"] [part="size"]`).evaluate((cell) => {
    const node = [...cell.childNodes].find((n) => n.nodeType === Node.TEXT_NODE && n.textContent!.trim())!;
    const text = node.textContent!;
    const digits = /[\d٠-٩]+/.exec(text)!;
    const unitStart = text.search(/[^\s\d٠-٩.,٫٬\u00a0\u202f]/u);
    const box = (start: number, end: number) => {
      const range = document.createRange();
      range.setStart(node, start);
      range.setEnd(node, end);
      return range.getBoundingClientRect();
    };
    const number = box(digits.index, digits.index + digits[0].length);
    const unit = box(unitStart, text.length);
    return {
      text: text.trim(),
      numberLeft: number.left,
      numberRight: number.right,
      unitLeft: unit.left,
      unitRight: unit.right,
    };
  });
}

for (const { story, lang, rtl, size, state, button } of [
  { story: 'arabic', lang: 'ar', rtl: true, size: /^40\s?كيلوبايت$/u, state: 'في الانتظار', button: 'إلغاء notes.txt' },
  { story: 'japanese', lang: 'ja', rtl: false, size: /^40\s?KB$/u, state: '待機中', button: 'notes.txtをキャンセル' },
]) {
  test(`${lang}: every state, numbers and units in order, screenshots at 360 and 1280 px, light and dark`, async ({
    page,
  }) => {
    for (const scheme of ['light', 'dark'] as const) {
      for (const width of [360, 1280]) {
        await openStory(page, story, scheme, width);
        const row = page.locator('[data-id="kb40"]');
        // The words are the language's, the direction the page's.
        expect(await row.locator('[part="state"]').getAttribute('title')).toBe(state);
        expect(await row.evaluate((el) => getComputedStyle(el).direction)).toBe(rtl ? 'rtl' : 'ltr');
        const cell = await numberAndUnit(page, 'kb40');
        expect(cell.text).toMatch(size);
        if (rtl)
          expect(cell.numberLeft, `"${cell.text}": the number reads first, on the right`).toBeGreaterThanOrEqual(
            cell.unitRight - 1,
          );
        else
          expect(cell.numberRight, `"${cell.text}": the number reads first, on the left`).toBeLessThanOrEqual(
            cell.unitLeft + 1,
          );
        // The rate of the uploading row keeps its number with its unit too (one Intl compound unit).
        const rate = await page.locator('[data-id="up"] [part="rate"] bdi').first().textContent();
        expect(rate?.replace(/\s/g, ' ')).toMatch(rtl ? /^4 م\.ب\/ث$/u : /^4 MB\/秒$/u);
        // A row's controls are named in the language.
        await expect(row.getByRole('button', { name: button, exact: true })).toHaveCount(1);
        await page.screenshot({ path: join(SHOTS, `${lang}-${scheme}-${width}.png`), fullPage: true });
        // Nothing spills sideways at 360 px.
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      }
    }
  });
}

test('design: every state in English, left to right and right to left, at 360 and 1280 px, light and dark', async ({
  page,
}) => {
  for (const [story, dirName] of [
    ['english', 'ltr'],
    ['english-rtl-page', 'rtl'],
  ] as const) {
    for (const scheme of ['light', 'dark'] as const) {
      for (const width of [360, 1280]) {
        await openStory(page, story, scheme, width);
        // Each state has its own icon: ten rows, ten different state icons would be nine states + converted (done).
        const icons = await page.locator('[part~="state"] svg').evaluateAll((svgs) => svgs.map((s) => s.innerHTML));
        expect(new Set(icons).size).toBe(9);
        // A 40 kB size reads "40 kB" either way: isolated from the page direction.
        const cell = await numberAndUnit(page, 'kb40');
        expect(cell.text).toBe('40 kB');
        expect(cell.numberRight).toBeLessThanOrEqual(cell.unitLeft + 1);
        // Rows are compact: one line of text over a thin bar.
        const height = await page.locator('[data-id="kb40"]').evaluate((el) => el.getBoundingClientRect().height);
        expect(height).toBeLessThanOrEqual(56);
        await page.screenshot({ path: join(SHOTS, `en-${dirName}-${scheme}-${width}.png`), fullPage: true });
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      }
    }
  }
});

test('every built-in language: its words, its direction, no sideways spill at 360 px, screenshots at 1280 and 360 px', async ({
  page,
}) => {
  test.setTimeout(BUILT_IN_LANGUAGES.length * 10_000);
  const rtl = ['ar', 'fa', 'he', 'ur'];
  for (const lang of BUILT_IN_LANGUAGES) {
    const t = (await builtInLanguage(lang))!;
    for (const width of [1280, 360]) {
      await openStory(page, 'any-language', 'light', width, `&args=lang:${lang}`);
      const row = page.locator('[data-id="kb40"]');
      await expect(row.locator('[part="state"]')).toHaveAttribute('title', t.states.queued);
      // The failed row gives its reason in the language too.
      const failed = await page.locator('[data-id="fa"] [part="state"]').getAttribute('title');
      expect(failed, lang).toContain(t.states.failed);
      expect(failed, lang).toContain(t.errors.integrity);
      expect(await row.evaluate((el) => getComputedStyle(el).direction), lang).toBe(rtl.includes(lang) ? 'rtl' : 'ltr');
      await page.screenshot({ path: join(SHOTS, `lang-${lang}-${width}.png`), fullPage: true });
      expect(
        await page.evaluate(() => document.documentElement.scrollWidth),
        `${lang} at ${width} px`,
      ).toBeLessThanOrEqual(width);
    }
  }
});
