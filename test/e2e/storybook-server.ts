/** A loopback server for the built Storybook (`npm run build-storybook` → `storybook-static/`, or STORYBOOK_DIR). */
import { test } from '@playwright/test';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { type StaticSite, startStaticSite } from '../consumers/static-site.ts';

export const STORYBOOK_DIR = process.env['STORYBOOK_DIR'] ?? 'storybook-static';

/** Serves the built Storybook for the tests of one spec file (started before them, closed after); `origin()` is its address. */
export function serveStorybookForSpec(): { origin(): string } {
  let server: StaticSite | undefined;
  test.beforeAll(async () => {
    if (!existsSync(join(STORYBOOK_DIR, 'index.json')))
      throw new Error(`No built Storybook in ${STORYBOOK_DIR}: run npm run build-storybook`);
    // Storybook names the files under assets/ by their content: the many page loads of a spec take them from the cache.
    server = await startStaticSite(STORYBOOK_DIR, { immutable: /^\/assets\// });
  });
  test.afterAll(() => server?.stop());
  return { origin: () => server!.url };
}
