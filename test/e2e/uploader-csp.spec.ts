// The uploader under the strict Content-Security-Policy of issue 12 (no 'wasm-unsafe-eval'): the plain page with the
// built bundle, every response under the policy, violation reports collected by the page server (a refusal inside a
// worker is heard only there). Uploads must succeed with the MD5 verified; with `wasm: false` nothing is refused at
// all, and with the default the single refused WebAssembly compile is the only report. Build first: `npx vite build`.
import { expect, test, type Page } from '@playwright/test';
import { createHash, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from './demo-fixture.ts';
import { startService, type ServiceHandle } from '../server/helpers/service.ts';
import { startUploadPage, type UploadPage } from '../client/helpers/upload-page.ts';

const MiB = 1024 * 1024;

let service: ServiceHandle;
let pages: UploadPage;
let dir: string;

test.beforeAll(async () => {
  service = await startService();
  pages = await startUploadPage({ csp: true });
  dir = mkdtempSync(join(tmpdir(), 'uploader-csp-'));
});
test.afterAll(async () => {
  await pages?.stop();
  await service?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** Two files, one whole and one in 256 KiB chunks after a resumable start; resolves with what the page saw. */
async function uploadTwo(
  page: Page,
  options: object,
): Promise<{
  md5s: string[];
  results: { ok: boolean; file?: { md5Checksum: string; size: string }; code?: string }[];
}> {
  const paths: string[] = [];
  const md5s: string[] = [];
  for (const [i, size] of [3 * MiB + 5, 6 * MiB].entries()) {
    const bytes = randomBytes(size, 11 + i);
    const path = join(dir, `csp-${randomUUID()}.bin`);
    writeFileSync(path, bytes);
    paths.push(path);
    md5s.push(createHash('md5').update(bytes).digest('hex'));
  }
  await page.goto(pages.url(service.url, { resumableThreshold: 0, chunkSize: 256 * 1024, ...options }));
  await page.waitForFunction(() => 'kit' in globalThis);
  await page.setInputFiles('#file', paths);
  const handle = await page.waitForFunction(() => {
    const results = (globalThis as unknown as { kit: { results: unknown[] } }).kit.results;
    return results.length === 2 && results;
  });
  return { md5s, results: (await handle.jsonValue()) as never };
}

/**
 * Waits until every report the page caused has arrived: a fetch the policy refuses (connect-src) is reported after
 * anything refused before it, so once its report is in, the list is complete.
 */
async function settledReports(page: Page): Promise<Record<string, unknown>[]> {
  const before = pages.reports.length;
  await page.evaluate(() => fetch('http://127.0.0.2:9/sentinel').catch(() => undefined));
  await expect
    .poll(() => pages.reports.slice(before).some((r) => String(r['blocked-uri']).includes('127.0.0.2')))
    .toBe(true);
  return pages.reports.filter((r) => !String(r['blocked-uri']).includes('127.0.0.2'));
}

test('wasm: false uploads with the MD5 verified and no violation at all', async ({ page }) => {
  pages.reports.length = 0;
  const { md5s, results } = await uploadTwo(page, { wasm: false });
  expect(results.map((r) => r.ok)).toEqual([true, true]);
  expect(results.map((r) => r.file?.md5Checksum).sort()).toEqual([...md5s].sort());
  expect(await settledReports(page)).toEqual([]);
});

test('by default the refused WebAssembly compile is reported once and the uploads fall back to JavaScript MD5', async ({
  page,
}) => {
  pages.reports.length = 0;
  const { md5s, results } = await uploadTwo(page, {});
  expect(results.map((r) => r.ok)).toEqual([true, true]);
  expect(results.map((r) => r.file?.md5Checksum).sort()).toEqual([...md5s].sort());
  const reports = await settledReports(page);
  // Exactly one: the policy reached the hash worker (which tried once, for both files) and nothing else was refused.
  expect(
    reports.map((r) => [r['blocked-uri'], r['effective-directive']]),
    JSON.stringify(reports),
  ).toEqual([['wasm-eval', 'script-src']]);
});
