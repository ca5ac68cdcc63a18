/**
 * Opens every story of the built Storybook in Chromium and fails on a page error, a console error, or an axe
 * violation. Build first (`npm run build-storybook`, output `storybook-static/`, or set STORYBOOK_DIR).
 */
import { startStorybookServer, STORYBOOK_DIR as dir } from './storybook-server.ts';
import { expect, test } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../browser/chromium.js';

const axePath = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

interface IndexEntry {
  id: string;
  type: string;
  tags?: string[];
}

test.use({ launchOptions: { executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS } });

let server: { origin: string; close(): Promise<void> } | undefined;
let origin = '';

test.beforeAll(async () => {
  server = await startStorybookServer();
  origin = server.origin;
});

test.afterAll(() => server?.close());

function stories(): IndexEntry[] {
  const index = JSON.parse(readFileSync(join(dir, 'index.json'), 'utf8')) as { entries: Record<string, IndexEntry> };
  // A story tagged `!test` (the live-service one, which needs a running service) loses the default `test` tag.
  return Object.values(index.entries).filter((e) => e.type === 'story' && (e.tags ?? []).includes('test'));
}

test('every story renders without errors or axe violations', async ({ page }) => {
  test.setTimeout(300_000);
  const problems: string[] = [];
  let current = '';
  page.on('pageerror', (error) => problems.push(`${current}: page error ${error.message}`));
  page.on('response', (response) => {
    if (response.status() >= 400) problems.push(`${current}: ${response.status()} for ${response.url()}`);
  });
  page.on('console', (msg) => {
    if (msg.type() === 'error' && !msg.text().includes('ResizeObserver loop')) problems.push(`${current}: console error ${msg.text()}`);
  });
  const list = stories();
  expect(list.length).toBeGreaterThan(20);
  for (const story of list) {
    current = story.id;
    await page.goto(`${origin}/iframe.html?id=${story.id}&viewMode=story`);
    await page.waitForFunction(() => document.querySelector('#storybook-root')?.children.length, undefined, { timeout: 15_000 });
    await page.evaluate(() => customElements.whenDefined('store-uploader'));
    // Every store-* element (inside shadow roots too) has rendered, and a frame has been laid out.
    await page.evaluate(async () => {
      const pending: Promise<unknown>[] = [];
      const walk = (root: ParentNode) => {
        for (const el of root.querySelectorAll('*')) {
          if (el.tagName.startsWith('STORE-')) pending.push((el as unknown as { updateComplete: Promise<unknown> }).updateComplete);
          if (el.shadowRoot) walk(el.shadowRoot);
        }
      };
      walk(document);
      await Promise.all(pending);
      await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
    });
    // time-wait: a story's play function (a drag or added files) has no completion event the page can read; this
    // short margin lets it finish before axe looks.
    await page.waitForTimeout(150);
    await page.addScriptTag({ path: axePath });
    const violations = await page.evaluate(async () => {
      const axe = (window as unknown as { axe: { run: (ctx: unknown) => Promise<{ violations: { id: string; nodes: { target: unknown }[] }[] }> } }).axe;
      const result = await axe.run({ include: ['#storybook-root'] });
      return result.violations.map((v) => `${v.id} at ${JSON.stringify(v.nodes.map((n) => n.target))}`);
    });
    for (const v of violations) problems.push(`${story.id}: axe ${v}`);
  }
  expect(problems).toEqual([]);
});
