// A full storage quota (403 storageQuotaExceeded from the real service) ends the task at once with its own error
// code, `quota-exceeded`, and no retry: for a multipart upload the commit refuses it, for a resumable one the session
// start (its declared size cannot fit). The account is a fresh one, so the usage is only what this suite stores.
import { expect } from '@open-wc/testing';
import { createUploader } from '../../../src/uploader/index.ts';
import type { Uploader, UploadError } from '../../../src/uploader/index.ts';
import { en } from '../../../src/elements/i18n/en.ts';
import { download, grantToken, randomFile, revokeToken, sameBytes, serviceUrl } from './helpers.ts';

const KiB = 1024;
const TOKEN = `quota-${crypto.randomUUID()}`;
let baseUrl: string;
let u: Uploader | undefined;

async function setLimit(limit: number | null): Promise<void> {
  const res = await fetch(`${baseUrl}/__admin/storage-quota`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ limit }),
  });
  if (res.status !== 200) throw new Error(`quota: ${res.status} ${await res.text()}`);
}

async function usage(): Promise<string> {
  const res = await fetch(`${baseUrl}/store/v3/about?fields=storageQuota(usage)`, {
    headers: { authorization: `Bearer ${TOKEN}` },
  });
  return ((await res.json()) as { storageQuota: { usage: string } }).storageQuota.usage;
}

/** Uploads `file` and returns how it failed, with the retry events seen on the way. */
async function failureOf(file: File): Promise<{ error: UploadError | undefined; retries: number }> {
  let retries = 0;
  u!.addEventListener('retry', () => retries++);
  const task = u!.add(file);
  const error = await task.done.then(
    () => undefined,
    (e: UploadError) => e,
  );
  expect(task.state).to.equal('failed');
  expect(task.snapshot.error?.code).to.equal('quota-exceeded');
  return { error, retries };
}

before(async () => {
  baseUrl = await serviceUrl();
  await grantToken(TOKEN, `${TOKEN}@example.com`);
});
after(async () => {
  await setLimit(null);
  await revokeToken(TOKEN);
});
afterEach(() => u?.destroy());

describe('storage quota', () => {
  it('a multipart upload past the quota fails with quota-exceeded, not a retry loop', async () => {
    // The limit is global: this suite's user starts empty, and no other suite runs while this one does.
    await setLimit(100 * KiB);
    u = createUploader({ baseUrl, getAccessToken: () => TOKEN, maxRetries: 5, backoff: { baseMs: 10, capMs: 50 } });
    const first = randomFile(64 * KiB);
    const stored = await u.add(first).done;
    expect(await sameBytes(first, await download(baseUrl, stored.id, TOKEN))).to.equal(true);
    const { error, retries } = await failureOf(randomFile(64 * KiB));
    expect(error?.code).to.equal('quota-exceeded');
    expect(error?.status).to.equal(403);
    expect(error?.reason).to.equal('storageQuotaExceeded');
    expect(retries).to.equal(0);
    expect(await usage()).to.equal(String(64 * KiB));
    // The elements have words for it (every catalog does: test/browser/elements' catalog checks).
    expect(en.errors['quota-exceeded']).to.match(/storage is full/);
  });

  it('a resumable upload whose size cannot fit fails at its start with quota-exceeded', async () => {
    await setLimit(64 * KiB + 512 * KiB);
    u = createUploader({
      baseUrl,
      getAccessToken: () => TOKEN,
      resumableThreshold: 256 * KiB,
      chunkSize: 256 * KiB,
      maxRetries: 5,
      backoff: { baseMs: 10, capMs: 50 },
    });
    const { error, retries } = await failureOf(randomFile(768 * KiB));
    expect(error?.code).to.equal('quota-exceeded');
    expect(error?.status).to.equal(403);
    expect(retries).to.equal(0);
    expect(await usage()).to.equal(String(64 * KiB));
  });
});
