// The web-test-runner config of one browser-lane run (browser-lane.ts starts it in the sandbox): the sandbox's own
// config, narrowed to one test file, with the mutation switch added and a Chromium of its own whose command line
// carries the run's mark, so that a run ended by its timeout can end the browser too (Playwright starts Chromium in a
// process group of its own).
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { playwrightLauncher } from '@web/test-runner-playwright';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../../test/browser/chromium.js';
import { mutationSwitch } from './browser-switch.mjs';

const env = process.env;
const { default: base } = await import(pathToFileURL(join(process.cwd(), 'web-test-runner.config.js')).href);
const { plugin, middleware } = mutationSwitch({
  mutant: env.MUTATION_BROWSER_MUTANT || undefined,
  coverageDir: env.MUTATION_COVERAGE_DIR || undefined,
});

export default {
  ...base,
  rootDir: base.rootDir ?? process.cwd(),
  files: [env.MUTATION_WTR_FILE],
  concurrency: 1,
  concurrentBrowsers: 1,
  watch: false,
  middleware: [middleware, ...(base.middleware ?? [])],
  plugins: [...(base.plugins ?? []), plugin],
  browsers: [
    playwrightLauncher({
      product: 'chromium',
      launchOptions: {
        executablePath: CHROMIUM_PATH,
        headless: true,
        args: [...CHROMIUM_ARGS, `--mutation-run=${env.MUTATION_RUN_MARK}`],
      },
    }),
  ],
};
