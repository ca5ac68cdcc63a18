/**
 * Opens every story of the built Storybook (the static site a team hosts) in Chromium and waits for Storybook to
 * finish it: rendered, its `play` function run, and the accessibility addon's axe check done (`a11y.test: 'error'`).
 * Fails on a story that errored or has an axe violation, a page error, a console error, or a failed request. Build
 * first (`npm run build-storybook`, output `storybook-static/`, or set STORYBOOK_DIR). `npm run test:stories` runs
 * the same stories in Storybook's own test runner; this checks that the build behaves the same.
 */
import { serveStorybookForSpec, STORYBOOK_DIR as dir } from './storybook-server.ts';
import { expect, test } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../browser/chromium.js';

interface IndexEntry {
  id: string;
  type: string;
  tags?: string[];
}

/** What Storybook's `storyFinished` event says about one story. */
interface Finished {
  status: string;
  reporters: {
    type: string;
    status: string;
    result?: { violations?: { id: string; nodes: { target: unknown }[] }[]; error?: unknown };
  }[];
}

test.use({ launchOptions: { executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS } });

const storybook = serveStorybookForSpec();

function stories(): IndexEntry[] {
  const index = JSON.parse(readFileSync(join(dir, 'index.json'), 'utf8')) as { entries: Record<string, IndexEntry> };
  // A story tagged `!test` (the live-service one, which needs a running service) loses the default `test` tag.
  return Object.values(index.entries).filter((e) => e.type === 'story' && (e.tags ?? []).includes('test'));
}

test('every story of the built site plays to the end without errors or axe violations', async ({ page }) => {
  test.setTimeout(300_000);
  const problems: string[] = [];
  let current = '';
  page.on('pageerror', (error) => problems.push(`${current}: page error ${error.message}`));
  page.on('response', (response) => {
    if (response.status() >= 400) problems.push(`${current}: ${response.status()} for ${response.url()}`);
  });
  page.on('console', (msg) => {
    if (msg.type() === 'error' && !msg.text().includes('ResizeObserver loop'))
      problems.push(`${current}: console error ${msg.text()}`);
  });
  // Storybook's preview announces each finished story on its channel: catch the channel as it is created.
  await page.addInitScript(() => {
    let channel: { on(event: string, listener: (e: unknown) => void): void } | undefined;
    Object.defineProperty(globalThis, '__STORYBOOK_ADDONS_CHANNEL__', {
      configurable: true,
      get: () => channel,
      set: (next: NonNullable<typeof channel>) => {
        channel = next;
        next.on('storyFinished', (e) => ((globalThis as unknown as { storyFinished: unknown }).storyFinished = e));
      },
    });
  });
  const list = stories();
  expect(list.length).toBeGreaterThan(50);
  for (const story of list) {
    current = story.id;
    await page.goto(`${storybook.origin()}/iframe.html?id=${story.id}&viewMode=story`);
    const handle = await page.waitForFunction(
      () => (globalThis as unknown as { storyFinished?: unknown }).storyFinished,
      undefined,
      { timeout: 30_000 },
    );
    const finished = (await handle.jsonValue()) as Finished;
    if (finished.status !== 'success') problems.push(`${story.id}: ${finished.status}`);
    const a11y = finished.reporters.find((r) => r.type === 'a11y');
    if (!a11y) problems.push(`${story.id}: no accessibility check ran`);
    for (const v of a11y?.result?.violations ?? [])
      problems.push(`${story.id}: axe ${v.id} at ${JSON.stringify(v.nodes.map((n) => n.target))}`);
  }
  expect(problems).toEqual([]);
});
