// Acceptance: what apps and users hand the uploader — bad options, an unreachable service, tokens that expired or
// never worked, empty files, names with Unicode and quotes, twenty files at once under a concurrency limit, and a
// 12 MiB file in adaptive mode. Build first: `npx vite build`.
import { expect, test } from '@playwright/test';
import { randomUUID } from 'node:crypto';
import type { ServiceHandle } from '../server/helpers/service.ts';
import type { UploadPage } from '../client/helpers/upload-page.ts';
import { addFault, Harness, KiB, MiB, startInFlightProxy, TOKEN, useAcceptanceEnv } from './acceptance-fixture.ts';

let service: ServiceHandle;
let pages: UploadPage;
let h: Harness;

useAcceptanceEnv((env) => ({ service, pages, h } = env));

test.describe('bad options fail at createUploader with a clear error', () => {
  for (const [option, value, pattern] of [
    ['chunkSize', 300_000, /chunkSize.*256 KiB.*300000/],
    ['chunkSize', 0, /chunkSize/],
    ['chunkSize', 'big', /chunkSize/],
    ['concurrency', 0, /concurrency.*0/],
    ['concurrency', 1.5, /concurrency/],
    ['maxRetries', -1, /maxRetries/],
    ['stallTimeoutMs', 0, /stallTimeoutMs/],
    ['resumableThreshold', -5, /resumableThreshold/],
    ['baseUrl', 'not a url', /baseUrl/],
  ] as const) {
    test(`${option}: ${JSON.stringify(value)}`, async () => {
      const made = await h.create({ [option]: value });
      expect(made.ok).toBe(false);
      expect(made.code).toBe('bad-request');
      expect(made.message).toMatch(pattern);
    });
  }
});

test('an unreachable baseUrl (connection refused) retries, then fails with retries-exhausted and a clear message', async ({
  page,
}) => {
  await page.goto(`${pages.origin}/acceptance.html?service=${encodeURIComponent('http://127.0.0.1:9')}`);
  await page.waitForFunction(() => 'h' in globalThis);
  expect((await h.create({ maxRetries: 3 })).ok).toBe(true);
  await h.makeFile('refused.txt', 10 * KiB, 'text/plain');
  const id = await h.add('refused.txt');
  const outcome = await h.outcome(id, 30_000);
  expect(outcome).toMatchObject({ ok: false, code: 'retries-exhausted' });
  expect(outcome.message).toMatch(/network/i);
  const events = await h.events(id);
  expect(events.filter((e) => e.type === 'retry').map((e) => e.cause)).toEqual(['network', 'network', 'network']);
  expect(events.at(-1)).toMatchObject({ type: 'error', state: 'failed', code: 'retries-exhausted' });
  // The same for a resumable upload (the session start is what is refused).
  await h.makeFile('refused.bin', 6 * MiB);
  const big = await h.add('refused.bin');
  expect(await h.outcome(big, 30_000)).toMatchObject({ ok: false, code: 'retries-exhausted' });
});

test('401: an expired token first, then a good one — one refresh, success', async () => {
  for (const resumableThreshold of [5 * MiB, 0]) {
    expect((await h.create({ resumableThreshold }, ['expired-token', TOKEN])).ok).toBe(true);
    const name = `auth-${resumableThreshold}-${randomUUID()}.bin`;
    await h.makeFile(name, 300 * KiB);
    await h.expectStoredOnce(name, await h.outcome(await h.add(name)));
    // In all: the expired token (asked as the page attached, to learn its account) and one refresh.
    expect(await h.tokenCalls()).toBe(2);
    await h.page.evaluate(() => {
      window.h.uploader.destroy();
      window.h.tokenCalls = 0;
    });
  }
});

test('401 every time: a clear auth error after one refresh, no retry loop', async () => {
  for (const resumableThreshold of [5 * MiB, 0]) {
    expect((await h.create({ resumableThreshold }, ['bad-token'])).ok).toBe(true);
    const name = `noauth-${randomUUID()}.bin`;
    await h.makeFile(name, 300 * KiB);
    const id = await h.add(name);
    const outcome = await h.outcome(id);
    expect(outcome).toMatchObject({ ok: false, code: 'auth', status: 401 });
    expect(outcome.message).toMatch(/credentials|login/i);
    expect(await h.tokenCalls()).toBe(2);
    expect((await h.events(id)).filter((e) => e.type === 'retry')).toEqual([]);
    await h.page.evaluate(() => {
      window.h.uploader.destroy();
      window.h.tokenCalls = 0;
    });
  }
});

test('zero-byte files upload, multipart and resumable', async () => {
  for (const resumableThreshold of [5 * MiB, 0]) {
    expect((await h.create({ resumableThreshold })).ok).toBe(true);
    const name = `empty-${resumableThreshold}-${randomUUID()}.txt`;
    await h.makeFile(name, 0, 'text/plain');
    const outcome = await h.outcome(await h.add(name));
    await h.expectStoredOnce(name, outcome);
    expect(outcome.file?.size).toBe('0');
    expect(outcome.file?.md5Checksum).toBe('d41d8cd98f00b204e9800998ecf8427e');
  }
});

test('a name with Unicode, quotes and a backslash is stored exactly, multipart and resumable', async () => {
  for (const resumableThreshold of [5 * MiB, 0]) {
    expect((await h.create({ resumableThreshold })).ok).toBe(true);
    const name = `Ünïcödé "quoted" 'single' \\ 名前 😀 ${resumableThreshold}.txt`;
    await h.makeFile(name, 40 * KiB, 'text/plain');
    await h.expectStoredOnce(name, await h.outcome(await h.add(name)));
  }
});

test('twenty small files with concurrency 3: never more than 3 uploads in flight, all stored once', async ({
  page,
}) => {
  const counter = await startInFlightProxy(service.url);
  try {
    await page.goto(`${pages.origin}/acceptance.html?service=${encodeURIComponent(counter.url)}`);
    await page.waitForFunction(() => 'h' in globalThis);
    await addFault(service, {
      match: { method: 'POST', uploadType: 'multipart' },
      action: { type: 'delay', ms: 150 },
      times: 20,
    });
    expect((await h.create({ concurrency: 3 })).ok).toBe(true);
    const names = Array.from({ length: 20 }, (_, i) => `many-${i}-${randomUUID()}.txt`);
    const ids: string[] = [];
    for (const name of names) await h.makeFile(name, 8 * KiB + 17, 'text/plain');
    for (const name of names) ids.push(await h.add(name));
    for (const [i, id] of ids.entries()) await h.expectStoredOnce(names[i], await h.outcome(id));
    expect(counter.maxInFlight).toBe(3);
    expect(counter.uploads).toBe(20);
  } finally {
    await counter.close();
  }
});

test('a 12 MiB file in adaptive mode', async () => {
  expect((await h.create({ chunkSize: 'adaptive' })).ok).toBe(true);
  const name = `adaptive-${randomUUID()}.bin`;
  await h.makeFile(name, 12 * MiB + 1);
  const id = await h.add(name);
  const outcome = await h.outcome(id);
  await h.expectStoredOnce(name, outcome);
  expect(outcome.file?.size).toBe(String(12 * MiB + 1));
  expect((await h.snapshot(id)).strategy).toBe('resumable');
});
