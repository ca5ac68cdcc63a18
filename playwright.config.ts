// Playwright end-to-end specs: Debian's Chromium (never a downloaded one), one worker on this 2-core machine.
import { defineConfig } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './test/browser/chromium.js';

export default defineConfig({
  testDir: 'test/e2e',
  testMatch: '**/*.spec.ts',
  workers: 1,
  // A stray test.only would narrow the run to itself: fail instead (everywhere, not only in CI).
  forbidOnly: true,
  fullyParallel: false,
  timeout: 120_000,
  // With PLAYWRIGHT_COUNT_FILE (scripts/test-browser.sh) also a JSON report there: scripts/test-count.ts reads how
  // many passed from it, and each file's tests and hooks show their times.
  reporter: [
    [process.env.CI ? 'list' : 'line'],
    ...(process.env.PLAYWRIGHT_COUNT_FILE
      ? [['json', { outputFile: process.env.PLAYWRIGHT_COUNT_FILE }] as const]
      : []),
  ],
  use: {
    headless: true,
    launchOptions: { executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS },
  },
});
