// Getting files back from a finished row: a CSV uploaded with conversion to the service's spreadsheet kind offers
// "Download as" each format the about resource's `exportFormats` lists for spreadsheets; choosing CSV and pressing
// the row's download button saves a file (a real browser download, through `<a download>`) with the same cells. A
// file uploaded as it is offers "Download" and saves the stored bytes. Real Chromium, the built bundle, the real
// service. Build first: `npm run build:browser`.
import { expect, test, type Download, type Page } from '@playwright/test';
import { readFile } from 'node:fs/promises';
import { startBundleServer, type BundleServer } from './bundle-server.ts';
import { startService, type ServiceHandle } from '../server/helpers/service.ts';

const TOKEN = 'dev-token-alice';
const CSV = 'fruit,count,price\napple,3,1.25\npear,12,0.5\n"plum, red",7,2\n';

let service: ServiceHandle;
let server: BundleServer | undefined;

test.beforeAll(async () => {
  service = await startService();
  server = await startBundleServer((_req, res, path) => {
    if (path !== '/download.html') return false;
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
      .end(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>download</title></head>
<body><store-uploader base-url="${service.url}" token="${TOKEN}"></store-uploader><script type="module">import '/kit/store-upload-kit.js';</script></body></html>`);
    return true;
  });
});

test.afterAll(async () => {
  await server?.close();
  await service?.stop();
});

async function open(page: Page): Promise<void> {
  await page.goto(`${server!.origin}/download.html`);
  await page.waitForFunction(() => customElements.get('store-uploader') !== undefined);
}

/** Chooses one file through "Browse files" (the input's chooser: Chromium refuses pickers while it is intercepted). */
async function choose(page: Page, name: string, mimeType: string, body: string): Promise<void> {
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: 'Browse files' }).click();
  await (await chooser).setFiles({ name, mimeType, buffer: Buffer.from(body) });
}

/** Cells of a CSV text (quoted fields with commas, CRLF or LF line ends). */
function cells(text: string): string[][] {
  return text
    .replace(/\r\n/g, '\n')
    .trim()
    .split('\n')
    .map((line) =>
      [...line.matchAll(/("([^"]|"")*"|[^,]*)(,|$)/g)]
        .filter((m) => m.index < line.length || m[1] !== '')
        .map((m) => m[1].replace(/^"|"$/g, '').replace(/""/g, '"')),
    );
}

async function saved(download: Download): Promise<string> {
  return readFile(await download.path(), 'utf8');
}

test('a CSV converted to a spreadsheet downloads back as CSV with the same cells through the row\'s "Download as"', async ({
  page,
}) => {
  await open(page);
  await page.getByRole('checkbox', { name: 'Convert files to native formats where possible' }).check();
  await choose(page, 'fruit.csv', 'text/csv', CSV);
  const row = page.getByRole('listitem').filter({ hasText: 'fruit.csv' });
  await expect(row.getByText('Uploaded as Spreadsheet')).toBeVisible({ timeout: 30_000 });

  const format = row.getByRole('combobox', { name: 'Download fruit.csv as' });
  await expect(format.locator('option')).toHaveText(['CSV', 'TSV', 'XLSX', 'ODS']);
  // Changing the choice downloads nothing; the button beside it does (reached with Tab, pressed with Enter).
  let downloads = 0;
  page.on('download', () => downloads++);
  await format.selectOption('text/tab-separated-values');
  await format.selectOption('text/csv');
  await format.focus();
  const downloading = page.waitForEvent('download');
  await page.keyboard.press('Tab');
  await page.keyboard.press('Enter');
  const download = await downloading;
  expect(download.suggestedFilename()).toBe('fruit.csv');
  expect(cells(await saved(download))).toEqual(cells(CSV));
  expect(downloads).toBe(1);
});

test('a file uploaded as it is offers "Download", which saves the stored bytes', async ({ page }) => {
  await open(page);
  await choose(page, 'notes.txt', 'text/plain', 'plain words\n');
  const row = page.getByRole('listitem').filter({ hasText: 'notes.txt' });
  await expect(row.getByText('Uploaded', { exact: true })).toBeVisible({ timeout: 30_000 });
  await expect(row.getByRole('combobox')).toHaveCount(0);
  const downloading = page.waitForEvent('download');
  await row.getByRole('button', { name: 'Download notes.txt' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe('notes.txt');
  expect(await saved(download)).toBe('plain words\n');
});
