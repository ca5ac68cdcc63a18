/**
 * The demo page against the real reference service: what a newcomer does after `npm start`. Build first
 * (`npm run build:demos`); each test file starts its own service on port 0 with a temp data dir.
 */
import { expect, test, type Page } from '@playwright/test';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { randomBytes, startDemoFixture, type DemoFixture } from './demo-fixture.ts';

const BOB = 'dev-token-bob';

let demo: DemoFixture;

test.beforeAll(async () => {
  demo = await startDemoFixture();
});
test.afterAll(async () => {
  await demo?.stop();
});
test.beforeEach(async () => {
  await demo.service.api('DELETE', '/__admin/faults', { token: null });
});

/** Chooses files through the uploader's own "Browse files" button, as a user would. */
async function chooseFiles(
  page: Page,
  files: { name: string; mimeType: string; buffer: Buffer }[] | string,
): Promise<void> {
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: 'Browse files' }).click();
  await (await chooser).setFiles(files);
}

/** The stored file's ID, read from its row in the demo's "Stored files" table once it shows up. */
async function storedId(page: Page, name: string): Promise<string> {
  const row = page.locator('#stored tr', { has: page.getByRole('rowheader', { name, exact: true }) });
  await expect(row).toHaveCount(1, { timeout: 30_000 });
  const id = await row.getAttribute('data-id');
  expect(id).toBeTruthy();
  return id!;
}

async function downloadThroughApi(fileId: string): Promise<Buffer> {
  const response = await demo.service.api('GET', `/store/v3/files/${encodeURIComponent(fileId)}?alt=media`);
  expect(response.status).toBe(200);
  return response.body;
}

test('a chosen file is stored byte-identical and listed', async ({ page }) => {
  await page.goto(demo.pageUrl());
  await expect(page.getByRole('heading', { name: 'store-upload-kit demo' })).toBeVisible();
  await expect(page.locator('#stored-status')).toHaveText('0 stored files.');
  // 2.5 MiB goes resumable in 1 MiB chunks (the demo's settings): several requests, two 308s, one final 200.
  const bytes = randomBytes(2.5 * 1024 * 1024, 7);
  await chooseFiles(page, [{ name: 'random.bin', mimeType: 'application/octet-stream', buffer: bytes }]);

  const id = await storedId(page, 'random.bin');
  const stored = await downloadThroughApi(id);
  expect(stored.length).toBe(bytes.length);
  expect(stored.equals(bytes)).toBe(true);
  const row = page.locator(`#stored tr[data-id="${id}"]`);
  await expect(row).toContainText(createHash('md5').update(bytes).digest('hex'));
  await expect(page.locator('store-progress-list [data-state="done"]')).toHaveCount(1);
});

