/**
 * Each fixture app, installed from the packed tarballs and built by its own toolchain (scripts/test-consumers.sh),
 * uploads a file in Chromium to a `store-service` started from the installed `@store-upload-kit/service` tarball;
 * the stored bytes must be the ones chosen.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { type ConsumerService, startService } from './service.ts';
import { type StaticSite, startStaticSite } from './static-site.ts';
import { TOKEN, uploadByteIdentical } from './upload-check.ts';

const DIR = process.env['CONSUMERS_DIR'];
if (!DIR) throw new Error('CONSUMERS_DIR is not set: run scripts/test-consumers.sh');

let service: ConsumerService;
let serviceUrl: string;
let site: StaticSite;
let siteUrl: string;

test.beforeAll(async () => {
  service = await startService(DIR);
  serviceUrl = service.url;
  site = await startStaticSite(DIR);
  siteUrl = site.url;
});

test.afterAll(async () => {
  service?.stop();
  await site?.stop();
});

const APPS: { name: string; page: string }[] = [
  { name: 'vanilla TypeScript + Vite', page: 'apps/vanilla/dist/index.html' },
  { name: 'React + Vite', page: 'apps/react/dist/index.html' },
  { name: 'Vue + Vite', page: 'apps/vue/dist/index.html' },
  { name: 'webpack 5', page: 'apps/webpack/index.html' },
  { name: 'plain page, script tag from the package', page: 'apps/script-tag/index.html' },
  { name: 'plain page, script tag from a static copy', page: 'apps/script-tag/static-copy.html' },
  { name: 'plain page, elements-only script tag', page: 'apps/script-tag/elements.html' },
];

for (const app of APPS) {
  test(`${app.name}: a chosen file is stored byte-identical`, async ({ page }) => {
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(`${siteUrl}/${app.page}?service=${encodeURIComponent(serviceUrl)}&token=${TOKEN}`);
    await uploadByteIdentical(page, serviceUrl, app.name);
    expect(errors).toEqual([]);
  });
}

/**
 * Angular's application builder (esbuild) leaves a dependency's `new Worker(new URL(…, import.meta.url))` alone, so
 * the app copies the package's `dist/workers/` with an `assets` glob (angular.json) and names the copy in
 * `worker-base`: the worker scripts come from that copy, in the kit version's folder, in the site's shared worker and
 * in the page's own (`?host=dedicated`, which also starts the MD5 hash worker beside it).
 */
for (const [host, scripts] of [
  ['shared-extended', [/^shared-worker\.js$/]],
  ['dedicated', [/^worker\.js$/, /^assets\/hash-worker-[\w-]+\.js$/]],
] as const) {
  test(`Angular (standalone component, strict templates, ${host} worker): a chosen file is stored byte-identical`, async ({
    page,
  }) => {
    const { version } = JSON.parse(readFileSync(join(DIR, 'node_modules/store-upload-kit/package.json'), 'utf8')) as {
      version: string;
    };
    const fetched: string[] = [];
    page.context().on('request', (request) => fetched.push(new URL(request.url()).pathname));
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    const mode = host === 'dedicated' ? '&host=dedicated' : '';
    await page.goto(
      `${siteUrl}/apps/angular/dist/browser/index.html?service=${encodeURIComponent(serviceUrl)}&token=${TOKEN}${mode}`,
    );
    await expect(page.locator('store-uploader store-dropzone')).toBeVisible();
    expect(
      await page.evaluate(() => document.querySelector<HTMLElement & { baseUrl?: string }>('store-uploader')?.baseUrl),
    ).toBe(serviceUrl);
    await uploadByteIdentical(page, serviceUrl, `Angular ${host}`, host);
    const copy = `/apps/angular/dist/browser/store-upload-kit/${version}/`;
    const fromCopy = fetched.filter((path) => path.startsWith(copy)).map((path) => path.slice(copy.length));
    for (const script of scripts)
      expect(
        fromCopy.some((path) => script.test(path)),
        `${script} in ${copy}: ${fromCopy.join(', ')}`,
      ).toBe(true);
    expect(errors).toEqual([]);
  });
}

test('plain page, elements-only script tag: only the elements load until someone is about to upload', async ({
  page,
}) => {
  const scripts: string[] = [];
  page.on('request', (request) => {
    if (request.resourceType() === 'script' || request.url().endsWith('.js'))
      scripts.push(new URL(request.url()).pathname.split('/').pop()!);
  });
  // Dedicated workers are page events; the site's shared worker is seen as its script's request in the context.
  const workers: string[] = [];
  page.on('worker', (worker) => workers.push(worker.url()));
  page
    .context()
    .on('request', (request) => /worker/.test(new URL(request.url()).pathname) && workers.push(request.url()));
  await page.goto(`${siteUrl}/apps/script-tag/elements.html?service=${encodeURIComponent(serviceUrl)}&token=${TOKEN}`);
  const uploader = page.locator('store-uploader');
  await expect(uploader.locator('store-dropzone')).toBeVisible();
  await page.evaluate(
    () => (document.querySelector('store-uploader') as unknown as { updateComplete: Promise<unknown> }).updateComplete,
  );
  // Lit and the elements, nothing of the uploader: no facade, no client, no worker (shared or dedicated).
  expect(scripts).toContain('store-upload-kit-elements.js');
  expect(scripts.filter((name) => /uploader|client|worker/.test(name))).toEqual([]);
  expect(workers).toEqual([]);
  // A pointer over the element is the sign of intent: the uploader and its worker follow.
  await uploader.hover();
  await expect
    .poll(() =>
      page.evaluate(
        () =>
          (document.querySelector('store-uploader') as unknown as { activeUploader?: { host?: string } }).activeUploader
            ?.host,
      ),
    )
    .toBe('shared-extended');
  expect(scripts.some((name) => name.startsWith('uploader-facade'))).toBe(true);
});
