/**
 * The kit in Chromium against the service in `auth.mode: "jwt"`, its tokens from a real OpenID provider
 * (`oidc-provider`, test/server/helpers/oidc-provider.ts) that live 60 s, handed out by the app's token getter. Two
 * files go one after the other, the first held by the service for longer than a token lives (an `--admin` delay on
 * its PUT), so the second file's session start meets an expired token: the service refuses it (401, no clock skew
 * allowed here), the kit asks the getter again, and both files are stored byte-identical, owned by the provider's
 * person. Uses the browser bundle (`npm run build:browser`, or ELEMENTS_BUNDLE_DIR).
 */
import { expect, test, type Page } from '@playwright/test';
import { randomUUID } from 'node:crypto';
import { startBundleServer, type BundleServer } from './bundle-server.ts';
import { startService, type ServiceHandle } from '../server/helpers/service.ts';
import { AUDIENCE, startProvider, type TestProvider } from '../server/helpers/oidc-provider.ts';
import { randomBytes } from './demo-fixture.ts';

const KiB = 1024;
// The lifetime. One hold past it is a minute of the run in which no CPU works, and all of it on the browser
// stages' chain: one expired token shows the refresh as well as two (the last file needs no hold: no start follows it).
const TOKEN_TTL_S = 60;
/** Longer than a token lives, so the next file's start comes after the token it was given expired. */
const HOLD_MS = (TOKEN_TTL_S + 3) * 1000;
const FILES = 2;

let provider: TestProvider;
let service: ServiceHandle;
let server: BundleServer | undefined;
/** Every token the getter handed out, in order. */
const issued: string[] = [];

test.beforeAll(async () => {
  provider = await startProvider({ accessTokenTtl: TOKEN_TTL_S });
  service = await startService({
    config: {
      trustCa: [provider.caFile],
      auth: { mode: 'jwt', issuer: provider.issuer, audience: AUDIENCE, clockToleranceSeconds: 0 },
    },
  });
  server = await startBundleServer((_req, res, path) => {
    if (path !== '/provider-tokens.html') return false;
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(PAGE);
    return true;
  });
});
test.afterAll(async () => {
  await server?.close();
  await service?.stop();
  await provider?.close();
});

/** The element with an uploader whose getter asks the app (here: the provider, through the test) each time. */
const PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>provider tokens</title></head><body>
<store-uploader></store-uploader>
<script type="module">
  import { createUploader } from '/kit/store-upload-kit.js';
  const params = new URLSearchParams(location.search);
  const el = document.querySelector('store-uploader');
  const getAccessToken = () => window.providerToken();
  el.getAccessToken = getAccessToken;
  el.uploader = createUploader({
    baseUrl: params.get('service'),
    getAccessToken,
    resumableThreshold: 0,
    concurrency: 1,
    // The service holds each last PUT past a token's life: that is no stall.
    stallTimeoutMs: ${HOLD_MS * 2},
  });
  window.ready = true;
</script></body></html>`;

async function open(page: Page): Promise<void> {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.exposeFunction('providerToken', async () => {
    const token = await provider.userToken('sub-alice-7f3a');
    issued.push(token);
    return token;
  });
  await page.goto(`${server!.origin}/provider-tokens.html?service=${encodeURIComponent(service.url)}`);
  await page.waitForFunction(() => (window as unknown as { ready?: boolean }).ready === true);
  expect(errors).toEqual([]);
}

async function addFault(body: object): Promise<void> {
  expect((await service.api('POST', '/__admin/faults', { token: null, body })).status).toBe(200);
}

test('an upload longer than a token lives refreshes through the getter and stores every file byte-identical', async ({
  page,
}) => {
  test.setTimeout((FILES - 1) * HOLD_MS + 120_000);
  await open(page);
  // The PUT of each file but the last is held past a token's life; session starts are counted (a delay of nothing,
  // with hits).
  await addFault({
    match: { method: 'PUT', uploadType: 'resumable' },
    action: { type: 'delay', ms: HOLD_MS },
    times: FILES - 1,
  });
  await addFault({ match: { method: 'POST', uploadType: 'resumable' }, action: { type: 'delay', ms: 0 }, times: 100 });
  const files = Array.from({ length: FILES }, (_, i) => ({
    name: `t-${i}-${randomUUID()}.bin`,
    bytes: randomBytes(300 * KiB + 11 * i, 40 + i),
  }));
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: 'Browse files' }).click();
  await (
    await chooser
  ).setFiles(files.map((f) => ({ name: f.name, mimeType: 'application/octet-stream', buffer: f.bytes })));
  for (const f of files) {
    const row = page.getByRole('listitem').filter({ hasText: f.name });
    await expect(row.getByText('Uploaded', { exact: true })).toBeVisible({ timeout: HOLD_MS + 60_000 });
  }

  // Stored once each, byte-identical, owned by the provider's person.
  const owner = await provider.userToken('sub-alice-7f3a');
  for (const f of files) {
    const q = encodeURIComponent(`name = '${f.name}'`);
    const list = await service.api('GET', `/store/v3/files?q=${q}&fields=files(id,size,owners)`, { token: owner });
    const found = list.json().files as { id: string; size: string; owners: { emailAddress: string }[] }[];
    expect(found).toHaveLength(1);
    expect(found[0]!.owners[0]!.emailAddress).toBe('alice@example.com');
    const stored = await service.api('GET', `/store/v3/files/${found[0]!.id}?alt=media`, { token: owner });
    expect(Buffer.compare(stored.body, f.bytes)).toBe(0);
  }

  // The second start met an expired token (refused, then sent again with a fresh one).
  const faults = (await service.api('GET', '/__admin/faults', { token: null })).json().faults as {
    match: { method?: string };
    hits: number;
  }[];
  expect(faults.find((f) => f.match.method === 'POST')?.hits).toBe(FILES + (FILES - 1));
  expect(new Set(issued).size).toBeGreaterThanOrEqual(FILES);
});
