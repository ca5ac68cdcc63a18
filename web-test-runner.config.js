// @web/test-runner: browser suites in Debian's headless Chromium, TypeScript through esbuild.
import { esbuildPlugin } from '@web/dev-server-esbuild';
import { playwrightLauncher } from '@web/test-runner-playwright';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './test/browser/chromium.js';

const root = fileURLToPath(new URL('.', import.meta.url));

/** `new URL('./worker.js', import.meta.url)` is fetched literally: serve `worker.ts` when `worker.js` is missing. */
function tsForJs() {
  return async (ctx, next) => {
    if (ctx.path.endsWith('.js') && !existsSync(root + ctx.path.slice(1))) {
      const ts = ctx.path.slice(0, -3) + '.ts';
      if (existsSync(root + ts.slice(1))) ctx.path = ts;
    }
    return next();
  };
}

export default {
  rootDir: root,
  files: ['test/browser/**/*.test.ts'],
  nodeResolve: true,
  concurrency: 1,
  concurrentBrowsers: 1,
  testFramework: { config: { timeout: 60000 } },
  testsFinishTimeout: 600000,
  middleware: [tsForJs()],
  plugins: [esbuildPlugin({ ts: true, target: 'es2022', tsconfig: root + 'tsconfig.browser.json' })],
  browsers: [
    playwrightLauncher({
      product: 'chromium',
      launchOptions: { executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_ARGS },
    }),
  ],
};
