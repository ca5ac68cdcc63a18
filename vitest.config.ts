// `npm run test:stories`: every story of .storybook/ run as a test in Debian's Chromium by Storybook's own test
// runner (@storybook/addon-vitest): it renders the story, runs its `play` function, then axe (`a11y.test: 'error'`).
import { storybookTest } from '@storybook/addon-vitest/vitest-plugin';
import { playwright } from '@vitest/browser-playwright';
import { defineConfig } from 'vitest/config';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './test/browser/chromium.js';

export default defineConfig({
  plugins: [storybookTest({ configDir: '.storybook' })],
  test: {
    name: 'storybook',
    browser: {
      enabled: true,
      headless: true,
      provider: playwright({ launchOptions: { executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS } }),
      instances: [{ browser: 'chromium' }],
      screenshotFailures: false,
    },
    // One browser page at a time on this 2-core machine, as the other browser suites.
    fileParallelism: false,
    // A focused test (.only) fails the run instead of narrowing it (vitest allows it outside CI by default).
    allowOnly: false,
  },
});
