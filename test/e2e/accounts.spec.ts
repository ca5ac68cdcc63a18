/**
 * Uploads belong to the account that chose them (issue 28), as a user of a small site meets it: every page holds the
 * same `<store-uploader base-url=… token=… concurrency="1">` from the built bundle, only the token differs per signed-in
 * account, and the uploads run in the site's one shared worker behind a proxy that reads bodies at a limited rate (so
 * each step lands mid-upload). A sign-out revokes the token at the service (`/__admin/tokens`), as a real one does.
 * Every wait is for a state (bytes at the proxy, a row, a file in a drive), never for time.
 */
import { expect, test, type Page } from '@playwright/test';
import { createHash, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startBundleServer, type BundleServer } from './bundle-server.ts';
import { randomBytes } from './demo-fixture.ts';
import { startService, type ServiceHandle } from '../server/helpers/service.ts';
import { startCountingProxy, type CountingProxy } from '../client/helpers/counting-proxy.ts';

const MiB = 1024 * 1024;
const RATE = 6 * MiB;

let service: ServiceHandle;
let proxy: CountingProxy;
let site: BundleServer;
let dir: string;

const html = (token: string) => `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>app</title></head>
<body><h1>app</h1>
<store-uploader base-url="PROXY" token="${token}" concurrency="1"></store-uploader>
<script type="module" src="/kit/store-upload-kit-elements.js"></script>
</body></html>`;

test.beforeAll(async () => {
  service = await startService();
  proxy = await startCountingProxy(service.url);
  site = await startBundleServer((req, res, path) => {
    if (path !== '/app.html') return false;
    const token = new URL(req.url ?? '/', 'http://x').searchParams.get('token') ?? '';
    res
      .writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' })
      .end(html(token).replace('PROXY', proxy.url));
    return true;
  });
  dir = mkdtempSync(join(tmpdir(), 'accounts-'));
});
test.afterAll(async () => {
  await site?.close();
  await proxy?.close();
  await service?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});
test.beforeEach(() => {
  proxy.rate = RATE;
  proxy.requests.length = 0;
});

/** A new account at the service: a token issued for a fresh user, as a sign-in gives. */
async function signIn(who: string): Promise<{ token: string; user: string }> {
  const token = `tok-${who}-${randomUUID()}`;
  const user = `${who}-${randomUUID().slice(0, 8)}@example.com`;
  const r = await service.api('POST', '/__admin/tokens', { token: null, body: { token, user } });
  expect(r.status).toBe(201);
  return { token, user };
}

async function signOutAtService(token: string): Promise<void> {
  expect((await service.api('DELETE', `/__admin/tokens/${token}`, { token: null })).status).toBe(204);
}

/** A file of random bytes on disk, as a person would choose it. */
function fileOnDisk(prefix: string, size: number, seed: number): { path: string; name: string; md5: string } {
  const name = `${prefix}-${randomUUID()}.bin`;
  const bytes = randomBytes(size, seed);
  const path = join(dir, name);
  writeFileSync(path, bytes);
  return { path, name, md5: createHash('md5').update(bytes).digest('hex') };
}

async function choose(p: Page, ...paths: string[]): Promise<void> {
  const chooser = p.waitForEvent('filechooser');
  await p.getByRole('button', { name: 'Browse files' }).click();
  await (await chooser).setFiles(paths);
}

/** The names of the files in `token`'s drive, with their MD5. */
async function drive(token: string): Promise<Map<string, string>> {
  const r = await service.api('GET', '/store/v3/files?fields=files(name,md5Checksum)&pageSize=1000', { token });
  const files = (JSON.parse(r.text) as { files: { name: string; md5Checksum: string }[] }).files;
  return new Map(files.map((f) => [f.name, f.md5Checksum]));
}

