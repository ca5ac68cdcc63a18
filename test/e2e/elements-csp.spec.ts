/**
 * The elements in a page under a strict Content-Security-Policy (issue 12): the self-contained browser bundle
 * (`bundle-server.ts`) served with the policy on every response —
 * the page, the bundle and the worker script, since a worker takes its policy from its own response — and the real
 * reference service behind the same origin (the policy allows no other), so the upload is real.
 *
 * The policy carries a `report-uri` this server listens to: a violation inside the worker fires no
 * `securitypolicyviolation` event in the page, only the report hears it. Each test fails on any report, but for
 * one: under the strict policy the hash worker tries WebAssembly once, is refused (one `wasm-eval` report) and
 * falls back to the JavaScript MD5 — that single report is how it finds out (`wasm: false` on `createUploader` avoids
 * even that; see the uploader's own CSP spec).
 *
 * Three variants: the kit's faster policy (with `'wasm-unsafe-eval'` for the worker's MD5 hasher), the strict
 * one without it, and the faster one with Trusted Types enforced (`require-trusted-types-for 'script'`), where a
 * worker starts only from a `TrustedScriptURL`.
 */
import { expect, test, type Page } from '@playwright/test';
import { createHash } from 'node:crypto';
import { request, type IncomingMessage, type ServerResponse } from 'node:http';
import { startBundleServer, type BundleServer } from './bundle-server.ts';
import { startService, type ServiceHandle } from '../server/helpers/service.ts';
import { randomBytes } from './demo-fixture.ts';

const TOKEN = 'dev-token-alice';
/** The policy of issue 12, word for word, plus where to report. */
const STRICT = "default-src 'self'; script-src 'self'; style-src 'self'; worker-src 'self'";
const WITH_WASM = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; worker-src 'self'";
/** Trusted Types enforced, with policy names restricted to Lit's and the kit's (as a page that lists them would). */
const TRUSTED_TYPES = `${WITH_WASM}; require-trusted-types-for 'script'; trusted-types lit-html store-upload-kit`;
const SERVICE_PREFIXES = ['/store/', '/upload/', '/batch/'];

let service: ServiceHandle;
let server: BundleServer | undefined;
let origin = '';
let policy = STRICT;
const reports: unknown[] = [];

const PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>csp</title>
<link rel="stylesheet" href="/page.css"></head><body>
<store-uploader base-url="ORIGIN" token="${TOKEN}" chunk-size="262144" resumable-threshold="0"></store-uploader>
<script type="module" src="/kit/store-upload-kit.js"></script></body></html>`;

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((done) => {
    let text = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => (text += c));
    req.on('end', () => done(text));
  });
}

/** Passes a service request through, keeping the Host so the session `Location` names this origin. */
function proxy(req: IncomingMessage, res: ServerResponse): void {
  const target = new URL(service.url);
  const upstream = request(
    { host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers },
    (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    },
  );
  upstream.on('error', () => res.writeHead(502).end());
  req.pipe(upstream);
}

test.beforeAll(async () => {
  service = await startService();
  const csp = () => ({ 'content-security-policy': `${policy}; report-uri /csp-report` });
  server = await startBundleServer((req, res, path) => {
    if (SERVICE_PREFIXES.some((p) => path.startsWith(p))) return (proxy(req, res), true);
    if (path === '/csp-report') {
      void readBody(req).then((text) => {
        reports.push(JSON.parse(text || 'null'));
        res.writeHead(204).end();
      });
      return true;
    }
    if (path === '/')
      res.writeHead(200, { ...csp(), 'content-type': 'text/html; charset=utf-8' }).end(PAGE.replace('ORIGIN', origin));
    else if (path === '/page.css')
      res.writeHead(200, { ...csp(), 'content-type': 'text/css' }).end('body { margin: 1rem; inline-size: 40rem; }');
    else return false;
    return true;
  }, csp);
  origin = server.origin;
});

test.afterAll(async () => {
  await server?.close();
  await service?.stop();
});

test.beforeEach(() => {
  reports.length = 0;
});

/** Uploads one file through the element's chooser; returns the row once it has settled (done or failed). */
async function uploadOne(page: Page, bytes: Buffer) {
  const violations: string[] = [];
  await page.exposeFunction('cspViolation', (v: string) => violations.push(v));
  await page.addInitScript(() =>
    document.addEventListener('securitypolicyviolation', (e) =>
      (window as unknown as { cspViolation(v: string): void }).cspViolation(
        `${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}:${e.columnNumber} ${e.sample}`,
      ),
    ),
  );
  await page.goto(`${origin}/`);
  await page.waitForFunction(() => customElements.get('store-uploader') !== undefined);
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: 'Browse files' }).click();
  await (await chooser).setFiles({ name: 'csp.bin', mimeType: 'application/octet-stream', buffer: bytes });
  const row = page.getByRole('listitem').filter({ hasText: 'csp.bin' });
  await expect(row).toHaveAttribute('data-state', /^(done|failed)$/, { timeout: 30_000 });
  return { row, violations };
}

async function expectUploaded(page: Page, bytes: Buffer, violations: string[]): Promise<void> {
  const row = page.getByRole('listitem').filter({ hasText: 'csp.bin' });
  await expect(row).toHaveAttribute('data-state', 'done');
  const bar = row.locator('[part~="progress-bar"]');
  const track = row.locator('[part~="progress"]');
  const trackWidth = (await track.boundingBox())?.width ?? -1;
  expect(trackWidth).toBeGreaterThan(0);
  await expect.poll(async () => Math.round((await bar.boundingBox())?.width ?? 0)).toBe(Math.round(trackWidth));
  const value = await page.evaluate(
    () => (document.querySelector('store-uploader') as Element & { value: string[] }).value,
  );
  const stored = await service.api('GET', `/store/v3/files/${value[0]}?alt=media`, { token: TOKEN });
  expect(Buffer.compare(stored.body, bytes)).toBe(0);
  const meta = await service.api('GET', `/store/v3/files/${value[0]}?fields=md5Checksum,size`, { token: TOKEN });
  expect(meta.json<{ size: string; md5Checksum: string }>()).toEqual({
    size: String(bytes.length),
    md5Checksum: createHash('md5').update(bytes).digest('hex'),
  });
  // Reports are sent asynchronously: a navigation to a report-free page flushes whatever is queued.
  await page.goto('about:blank');
  expect(violations).toEqual([]);
  const refusedWasm = (r: unknown) => {
    const report = (r as { 'csp-report'?: Record<string, string> })?.['csp-report'];
    return report?.['blocked-uri'] === 'wasm-eval' && report['effective-directive'] === 'script-src';
  };
  expect(reports.filter((r) => !(policy === STRICT && refusedWasm(r)))).toEqual([]);
  expect(reports.filter(refusedWasm).length).toBeLessThanOrEqual(policy === STRICT ? 1 : 0);
}

test("with 'wasm-unsafe-eval': a resumable upload is stored, MD5 verified, the bar fills, no violation", async ({
  page,
}) => {
  policy = WITH_WASM;
  const bytes = randomBytes(3 * 262_144 + 17, 11);
  const { violations } = await uploadOne(page, bytes);
  await expectUploaded(page, bytes, violations);
});

test('strict policy, no relaxation: the upload is stored, MD5 verified, the bar fills, no violation', async ({
  page,
}) => {
  policy = STRICT;
  const bytes = randomBytes(3 * 262_144 + 17, 12);
  const { violations } = await uploadOne(page, bytes);
  await expectUploaded(page, bytes, violations);
});

test("Trusted Types enforced: the kit's workers start through its policy; the upload is stored, MD5 verified, no violation", async ({
  page,
}) => {
  policy = TRUSTED_TYPES;
  const bytes = randomBytes(3 * 262_144 + 17, 13);
  const { violations } = await uploadOne(page, bytes);
  await expectUploaded(page, bytes, violations);
});