test('a CSV is converted to a spreadsheet when conversion is chosen, with the same cells', async ({ page }) => {
  await page.goto(demo.pageUrl());
  await page.getByRole('checkbox', { name: 'Convert files to native formats where possible' }).check();
  // Quoted commas, an embedded quote and non-ASCII text: the cells must survive the round trip exactly.
  const csv = 'name,age,city\nAnn,34,"Paris, France"\nBen,29,"Say ""hi"""\nZoë,41,Zürich\n';
  await chooseFiles(page, [{ name: 'people.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) }]);

  const id = await storedId(page, 'people.csv');
  const file = (await demo.service.api('GET', `/store/v3/files/${id}?fields=mimeType`)).json<{ mimeType: string }>();
  expect(file.mimeType).toBe('application/vnd.svc-apps.spreadsheet');
  await expect(page.locator(`#stored tr[data-id="${id}"]`)).toContainText('application/vnd.svc-apps.spreadsheet');

  // Exported back as CSV through the API, the spreadsheet holds exactly the cells that were uploaded.
  const exported = await demo.service.api('GET', `/store/v3/files/${id}/export?mimeType=text/csv`);
  expect(exported.status, exported.text).toBe(200);
  expect(exported.headers['content-type']).toMatch(/^text\/csv/);
  expect(parse(exported.text)).toEqual([
    ['name', 'age', 'city'],
    ['Ann', '34', 'Paris, France'],
    ['Ben', '29', 'Say "hi"'],
    ['Zoë', '41', 'Zürich'],
  ]);

  // The stored-files table offers the spreadsheet as each format it exports to; CSV gives back the same cells.
  const stored = page.locator(`#stored tr[data-id="${id}"]`);
  await expect(stored.getByRole('button', { name: /^Download people\.csv as / })).toHaveText([
    'CSV',
    'TSV',
    'XLSX',
    'ODS',
  ]);
  const download = page.waitForEvent('download');
  await stored.getByRole('button', { name: 'Download people.csv as CSV' }).click();
  const saved = await download;
  expect(saved.suggestedFilename()).toBe('people.csv');
  expect(parse(readFileSync(await saved.path(), 'utf8'))).toEqual(parse(exported.text));
});

test('sharing two uploaded files with Bob grants both in one batch request', async ({ page }) => {
  // Every request the page sends to the service, as the service sees it (method, path and body).
  const sent: { method: string; path: string; body: string }[] = [];
  page.on('request', (r) => {
    if (r.url().startsWith(demo.service.url))
      sent.push({ method: r.method(), path: new URL(r.url()).pathname, body: r.postData() ?? '' });
  });
  await page.goto(demo.pageUrl());
  await chooseFiles(page, [
    { name: 'share-a.txt', mimeType: 'text/plain', buffer: Buffer.from('first file for Bob') },
    { name: 'share-b.txt', mimeType: 'text/plain', buffer: Buffer.from('second file for Bob') },
  ]);
  const ids = [await storedId(page, 'share-a.txt'), await storedId(page, 'share-b.txt')];
  // Before sharing, Bob cannot see them.
  for (const id of ids)
    expect((await demo.service.api('GET', `/store/v3/files/${id}?fields=id`, { token: BOB })).status).toBe(404);

  const share = page.getByRole('group', { name: 'Share with' });
  await share.getByLabel('E-mail addresses or domains').fill('bob@example.com');
  await share.getByLabel('Access').selectOption('reader');
  await share.getByRole('button', { name: 'Share 2 files' }).click();
  await expect(share.getByRole('status')).toHaveText('Shared with 1 person.');
  // No error shown (the step may leave its alert region out when there is nothing to say).
  await expect(share.getByRole('alert').filter({ hasText: /\S/ })).toHaveCount(0);

  // One batch request carried both grants, each without a notification e-mail; no permission call went alone.
  const batches = sent.filter((r) => r.method === 'POST' && r.path === '/batch/store/v3');
  expect(batches).toHaveLength(1);
  expect(sent.filter((r) => r.path.includes('/permissions'))).toEqual([]);
  const inner = [...batches[0].body.matchAll(/^POST (\S+) HTTP\/1\.1\r?$/gm)].map((m) => new URL(m[1], 'http://x'));
  expect(inner.map((u) => u.pathname).sort()).toEqual(ids.map((id) => `/store/v3/files/${id}/permissions`).sort());
  for (const u of inner) expect(u.searchParams.get('sendNotificationEmail')).toBe('false');

  // Bob now sees both files, as a reader, with their content.
  const bobsList = (await demo.service.api('GET', '/store/v3/files?fields=files(id,name)', { token: BOB })).json<{
    files: { id: string; name: string }[];
  }>();
  expect(
    bobsList.files
      .filter((f) => ids.includes(f.id))
      .map((f) => f.name)
      .sort(),
  ).toEqual(['share-a.txt', 'share-b.txt']);
  const contents = ['first file for Bob', 'second file for Bob'];
  for (const [i, id] of ids.entries()) {
    const content = await demo.service.api('GET', `/store/v3/files/${id}?alt=media`, { token: BOB });
    expect(content.status).toBe(200);
    expect(content.text).toBe(contents[i]);
    const perms = (
      await demo.service.api('GET', `/store/v3/files/${id}/permissions?fields=permissions(type,role,emailAddress)`)
    ).json<{
      permissions: { type: string; role: string; emailAddress?: string }[];
    }>();
    expect(perms.permissions.filter((p) => p.emailAddress === 'bob@example.com')).toEqual([
      { type: 'user', role: 'reader', emailAddress: 'bob@example.com' },
    ]);
    // A reader cannot change the file.
    const rename = await demo.service.api('PATCH', `/store/v3/files/${id}`, {
      token: BOB,
      body: { name: 'renamed-by-bob.txt' },
    });
    expect(rename.status).toBe(403);
  }
});

test('the share step says what is wrong with an entry and grants nothing', async ({ page }) => {
  const sent: string[] = [];
  page.on('request', (r) => {
    if (
      r.url().startsWith(demo.service.url) &&
      r.method() === 'POST' &&
      new URL(r.url()).pathname === '/batch/store/v3'
    )
      sent.push(r.url());
  });
  await page.goto(demo.pageUrl());
  await chooseFiles(page, [{ name: 'share-bad.txt', mimeType: 'text/plain', buffer: Buffer.from('nobody gets this') }]);
  const id = await storedId(page, 'share-bad.txt');
  const share = page.getByRole('group', { name: 'Share with' });
  const emails = share.getByLabel('E-mail addresses or domains');
  await emails.fill('bob@example.com, not an address');
  await share.getByRole('button', { name: 'Share 1 file' }).click();
  await expect(share.getByRole('alert')).toHaveText('"not" is neither an e-mail address nor a domain.');
  await expect(emails).toHaveAttribute('aria-invalid', 'true');
  expect(sent).toEqual([]);
  expect((await demo.service.api('GET', `/store/v3/files/${id}?fields=id`, { token: BOB })).status).toBe(404);
});

test('cancelling an upload stores nothing', async ({ page }) => {
  // Every chunk of the session waits 1.5 s at the service, so the upload is still running when Cancel is pressed.
  const fault = await demo.service.api('POST', '/__admin/faults', {
    token: null,
    body: { match: { method: 'PUT', uploadType: 'resumable' }, action: { type: 'delay', ms: 1500 }, times: 20 },
  });
  expect(fault.status).toBe(200);
  await page.goto(demo.pageUrl());
  await chooseFiles(page, [
    { name: 'cancel-me.bin', mimeType: 'application/octet-stream', buffer: randomBytes(3 * 1024 * 1024, 3) },
  ]);

  const row = page.locator('store-progress-list [data-state]');
  await expect(row).toHaveAttribute('data-state', 'uploading', { timeout: 15_000 });
  await page.getByRole('button', { name: 'Cancel cancel-me.bin' }).click();
  await expect(row).toHaveAttribute('data-state', 'cancelled');
  await expect(row).toContainText('Cancelled');

  // The service holds no file of that name, and the demo's list says so.
  const list = (
    await demo.service.api('GET', `/store/v3/files?q=${encodeURIComponent("name = 'cancel-me.bin'")}&fields=files(id)`)
  ).json<{ files: unknown[] }>();
  expect(list.files).toEqual([]);
  await page.getByRole('button', { name: 'Refresh' }).click();
  await expect(page.getByRole('rowheader', { name: 'cancel-me.bin' })).toHaveCount(0);
});

test('an upload goes on through a reload of the demo (the shared worker of the site runs it) and completes byte-identical, once', async ({
  page,
}) => {
  // The first chunk goes through at once; the later ones are held, so the reload lands mid-upload.
  await demo.service.api('POST', '/__admin/faults', {
    token: null,
    body: {
      match: { method: 'PUT', uploadType: 'resumable' },
      action: { type: 'delay', ms: 5000 },
      skip: 1,
      times: 20,
    },
  });
  await page.goto(demo.pageUrl());
  const bytes = randomBytes(3 * 1024 * 1024, 5);
  // A file on disk, so choosing it again gives the same name, size and modification time, as for a real user.
  const dir = mkdtempSync(join(tmpdir(), 'demo-resume-'));
  const path = join(dir, 'resume-me.bin');
  writeFileSync(path, bytes);
  await chooseFiles(page, path);
  // The first chunk acknowledged (a 308), as the page sees it: the site's shared worker sends it, and its requests
  // are not the page's.
  await expect
    .poll(
      () =>
        page.evaluate(
          () =>
            (
              document.getElementById('uploader') as unknown as {
                activeUploader?: { snapshot: { tasks: { bytesAcknowledged: number }[] } };
              }
            ).activeUploader?.snapshot.tasks[0]?.bytesAcknowledged ?? 0,
        ),
      { timeout: 30_000 },
    )
    .toBeGreaterThan(0);

  await page.reload();
  // The reloaded page lists the running upload at once, with no click, and nothing as unfinished.
  await expect(page.getByRole('listitem').filter({ hasText: 'resume-me.bin' })).toBeVisible({ timeout: 15_000 });
  await expect(page.getByRole('group', { name: 'Unfinished uploads' })).toHaveCount(0);
  await demo.service.api('DELETE', '/__admin/faults', { token: null });

  const id = await storedId(page, 'resume-me.bin');
  const stored = await downloadThroughApi(id);
  expect(stored.length).toBe(bytes.length);
  expect(stored.equals(bytes)).toBe(true);
  // Resumed, not uploaded twice: the service holds one file of that name.
  const same = (
    await demo.service.api('GET', `/store/v3/files?q=${encodeURIComponent("name = 'resume-me.bin'")}&fields=files(id)`)
  ).json<{ files: unknown[] }>();
  expect(same.files).toHaveLength(1);
  rmSync(dir, { recursive: true, force: true });
});