/** Everything a page shows of uploads, as text: its shadow DOM, its live region, and its uploader's `tasks`. */
async function shown(p: Page): Promise<string> {
  return p.evaluate(async () => {
    const el = document.querySelector('store-uploader') as HTMLElement & {
      getUploader(): Promise<{ snapshot: { tasks: { name: string }[] } } | undefined>;
    };
    const uploader = await el.getUploader();
    const texts: string[] = [];
    const walk = (root: ShadowRoot | Element) => {
      for (const node of root.querySelectorAll('*')) {
        if (node.shadowRoot) walk(node.shadowRoot);
        if (node.childElementCount === 0) texts.push(node.textContent ?? '');
      }
    };
    if (el.shadowRoot) walk(el.shadowRoot);
    return [...texts, ...(uploader?.snapshot.tasks.map((t) => t.name) ?? [])].join('\n');
  });
}

async function untilSessionBytes(bytes: number): Promise<void> {
  await expect
    .poll(
      () =>
        proxy.requests
          .filter((r) => r.method === 'PUT' && r.url.includes('upload_id='))
          .reduce((sum, r) => sum + r.received, 0),
      { timeout: 60_000 },
    )
    .toBeGreaterThan(bytes);
}

test('sign-out and sign-in on one tab: the next account sees none of the first one’s uploads, and its drive receives none', async ({
  context,
}) => {
  const one = await signIn('one');
  const two = await signIn('two');
  const big = fileOnDisk('one-big', 24 * MiB, 31);
  const small = fileOnDisk('one-small', 3 * MiB, 32);
  const tab = await context.newPage();
  await tab.goto(`${site.origin}/app.html?token=${one.token}`);
  await choose(tab, big.path, small.path);
  await untilSessionBytes(0.3 * 24 * MiB);

  // Account one signs out (the token is revoked) and account two signs in, on the same tab.
  await signOutAtService(one.token);
  await tab.goto(`${site.origin}/app.html?token=${two.token}`);
  const mine = fileOnDisk('two-own', 2 * MiB, 33);
  await choose(tab, mine.path);
  await expect(tab.getByRole('listitem').filter({ hasText: mine.name })).toBeVisible({ timeout: 30_000 });
  proxy.rate = undefined;
  await expect.poll(async () => (await drive(two.token)).get(mine.name), { timeout: 60_000 }).toBe(mine.md5);
  // Account one's big file finishes in account one's drive: its session URI is a capability given before.
  await expect
    .poll(async () => (await drive(await tokenFor(one.user))).get(big.name), { timeout: 60_000 })
    .toBe(big.md5);
  // Account two's page, its live region and its uploader's tasks never name account one's files.
  const text = await shown(tab);
  expect(text).toContain(mine.name);
  expect(text).not.toContain(big.name);
  expect(text).not.toContain(small.name);
  const twoDrive = await drive(two.token);
  expect(twoDrive.has(big.name)).toBe(false);
  expect(twoDrive.has(small.name)).toBe(false);

  // When account one signs in again, its waiting upload goes on, into its own drive.
  const back = await context.newPage();
  const again = await tokenFor(one.user);
  await back.goto(`${site.origin}/app.html?token=${again}`);
  await expect.poll(async () => (await drive(again)).get(small.name), { timeout: 60_000 }).toBe(small.md5);
  expect((await drive(two.token)).has(small.name)).toBe(false);
  expect(await shown(tab)).not.toContain(small.name);
});

