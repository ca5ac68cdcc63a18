// The consumer apps in Debian's Chromium (never a downloaded one); scripts/test-consumers.sh installs and builds
// them first and passes their folder in CONSUMERS_DIR.
import { defineConfig } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../browser/chromium.js';

export default defineConfig({
  testDir: '.',
  testMatch: '*.spec.ts',
  workers: 1,
  // A stray test.only would narrow the run to itself: fail instead (everywhere, not only in CI).
  forbidOnly: true,
  timeout: 60_000,
  // With PLAYWRIGHT_COUNT_FILE (scripts/test-browser.sh) also a JSON report there: scripts/test-count.ts reads how
  // many passed from it, and each file's tests and hooks show their times.
  reporter: [
    [process.env.CI ? 'list' : 'line'],
    ...(process.env.PLAYWRIGHT_COUNT_FILE
      ? [['json', { outputFile: process.env.PLAYWRIGHT_COUNT_FILE }] as const]
      : []),
  ],
  use: { headless: true, launchOptions: { executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS } },
});
