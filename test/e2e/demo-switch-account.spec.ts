/**
 * The demo switches completely when "Signed in as" changes (issue 37): with Alice signed in, an upload of hers running
 * and her live feed open, the user picks Bob; right after, Alice changes her drive through the API. Bob sees none of
 * it — not in the stored files (also after Refresh, and on the site's Files page), not in the live feed, not in the
 * uploads list — and no request with Alice's token reaches the service after the switch. Every request the page and
 * the site's shared worker send goes through a recording proxy in front of the service, so the log holds both (a
 * resumable session's PUTs carry no token: none may follow the switch, as Bob has no upload).
 */
import { expect, test, type Page } from '@playwright/test';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes, startDemoFixture, type DemoFixture } from './demo-fixture.ts';

const ALICE = 'dev-token-alice';
const BOB = 'dev-token-bob';

/** A request as the service received it. */
interface Logged {
  method: string;
  url: string;
  authorization: string;
}

let demo: DemoFixture;
let proxy: Server;
let proxyUrl: string;
const log: Logged[] = [];

test.beforeAll(async () => {
  demo = await startDemoFixture({ relay: true });
  const upstream = new URL(demo.service.url);
  proxy = createServer((req, res) => {
    log.push({ method: req.method ?? '', url: req.url ?? '', authorization: req.headers.authorization ?? '' });
    const out = request(
      { host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    out.on('error', () => res.destroy());
    res.on('close', () => out.destroy());
    req.pipe(out);
  });
  await new Promise<void>((done) => proxy.listen(0, '127.0.0.1', done));
  proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
});
test.afterAll(async () => {
  proxy?.closeAllConnections();
  await new Promise<void>((done) => (proxy ? proxy.close(() => done()) : done()));
  await demo?.service.api('DELETE', '/__admin/faults', { token: null });
  await demo?.stop();
});

/** The demo page pointed at the recording proxy instead of the service. */
function pageUrl(): string {
  const url = new URL(demo.pageUrl());
  url.searchParams.set('service', proxyUrl);
  return url.href;
}

async function create(token: string, name: string): Promise<string> {
  const r = await demo.service.api('POST', '/store/v3/files', { token, body: { name } });
  expect(r.status, r.text).toBe(200);
  return r.json<{ id: string }>().id;
}

/** Bob's page shows `marker` (made by Bob after Alice's change) in its list and feed: both have caught up. */
async function caughtUp(page: Page, marker: string): Promise<void> {
  await expect(page.getByRole('rowheader', { name: marker, exact: true })).toBeVisible();
}

test('switching to Bob mid-upload: Bob sees nothing of Alice’s, and nothing is sent with her token after', async ({
  page,
}) => {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await create(ALICE, 'alice-before.txt');
  await page.goto(pageUrl());
  await expect(page.locator('#feed-status')).toContainText('Watching the change log until');
  await expect(page.getByRole('rowheader', { name: 'alice-before.txt', exact: true })).toBeVisible();

  // Alice's upload, slowed at the service so it is still running when she signs out.
  const delayed = await demo.service.api('POST', '/__admin/faults', {
    token: null,
    body: { match: { method: 'PUT', uploadType: 'resumable' }, action: { type: 'delay', ms: 400 }, times: 100 },
  });
  expect(delayed.status, delayed.text).toBeLessThan(300);
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: 'Browse files' }).click();
  await (
    await chooser
  ).setFiles([
    { name: 'alice-upload.bin', mimeType: 'application/octet-stream', buffer: randomBytes(6 * 1024 * 1024, 3) },
  ]);
  await expect(page.locator('store-progress-list [data-state="uploading"]')).toHaveCount(1);
  // A session's PUTs carry no token (its URI is the capability the service gave Alice): they are counted apart.
  await expect.poll(() => log.some((r) => r.method === 'PUT')).toBe(true);

  await page.locator('#account').selectOption(BOB);
  await expect(page.locator('body')).toHaveAttribute('data-signed-in', BOB);
  const switched = log.length;
  // Alice changes her drive right after the switch, from elsewhere (her phone).
  await create(ALICE, 'alice-after-switch.txt');
  await create(BOB, 'bob-marker.txt');

  const feed = page.getByRole('list', { name: 'Changes, newest first' });
  await expect(feed.getByRole('listitem').first()).toContainText('bob-marker.txt added');
  await caughtUp(page, 'bob-marker.txt');
  await expect(feed).not.toContainText('alice');
  await expect(page.locator('#stored')).not.toContainText('alice');
  await expect(page.locator('store-progress-list')).not.toContainText('alice-upload.bin');
  await expect(page.locator('#token')).toHaveText(BOB);

  await page.getByRole('button', { name: 'Refresh' }).click();
  await expect(page.locator('#stored-status')).toHaveText(/stored file/);
  await caughtUp(page, 'bob-marker.txt');
  await expect(page.locator('#stored')).not.toContainText('alice');

  // Every page of the site: the Files page, reached through the site's link, is Bob's too.
  await page.getByRole('navigation', { name: 'Demo site' }).getByRole('link', { name: 'Files' }).click();
  await caughtUp(page, 'bob-marker.txt');
  await expect(page.locator('#stored')).not.toContainText('alice');
  await expect(page.locator('store-progress-list')).not.toContainText('alice-upload.bin');

  const after = log.slice(switched);
  expect(after.length).toBeGreaterThan(0);
  expect(after.filter((r) => r.authorization === `Bearer ${ALICE}`)).toEqual([]);
  expect(
    after.filter((r) => r.method === 'PUT'),
    'Alice’s upload sends nothing more',
  ).toEqual([]);
  expect(after.some((r) => r.authorization === `Bearer ${BOB}`)).toBe(true);
  expect(errors).toEqual([]);
});