test('two tabs, two accounts at once: both upload, each sees only its own, each file lands in its chooser’s drive', async ({
  context,
}) => {
  const one = await signIn('left');
  const two = await signIn('right');
  const a = fileOnDisk('left', 8 * MiB, 41);
  const b = fileOnDisk('right', 8 * MiB, 42);
  const [left, right] = [await context.newPage(), await context.newPage()];
  await left.goto(`${site.origin}/app.html?token=${one.token}`);
  await right.goto(`${site.origin}/app.html?token=${two.token}`);
  await choose(left, a.path);
  await choose(right, b.path);
  await expect(left.getByRole('listitem').filter({ hasText: a.name })).toBeVisible({ timeout: 30_000 });
  await expect(right.getByRole('listitem').filter({ hasText: b.name })).toBeVisible({ timeout: 30_000 });
  proxy.rate = undefined;
  await expect.poll(async () => (await drive(one.token)).get(a.name), { timeout: 60_000 }).toBe(a.md5);
  await expect.poll(async () => (await drive(two.token)).get(b.name), { timeout: 60_000 }).toBe(b.md5);
  expect((await drive(one.token)).has(b.name)).toBe(false);
  expect((await drive(two.token)).has(a.name)).toBe(false);
  expect(await shown(left)).not.toContain(b.name);
  expect(await shown(right)).not.toContain(a.name);
});

test('sign-out with cancel: no IndexedDB record, file copy or open session of the account is left', async ({
  context,
}) => {
  const one = await signIn('leaving');
  const two = await signIn('staying');
  const leaving = fileOnDisk('leaving', 16 * MiB, 51);
  const staying = fileOnDisk('staying', 16 * MiB, 52);
  const [tab, other] = [await context.newPage(), await context.newPage()];
  await tab.goto(`${site.origin}/app.html?token=${one.token}`);
  await other.goto(`${site.origin}/app.html?token=${two.token}`);
  await choose(tab, leaving.path);
  await choose(other, staying.path);
  await untilSessionBytes(4 * MiB);
  await expect.poll(async () => (await records(tab)).map((r) => r.name), { timeout: 30_000 }).toContain(leaving.name);
  const session = (await records(tab)).find((r) => r.name === leaving.name)!.sessionUri;

  await tab.evaluate(() =>
    (document.querySelector('store-uploader') as HTMLElement & { signOut(o: object): Promise<void> }).signOut({
      uploads: 'cancel',
    }),
  );
  await signOutAtService(one.token);
  expect(await shown(tab)).not.toContain(leaving.name);
  // Nothing of the account is left in this browser; the other account's record is untouched.
  const left = (await records(tab)).map((r) => r.name);
  expect(left).not.toContain(leaving.name);
  expect(left).toContain(staying.name);
  // Its session at the service is gone (the URI answers 404 now).
  const uri = new URL(session);
  const status = await service.api('PUT', `${uri.pathname}${uri.search}`, {
    token: null,
    headers: { 'Content-Range': 'bytes */*' },
  });
  expect(status.status).toBe(404);
  proxy.rate = undefined;
  await expect.poll(async () => (await drive(two.token)).get(staying.name), { timeout: 60_000 }).toBe(staying.md5);
  expect((await drive(await tokenFor(one.user))).has(leaving.name)).toBe(false);
});

/** The uploads kept in the kit's IndexedDB session store (with any file copies), as the page can read them. */
function records(p: Page): Promise<{ name: string; sessionUri: string }[]> {
  return p.evaluate(
    () =>
      new Promise<{ name: string; sessionUri: string }[]>((resolve, reject) => {
        const open = indexedDB.open('store-upload-kit');
        open.onerror = () => reject(new Error(String(open.error)));
        open.onsuccess = () => {
          const db = open.result;
          if (!db.objectStoreNames.contains('sessions')) {
            resolve([]);
            return;
          }
          const all = db.transaction('sessions').objectStore('sessions').getAll();
          all.onsuccess = () =>
            resolve(
              (all.result as { name: string; sessionUri: string }[]).map(({ name, sessionUri }) => ({
                name,
                sessionUri,
              })),
            );
          all.onerror = () => reject(new Error(String(all.error)));
        };
      }),
  );
}

/** A fresh token for a user whose earlier token was revoked (a sign-in again). */
async function tokenFor(user: string): Promise<string> {
  const token = `tok-again-${randomUUID()}`;
  expect((await service.api('POST', '/__admin/tokens', { token: null, body: { token, user } })).status).toBe(201);
  return token;
}
