// Acceptance: the uploader from the plain-page bundle against the real service's admin faults (spec §7): 503 bursts
// on chunks and on the session start, a 500, a 403 rate limit, connection cuts at several offsets, a delay longer
// than the stall timeout, a session that expires mid-upload, and a retry budget spent by a permanent 500 then
// retry(). Every upload must end byte-identical, as one file, with no IndexedDB record left.
// Build first: `npx vite build`.
import { expect, test } from '@playwright/test';
import { randomUUID } from 'node:crypto';
import { startCountingProxy } from '../client/helpers/counting-proxy.ts';
import type { UploadPage } from '../client/helpers/upload-page.ts';
import type { ServiceHandle } from '../server/helpers/service.ts';
import {
  addFault,
  clearFaults,
  filesNamed,
  Harness,
  KiB,
  MiB,
  openHarness,
  useAcceptanceEnv,
} from './acceptance-fixture.ts';

let service: ServiceHandle;
let pages: UploadPage;
let h: Harness;

useAcceptanceEnv((env) => ({ service, pages, h } = env));

const CHUNKED = { chunkSize: 256 * KiB, resumableThreshold: 0 };
const sessionPut = { method: 'PUT', uploadType: 'resumable' };
const sessionStart = { method: 'POST', uploadType: 'resumable' };

async function upload(options: Record<string, unknown>, size: number): Promise<{ name: string; id: string }> {
  expect((await h.create(options)).ok).toBe(true);
  const name = `f-${randomUUID()}.bin`;
  await h.makeFile(name, size);
  return { name, id: await h.add(name) };
}

test('a burst of three 503s on chunk PUTs: three server-error retries, then success', async () => {
  await addFault(service, { match: sessionPut, action: { type: 'status', status: 503 }, times: 3, skip: 1 });
  const { name, id } = await upload({ ...CHUNKED, maxRetries: 3 }, MiB + 5);
  await h.expectStoredOnce(name, await h.outcome(id));
  const retries = (await h.events(id)).filter((e) => e.type === 'retry');
  expect(retries.map((e) => `${e.cause}:${e.state}`)).toEqual([
    'server-error:retrying',
    'server-error:retrying',
    'server-error:retrying',
  ]);
  expect((await h.events(id)).at(-1)).toMatchObject({ type: 'success', state: 'done' });
});

test('a burst of three 503s on the session start: still one session, one file', async () => {
  await addFault(service, { match: sessionStart, action: { type: 'status', status: 503 }, times: 3 });
  const { name, id } = await upload({ ...CHUNKED, maxRetries: 3 }, 600 * KiB);
  await h.expectStoredOnce(name, await h.outcome(id));
  expect((await h.events(id)).filter((e) => e.type === 'retry').map((e) => e.cause)).toEqual([
    'server-error',
    'server-error',
    'server-error',
  ]);
});

test('a 500 on a chunk and a 503 on a multipart create are retried', async () => {
  await addFault(service, { match: sessionPut, action: { type: 'status', status: 500 }, times: 1, skip: 2 });
  const big = await upload(CHUNKED, MiB);
  await h.expectStoredOnce(big.name, await h.outcome(big.id));
  await addFault(service, {
    match: { method: 'POST', uploadType: 'multipart' },
    action: { type: 'status', status: 503 },
    times: 1,
  });
  const small = `s-${randomUUID()}.txt`;
  await h.makeFile(small, 10 * KiB, 'text/plain');
  const id = await h.add(small);
  await h.expectStoredOnce(small, await h.outcome(id));
});

test('a 403 userRateLimitExceeded backs off as a rate limit and resumes', async () => {
  await addFault(service, { match: sessionPut, action: { type: 'status', status: 403 }, times: 2, skip: 1 });
  const { name, id } = await upload(CHUNKED, MiB);
  await h.expectStoredOnce(name, await h.outcome(id));
  expect((await h.events(id)).filter((e) => e.type === 'retry').map((e) => e.cause)).toEqual([
    'rate-limit',
    'rate-limit',
  ]);
});

for (const offset of [1, 256 * KiB - 1, 256 * KiB + 1, 1536 * KiB]) {
  test(`a connection cut after ${offset} bytes of a whole-file PUT resumes from what the service kept`, async () => {
    await addFault(service, { match: sessionPut, action: { type: 'cut', afterBytes: offset }, times: 1 });
    const { name, id } = await upload({ resumableThreshold: 0 }, 2 * MiB + 3);
    await h.expectStoredOnce(name, await h.outcome(id));
    // Chromium itself re-sends a request whose reused connection was reset before any answer; when it does not,
    // the kit sees one network error. Either way nothing else may be retried.
    const causes = (await h.events(id)).filter((e) => e.type === 'retry').map((e) => e.cause);
    expect(causes.length).toBeLessThanOrEqual(1);
    expect(causes.every((c) => c === 'network')).toBe(true);
  });
}

// The held request in these is held far longer than any test runs, so the kit must give up on it however slow the
// machine; the stall timeout is a margin the live requests after it never come near, even with both cores busy.
test('a response delayed past stallTimeoutMs is a stall: status query, then the upload resumes', async () => {
  await addFault(service, { match: sessionPut, action: { type: 'delay', ms: 600_000 }, times: 1, skip: 1 });
  const { name, id } = await upload({ ...CHUNKED, stallTimeoutMs: 4000 }, MiB);
  await h.expectStoredOnce(name, await h.outcome(id));
  expect((await h.events(id)).filter((e) => e.type === 'retry').map((e) => e.cause)).toEqual(['stall']);
});

