// @web/test-runner: browser suites in Debian's headless Chromium, TypeScript through esbuild, and a real
// `store-service --admin` on loopback for suites that upload (its URL is served at /__store-service).
import { esbuildPlugin } from '@web/dev-server-esbuild';
import { defaultReporter } from '@web/test-runner';
import { playwrightLauncher } from '@web/test-runner-playwright';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './test/browser/chromium.js';
import { mainThreadCpuPlugin } from './test/browser/main-thread-cpu-plugin.js';
import { frameworksPlugin } from './test/browser/frameworks-plugin.js';
import { countReporter } from './test/browser/count-reporter.js';

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

/**
 * Starts one real store-service (with admin faults and clock) for the whole run; tests read its URL from
 * `GET /__store-service` (`{"url": "http://127.0.0.1:PORT"}`). It is started lazily on the first request, so
 * suites that never upload pay nothing.
 */
function storeServicePlugin() {
  let child;
  let started;
  const start = () =>
    (started ??= new Promise((resolve, reject) => {
      const data = mkdtempSync(join(tmpdir(), 'store-wtr-'));
      child = spawn(process.execPath, [root + 'bin/store-service.js', '--port', '0', '--data', data, '--admin'], {
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      let out = '';
      child.stdout.on('data', (chunk) => {
        out += chunk;
        const m = /store-service listening on (http:\/\/\S+)/.exec(out);
        if (m) resolve(m[1]);
      });
      child.on('exit', (code) => reject(new Error(`store-service exited with ${code}: ${out}`)));
    }));
  return {
    name: 'store-service',
    async serve(context) {
      if (context.path === '/__store-service') return { body: JSON.stringify({ url: await start() }), type: 'json' };
      return undefined;
    },
    serverStop() {
      child?.kill('SIGTERM');
    },
  };
}

export default {
  rootDir: root,
  files: ['test/browser/**/*.test.ts'],
  nodeResolve: true,
  concurrency: 1,
  concurrentBrowsers: 1,
  // A hang fails in minutes, naming the test (mocha's 60 s) or its file (11 min: above the one test that sets its own
  // 10 min, test/browser/elements/large-list.test.ts's 10,000 uploads, which fails sooner on a 90 s stall).
  // mocha's forbidOnly: a stray it.only or describe.only fails the run instead of narrowing it to itself.
  testFramework: { config: { timeout: 60000, forbidOnly: true } },
  testsFinishTimeout: 660000,
  // The count feeds scripts/test-count.ts (a run that lost test files fails there).
  reporters: [defaultReporter(), countReporter()],
  middleware: [tsForJs()],
  plugins: [
    storeServicePlugin(),
    mainThreadCpuPlugin(),
    frameworksPlugin(),
    esbuildPlugin({ ts: true, target: 'es2022', tsconfig: root + 'tsconfig.browser.json' }),
  ],
  browsers: [
    playwrightLauncher({
      product: 'chromium',
      launchOptions: { executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_ARGS },
    }),
  ],
};
