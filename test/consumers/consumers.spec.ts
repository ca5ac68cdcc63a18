/**
 * Each fixture app, installed from the packed tarballs and built by its own toolchain (scripts/test-consumers.sh),
 * uploads a file in Chromium to a `store-service` started from the installed `@store-upload-kit/service` tarball;
 * the stored bytes must be the ones chosen.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createReadStream, existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { extname, join, normalize } from 'node:path';
import { createInterface } from 'node:readline';
import { expect, test } from '@playwright/test';

const DIR = process.env['CONSUMERS_DIR'];
if (!DIR) throw new Error('CONSUMERS_DIR is not set: run scripts/test-consumers.sh');
const TOKEN = 'dev-token-alice';
const TYPES: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript', '.map': 'application/json', '.wasm': 'application/wasm' };

let service: ChildProcess;
let serviceUrl: string;
let dataDir: string;
let site: Server;
let siteUrl: string;

test.beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'consumer-service-'));
  // The bin npm linked from the service tarball, started as a user's test setup would (`npx store-service`).
  service = spawn(join(DIR, 'node_modules/.bin/store-service'), ['--port', '0', '--data', dataDir], { stdio: ['ignore', 'pipe', 'inherit'] });
  serviceUrl = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('store-service did not print its ready line within 30 s')), 30_000);
    service.once('exit', (code) => reject(new Error(`store-service exited with ${code}`)));
    createInterface({ input: service.stdout! }).on('line', (line) => {
      const match = /listening on (http:\/\/\S+)/.exec(line);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    });
  });
  site = createServer((req, res) => {
    const path = normalize(decodeURIComponent(new URL(req.url!, 'http://x').pathname));
    const file = join(DIR, path.endsWith('/') ? `${path}index.html` : path);
    if (!file.startsWith(DIR) || !existsSync(file) || !statSync(file).isFile()) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' });
    createReadStream(file).pipe(res);
  });
  await new Promise<void>((done) => site.listen(0, '127.0.0.1', done));
  const address = site.address();
  siteUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
});

test.afterAll(async () => {
  service?.kill('SIGTERM');
  await new Promise<void>((done) => site?.close(() => done()));
  rmSync(dataDir, { recursive: true, force: true });
});

const APPS = [
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
    const bytes = randomBytes(300 * 1024 + 7);
    await page.goto(`${siteUrl}/${app.page}?service=${encodeURIComponent(serviceUrl)}&token=${TOKEN}`);
    // The dropzone's file input, inside the element's shadow root (Playwright's CSS pierces open shadow roots).
    await page.locator('input[type=file]:not([webkitdirectory])').first().setInputFiles({
      name: `${app.name.replace(/\W+/g, '-')}.bin`,
      mimeType: 'application/octet-stream',
      buffer: bytes,
    });
    await expect(page.locator('#ids')).not.toBeEmpty({ timeout: 30_000 });
    const id = (await page.locator('#ids').textContent())!.trim();
    const stored = await fetch(`${serviceUrl}/store/v3/files/${id}?alt=media`, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(stored.status).toBe(200);
    expect(Buffer.from(await stored.arrayBuffer()).equals(bytes)).toBe(true);
    expect(errors).toEqual([]);
  });
}

test('plain page, elements-only script tag: only the elements load until someone is about to upload', async ({ page }) => {
  const scripts: string[] = [];
  page.on('request', (request) => {
    if (request.resourceType() === 'script' || request.url().endsWith('.js')) scripts.push(new URL(request.url()).pathname.split('/').pop()!);
  });
  const workers: string[] = [];
  page.on('worker', (worker) => workers.push(worker.url()));
  await page.goto(`${siteUrl}/apps/script-tag/elements.html?service=${encodeURIComponent(serviceUrl)}&token=${TOKEN}`);
  const uploader = page.locator('store-uploader');
  await expect(uploader.locator('store-dropzone')).toBeVisible();
  await page.evaluate(() => (document.querySelector('store-uploader') as unknown as { updateComplete: Promise<unknown> }).updateComplete);
  // Lit and the elements, nothing of the uploader: no facade, no client, no worker.
  expect(scripts).toContain('store-upload-kit-elements.js');
  expect(scripts.filter((name) => /uploader|client|worker/.test(name))).toEqual([]);
  expect(workers).toEqual([]);
  // A pointer over the element is the sign of intent: the uploader and its worker follow.
  await uploader.hover();
  await expect.poll(() => workers.length).toBeGreaterThan(0);
  expect(scripts.some((name) => name.startsWith('uploader-facade'))).toBe(true);
});