test('a whole-file PUT whose answer stalls past stallTimeoutMs: status query, resume, one byte-identical file', async () => {
  // Should the held PUT wake, the service drops it: a newer request for the session arrived.
  await addFault(service, { match: sessionPut, action: { type: 'delay', ms: 600_000 }, times: 1 });
  const { name, id } = await upload({ resumableThreshold: 0, stallTimeoutMs: 4000 }, 8 * MiB + 9);
  await h.expectStoredOnce(name, await h.outcome(id));
  expect((await h.events(id)).filter((e) => e.type === 'retry').map((e) => e.cause)).toEqual(['stall']);
});

test('a multipart create answered too late is retried with the same pre-generated ID: one file, no duplicate', async ({
  page,
}) => {
  // The service creates the file at once; only its answer is held (at a proxy), so the page gives up on it and
  // retries while the file already exists. A retry under a fresh ID would make a second file.
  const proxy = await startCountingProxy(service.url);
  try {
    const isCreate = (r: { method: string; url: string }) =>
      r.method === 'POST' && r.url.includes('uploadType=multipart');
    const held = proxy.holdAnswer(isCreate);
    await openHarness(page, pages.origin, proxy.url);
    h = new Harness(page, service);
    const { name, id } = await upload({ stallTimeoutMs: 4000 }, 200 * KiB);
    expect((await proxy.answered(isCreate)).status, 'the held create was handled: the file exists').toBe(200);
    const outcome = await h.outcome(id);
    held.release();
    await h.expectStoredOnce(name, outcome);
    const creates = proxy.requests.filter(isCreate);
    expect(creates.map((r) => r.status)).toEqual([200, 409]);
    expect((await h.events(id)).filter((e) => e.type === 'retry').map((e) => e.cause)).toEqual(['stall']);
  } finally {
    await proxy.close();
  }
});

test('removing a failed resumable task forgets its session: no record, and the service session is gone', async () => {
  await addFault(service, { match: sessionPut, action: { type: 'status', status: 503 }, times: 1000, skip: 1 });
  const { id } = await upload({ ...CHUNKED, maxRetries: 1 }, MiB);
  expect(await h.outcome(id)).toMatchObject({ ok: false, code: 'retries-exhausted' });
  const [record] = await h.records();
  expect(record).toBeTruthy();
  await h.page.evaluate((taskId) => window.h.uploader.remove(taskId), id);
  await expect.poll(() => h.records()).toEqual([]);
  await clearFaults(service);
  const status = () =>
    service.api('PUT', record.sessionUri, { token: null, headers: { 'content-range': `bytes */${MiB}` } });
  await expect.poll(async () => (await status()).status).toBe(404);
  expect(await h.page.evaluate(() => window.h.uploader.interrupted())).toEqual([]);
});

test('a session that expires mid-upload (clock +8 days) starts again from byte 0 and still makes one file', async () => {
  await addFault(service, { match: sessionPut, action: { type: 'delay', ms: 150 }, times: 100 });
  const { name, id } = await upload(CHUNKED, MiB + 100);
  await h.waitFor(id, 'a first acknowledged chunk', (s) => s.bytesAcknowledged >= 256 * KiB);
  const [record] = await h.records();
  expect(record?.name).toBe(name);
  const clock = await service.api('POST', '/__admin/clock', { token: null, body: { advanceMs: 8 * 24 * 3600 * 1000 } });
  expect(clock.status).toBe(200);
  const outcome = await h.outcome(id);
  await h.expectStoredOnce(name, outcome);
  expect((await h.events(id)).filter((e) => e.type === 'retry').map((e) => e.cause)).toContain('session-expired');
  const old = await service.api('PUT', record.sessionUri, {
    token: null,
    headers: { 'content-range': `bytes */${MiB + 100}` },
  });
  expect(old.status).toBe(404);
});

test('a permanent 500 spends the retry budget (retries-exhausted), then retry() after the fault clears succeeds', async () => {
  await addFault(service, { match: sessionPut, action: { type: 'status', status: 500 }, times: 1000, skip: 1 });
  const { name, id } = await upload({ ...CHUNKED, maxRetries: 3 }, MiB);
  const failed = await h.outcome(id);
  expect(failed).toMatchObject({ ok: false, code: 'retries-exhausted', status: 500 });
  expect(failed.message).toMatch(/500/);
  const snap = await h.snapshot(id);
  expect(snap.state).toBe('failed');
  expect(snap.error?.code).toBe('retries-exhausted');
  const events = await h.events(id);
  expect(events.filter((e) => e.type === 'retry')).toHaveLength(3);
  expect(events.at(-1)).toMatchObject({ type: 'error', state: 'failed', code: 'retries-exhausted' });
  // The session survives a failure: the record stays so retry() can continue it.
  expect((await h.records()).map((r) => r.name)).toEqual([name]);
  await clearFaults(service);
  await h.command(id, 'retry');
  await h.expectStoredOnce(name, await h.outcome(id));
  expect((await h.events(id)).at(-1)).toMatchObject({ type: 'success', state: 'done' });
  expect(await filesNamed(service, name)).toHaveLength(1);
});
