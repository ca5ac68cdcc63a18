/**
 * The elements as a user meets them in Chromium, through the self-contained browser bundle a page without a bundler
 * loads (`npm run build:browser` → `dist/browser/`, or set ELEMENTS_BUNDLE_DIR) and the real reference service:
 * real Tab/Enter/Space/Escape keys, the real file chooser, drag and drop with a real `DataTransfer`, what the live
 * region says over a real upload, and how the composite looks (screenshots in test-results/) in light, dark,
 * right-to-left and French on a 360 px wide phone.
 */
import { expect, test, type Page } from '@playwright/test';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startBundleServer, type BundleServer } from './bundle-server.ts';
import { startService, type ServiceHandle } from '../server/helpers/service.ts';
import { randomBytes } from './demo-fixture.ts';

const TOKEN = 'dev-token-alice';

let service: ServiceHandle;
let server: BundleServer | undefined;
let origin = '';
const pages = new Map<string, string>();
let dir = '';

test.beforeAll(async () => {
  service = await startService();
  dir = mkdtempSync(join(tmpdir(), 'elements-e2e-'));
  server = await startBundleServer((_req, res, path) => {
    const page = pages.get(path);
    if (page === undefined) return false;
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page);
    return true;
  });
  origin = server.origin;
});

test.afterAll(async () => {
  await server?.close();
  await service?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** Serves a page that loads the bundle, and opens it. */
async function open(
  page: Page,
  name: string,
  body: string,
  options: { lang?: string; dir?: string; css?: string; script?: string } = {},
): Promise<void> {
  pages.set(
    `/${name}.html`,
    `<!doctype html><html lang="${options.lang ?? 'en'}" dir="${options.dir ?? 'ltr'}"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>${name}</title>
<style>body { font: 16px system-ui, sans-serif; margin: 1rem; } ${options.css ?? ''}</style></head>
<body>${body}<script type="module">import '/kit/store-upload-kit.js'; ${options.script ?? ''}</script></body></html>`,
  );
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(`${origin}/${name}.html`);
  await page.waitForFunction(() => customElements.get('store-uploader') !== undefined);
  expect(errors).toEqual([]);
}

const uploaderTag = (attrs = '') =>
  `<store-uploader base-url="${service.url}" token="${TOKEN}" chunk-size="262144" resumable-threshold="0" ${attrs}></store-uploader>`;

/** What has focus, through every shadow root: its accessible-ish name and whether a focus ring is drawn. */
function focused(page: Page): Promise<{ name: string; outline: string }> {
  return page.evaluate(() => {
    let el: Element | null = document.activeElement;
    while (el?.shadowRoot?.activeElement) el = el.shadowRoot.activeElement;
    if (!el) return { name: '', outline: '' };
    const label = (el as HTMLInputElement).labels?.[0]?.textContent;
    const name = el.getAttribute('aria-label') ?? label ?? el.textContent ?? '';
    const style = getComputedStyle(el);
    return { name: name.replace(/\s+/g, ' ').trim(), outline: `${style.outlineStyle} ${style.outlineWidth}` };
  });
}

/** Records every text the polite live region of the progress list takes. */
async function recordAnnouncements(page: Page): Promise<void> {
  await page.evaluate(() => {
    const list = document.querySelector('store-uploader')!.shadowRoot!.querySelector('store-progress-list')!;
    const region = list.shadowRoot!.querySelector('[aria-live="polite"]')!;
    const heard: string[] = [];
    (window as unknown as { heard: string[] }).heard = heard;
    new MutationObserver(() => {
      const said = region.textContent.trim();
      if (said) heard.push(said);
    }).observe(region, { childList: true, characterData: true, subtree: true });
  });
}

test('keyboard only: Tab order with visible focus, Enter opens the file chooser, the file is stored byte for byte', async ({
  page,
}) => {
  await open(page, 'keyboard', `<button id="before">Before</button>${uploaderTag()}`);
  await page.locator('#before').focus();
  const order: string[] = [];
  for (let i = 0; i < 3; i++) {
    await page.keyboard.press('Tab');
    const now = await focused(page);
    order.push(now.name);
    expect(now.outline, `focus ring on ${now.name}`).not.toMatch(/^none/);
  }
  expect(order).toEqual(['Convert files to native formats where possible', 'Browse files', 'Browse folder']);
  await page.keyboard.press('Shift+Tab');
  expect((await focused(page)).name).toBe('Browse files');

  // Subscribe before any other round trip: Playwright turns on file-chooser interception asynchronously, and a key
  // pressed straight after subscribing can open the (invisible, headless) native chooser instead.
  const chooser = page.waitForEvent('filechooser');
  await recordAnnouncements(page);
  const bytes = randomBytes(3 * 262_144 + 17, 7);
  await page.keyboard.press('Enter');
  await (await chooser).setFiles({ name: 'hello.bin', mimeType: 'application/octet-stream', buffer: bytes });
  const row = page.getByRole('listitem').filter({ hasText: 'hello.bin' });
  await expect(row.getByText('Uploaded', { exact: true })).toBeVisible({ timeout: 30_000 });
  await expect(row.getByRole('progressbar', { name: 'hello.bin' })).toHaveAttribute('aria-valuenow', '100');
  await expect(row.getByRole('progressbar', { name: 'hello.bin' })).toHaveAttribute('aria-valuetext', /^100% \(/);

  const value = await page.evaluate(
    () => (document.querySelector('store-uploader') as Element & { value: string[] }).value,
  );
  expect(value).toHaveLength(1);
  const stored = await service.api('GET', `/store/v3/files/${value[0]}?alt=media`, { token: TOKEN });
  expect(stored.status).toBe(200);
  expect(Buffer.compare(stored.body, bytes)).toBe(0);

  // Start, (some of) 25/50/75 %, done: each once, in order, never every tick.
  const heard = await page.evaluate(() => (window as unknown as { heard: string[] }).heard);
  expect(heard[0]).toBe('Uploading hello.bin.');
  expect(heard.at(-1)).toBe('hello.bin uploaded.');
  expect(new Set(heard).size).toBe(heard.length);
  for (const said of heard.slice(1, -1)) expect(said).toMatch(/^hello\.bin: (25|50|75)% uploaded\.$/);

  // Tab goes on to the list's bulk action, then the row's controls (download, remove); Enter removes the row, and
  // focus lands on the list, not the page.
  await page.keyboard.press('Tab');
  await page.keyboard.press('Tab');
  expect((await focused(page)).name).toBe('Clear finished');
  await page.keyboard.press('Tab');
  expect((await focused(page)).name).toBe('Download hello.bin');
  await page.keyboard.press('Tab');
  expect((await focused(page)).name).toBe('Remove hello.bin from the list');
  await page.keyboard.press('Enter');
  await expect(row).toHaveCount(0);
  expect((await focused(page)).name).toBe('No uploads yet.');
});

test('"Browse folder" with Space: the folder chooser, files keep their relative paths', async ({ page }) => {
  const folder = join(dir, 'photos');
  mkdirSync(join(folder, '2024'), { recursive: true });
  writeFileSync(join(folder, 'a.txt'), 'aa');
  writeFileSync(join(folder, '2024', 'b.txt'), 'bbb');
  await open(page, 'folder', uploaderTag());
  const chooser = page.waitForEvent('filechooser'); // before a round trip: see the keyboard test
  await page.getByRole('button', { name: 'Browse folder' }).focus();
  await page.keyboard.press('Space');
  await (await chooser).setFiles(folder);
  await expect(
    page.getByRole('listitem').filter({ hasText: 'photos/2024/b.txt' }).getByText('Uploaded', { exact: true }),
  ).toBeVisible({ timeout: 30_000 });
  await expect(
    page.getByRole('listitem').filter({ hasText: 'photos/a.txt' }).getByText('Uploaded', { exact: true }),
  ).toBeVisible({ timeout: 30_000 });
});

test('drag and drop: drag-over state across children, rejections by type, size and count told and listed, Escape closes them', async ({
  page,
}) => {
  await open(
    page,
    'drop',
    '<store-dropzone multiple accept=".txt" max-file-size="100" max-files="2"></store-dropzone>',
    {
      script: `window.heard = []; for (const n of ['store-files-add', 'store-files-reject']) document.addEventListener(n, (e) => heard.push([n, e.detail.files.map((f) => f.relativePath + (f.reason ? ':' + f.reason : ''))]));`,
    },
  );
  const zone = page.locator('store-dropzone');
  const files = await page.evaluateHandle(() => {
    const dt = new DataTransfer();
    const add = (name: string, size: number, type: string) =>
      dt.items.add(new File([new Uint8Array(size)], name, { type }));
    add('a.txt', 3, 'text/plain');
    add('b.png', 3, 'image/png');
    add('big.txt', 101, 'text/plain');
    add('c.txt', 3, 'text/plain');
    add('d.txt', 3, 'text/plain');
    return dt;
  });
  await zone.dispatchEvent('dragenter', { dataTransfer: files });
  await expect(zone).toHaveAttribute('drag-over', '');
  await expect(zone.getByText('Release to add the files')).toBeVisible();
  // Into a child: enter on the child first, then leave the parent; the state stays.
  await zone.locator('[part="browse-button"]').dispatchEvent('dragenter', { dataTransfer: files });
  await zone.dispatchEvent('dragleave', { dataTransfer: files });
  await expect(zone).toHaveAttribute('drag-over', '');
  await zone.locator('[part="browse-button"]').dispatchEvent('dragleave', { dataTransfer: files });
  await expect(zone).not.toHaveAttribute('drag-over');

  await zone.dispatchEvent('dragenter', { dataTransfer: files });
  await zone.dispatchEvent('drop', { dataTransfer: files });
  await expect(zone).not.toHaveAttribute('drag-over');
  await expect
    .poll(() => page.evaluate(() => (window as unknown as { heard: unknown[] }).heard))
    .toEqual([
      ['store-files-reject', ['b.png:type', 'big.txt:size', 'd.txt:count']],
      ['store-files-add', ['a.txt', 'c.txt']],
    ]);
  const list = zone.getByRole('status');
  await expect(list.getByRole('listitem')).toHaveText([
    'b.png: this type of file is not accepted.',
    'big.txt: larger than the limit of 100 bytes.',
    'd.txt: at most 2 files can be added.',
  ]);
  await list.getByRole('button', { name: 'Dismiss' }).focus();
  await page.keyboard.press('Escape');
  await expect(list.getByRole('listitem')).toHaveCount(0);
  expect((await focused(page)).name).toBe('Browse files');

  // Paste (Ctrl+V with files) while the dropzone has focus.
  await page.evaluate(() => {
    const dt = new DataTransfer();
    dt.items.add(new File(['x'], 'pasted.txt', { type: 'text/plain' }));
    let el: Element | null = document.activeElement;
    while (el?.shadowRoot?.activeElement) el = el.shadowRoot.activeElement;
    el!.dispatchEvent(
      new ClipboardEvent('paste', { clipboardData: dt, bubbles: true, composed: true, cancelable: true }),
    );
  });
  await expect
    .poll(() => page.evaluate(() => (window as unknown as { heard: unknown[] }).heard.at(-1)))
    .toEqual(['store-files-add', ['pasted.txt']]);
});

test('looks right: light, dark, right-to-left and French on a 360 px phone, without overflow', async ({
  page,
}, info) => {
  await page.setViewportSize({ width: 360, height: 800 });
  const long = 'a-very-long-file-name-without-any-spaces-that-keeps-going-and-going.txt';
  for (const look of [
    { name: 'light', lang: 'en', dir: 'ltr', scheme: 'light' },
    { name: 'dark', lang: 'en', dir: 'ltr', scheme: 'dark' },
    { name: 'rtl-fr', lang: 'fr', dir: 'rtl', scheme: 'light' },
  ] as const) {
    await page.emulateMedia({ colorScheme: look.scheme });
    await open(page, `look-${look.name}`, uploaderTag('share accept=".txt"'), {
      lang: look.lang,
      dir: look.dir,
      css: `html { color-scheme: ${look.scheme}; }`,
    });
    const chooser = page.waitForEvent('filechooser');
    await page.locator('store-uploader [part="browse-button"]').click();
    await (
      await chooser
    ).setFiles([
      { name: long, mimeType: 'text/plain', buffer: Buffer.from('hello') },
      { name: `${long}.png`, mimeType: 'image/png', buffer: Buffer.from('png') },
    ]);
    // On a phone a row shows its state as an icon; the words stay its tooltip and the bar's description.
    const done = look.lang === 'fr' ? 'Envoyé' : 'Uploaded';
    await expect(page.locator('store-uploader [role="listitem"][data-state="done"]')).toHaveCount(1, {
      timeout: 30_000,
    });
    await expect(page.locator(`store-uploader [part~="state"][title="${done}"]`)).toHaveCount(1);
    await expect(page.locator('store-uploader [part="share"]')).toBeVisible();
    const shot = info.outputPath(`uploader-${look.name}.png`);
    await page.screenshot({ path: shot, fullPage: true });
    await info.attach(look.name, { path: shot, contentType: 'image/png' });

    // Nothing sticks out sideways: not the page, and no box inside any shadow root.
    const overflow = await page.evaluate(() => {
      const out: string[] = [];
      if (document.documentElement.scrollWidth > innerWidth) out.push(`page ${document.documentElement.scrollWidth}`);
      const walk = (root: Document | ShadowRoot) => {
        for (const el of root.querySelectorAll('*')) {
          const box = el.getBoundingClientRect();
          if (box.width && (box.left < -0.5 || box.right > innerWidth + 0.5))
            out.push(`${el.tagName}.${el.className} ${Math.round(box.left)}..${Math.round(box.right)}`);
          if (el.shadowRoot) walk(el.shadowRoot);
        }
      };
      walk(document);
      return out;
    });
    expect(overflow, look.name).toEqual([]);

    const box = async (selector: string) => (await page.locator(selector).first().boundingBox())!;
    const browse = await box('store-uploader [part="browse-button"]');
    const folderButton = await box('store-uploader [part="folder-button"]');
    const track = await box('store-uploader [part="progress"]');
    const bar = await box('store-uploader [part="progress-bar"]');
    // Side by side (French labels may wrap them onto two lines), the first button is on the reading side.
    const sideBySide = Math.abs(browse.y - folderButton.y) < 2;
    if (look.dir === 'rtl') {
      if (sideBySide) expect(browse.x).toBeGreaterThan(folderButton.x);
      else expect(browse.y).toBeLessThan(folderButton.y);
      expect(Math.round(bar.x + bar.width)).toBe(Math.round(track.x + track.width));
    } else {
      expect(sideBySide).toBe(true);
      expect(browse.x).toBeLessThan(folderButton.x);
      expect(Math.round(bar.x)).toBe(Math.round(track.x));
    }
    const base = await page
      .locator('store-uploader store-dropzone [part="base"]')
      .evaluate((el) => getComputedStyle(el).backgroundColor);
    expect(base).toBe(look.scheme === 'dark' ? 'rgb(23, 23, 27)' : 'rgb(255, 255, 255)');
  }
});
