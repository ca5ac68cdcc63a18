/**
 * The server-rendering frameworks' fixture apps (Next.js, Nuxt, SvelteKit), built by scripts/test-consumers.sh
 * from the packed tarballs: each is served by its own production server (and Next.js and Nuxt also by their
 * development servers, which report hydration mismatches), renders `<store-uploader>` on the server, hydrates
 * without an error or warning in the console, stores a chosen file byte-identical, and prints no error on the server
 * (such as `customElements` or `window` touched during server rendering).
 */
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { type AppServer, startAppServer } from './app-server.ts';
import { type ConsumerService, startService } from './service.ts';
import { TOKEN, uploadByteIdentical } from './upload-check.ts';

const DIR = process.env['CONSUMERS_DIR'];
if (!DIR) throw new Error('CONSUMERS_DIR is not set: run scripts/test-consumers.sh');
const BIN = join(DIR, 'node_modules/.bin');

let service: ConsumerService;
test.beforeAll(async () => {
  service = await startService(DIR);
});
test.afterAll(() => service?.stop());

/** What a development build says on purpose: Lit announces its dev mode (development export condition). */
const EXPECTED = /^warning: Lit is in dev mode\. Not recommended for production!/;

const APPS = [
  {
    name: 'Next.js, next start',
    dir: 'apps/next',
    command: join(BIN, 'next'),
    args: ['start', '-p', '{port}', '-H', '127.0.0.1'],
  },
  {
    name: 'Next.js, next dev',
    dir: 'apps/next',
    command: join(BIN, 'next'),
    args: ['dev', '-p', '{port}', '-H', '127.0.0.1'],
  },
  { name: 'Nuxt, production server', dir: 'apps/nuxt', command: process.execPath, args: ['.output/server/index.mjs'] },
  {
    name: 'Nuxt, nuxt dev',
    dir: 'apps/nuxt',
    command: join(BIN, 'nuxi'),
    args: ['dev', '--port', '{port}', '--host', '127.0.0.1'],
  },
  { name: 'SvelteKit, adapter-node server', dir: 'apps/sveltekit', command: process.execPath, args: ['build'] },
];

for (const app of APPS) {
  test.describe(app.name, () => {
    // A development server compiles the page on its first request: on two busy cores that can take a while.
    test.describe.configure({ timeout: 180_000 });
    let server: AppServer;
    test.beforeAll(async () => {
      test.setTimeout(180_000);
      server = await startAppServer(app.command, app.args, join(DIR, app.dir));
    });
    test.afterAll(async () => server?.stop());

    test('renders the element on the server, hydrates cleanly and stores a chosen file byte-identical', async ({
      page,
    }) => {
      const query = `?service=${encodeURIComponent(service.url)}&token=${TOKEN}`;
      const html = await (await fetch(`${server.url}/${query}`)).text();
      expect(html).toContain('<store-uploader');

      const console: string[] = [];
      page.on('console', (message) => {
        const line = `${message.type()}: ${message.text()}`;
        if ((message.type() === 'error' || message.type() === 'warning') && !EXPECTED.test(line)) console.push(line);
      });
      // The browser's own request for an icon, which these fixtures do not have.
      await page.route('**/favicon.ico', (route) => route.fulfill({ status: 204 }));
      page.on('pageerror', (error) => console.push(`pageerror: ${error.message}`));
      await page.goto(`${server.url}/${query}`);
      // Hydrated: the element is upgraded and has the property the framework set in the browser.
      await expect
        .poll(
          () =>
            page.evaluate(() => document.querySelector<HTMLElement & { baseUrl?: string }>('store-uploader')?.baseUrl),
          { timeout: 60_000 },
        )
        .toBe(service.url);
      await uploadByteIdentical(page, service.url, app.name);
      expect(console).toEqual([]);
      expect(server.output()).not.toMatch(/error|warn|not defined/i);
    });
  });
}
