// A full drive is the owner's limit, not the caller's rights: the service answers 403 `storageQuotaExceeded` where an
// upload would pass it, and the engine fails the task at once with the code `quota-exceeded` (never `forbidden`,
// never retried), for a multipart upload and at a resumable start alike; nothing is stored. Against the real service
// in Node, started with a small `--storage-quota`.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startService, type ServiceHandle } from '../server/helpers/service.ts';
import { filesNamed, harness, randomFile } from './helpers/engine-harness.ts';

const LIMIT = 64 * 1024;

let service: ServiceHandle;
before(async () => {
  service = await startService({ args: ['--storage-quota', String(LIMIT)] });
});
after(async () => {
  await service.stop();
});

for (const [label, resumableThreshold] of [
  ['a multipart upload', 1024 * 1024],
  ['a resumable upload', 0],
] as const) {
  test(`${label} past the owner's quota fails with quota-exceeded, unretried, and stores nothing`, async () => {
    const h = harness(service.url, { resumableThreshold });
    const file = randomFile(LIMIT + 1);
    await h.engine.add('t', file);
    const failed = await h.when((_e, s) => s.state === 'failed');
    assert.equal(failed.error?.code, 'quota-exceeded', JSON.stringify(failed.error));
    assert.equal(h.events.filter(({ event }) => event === 'retry').length, 0, 'a full drive is not retried');
    assert.deepEqual(await filesNamed(service.url, file.name), []);
  });
}

test("another 403 is the caller's rights: a file added into a folder Alice may only read fails with forbidden", async () => {
  const folder = await service.api('POST', '/store/v3/files', {
    token: 'dev-token-bob',
    body: { name: 'bob-reads', mimeType: 'application/vnd.svc-apps.folder' },
  });
  assert.equal(folder.status, 200, folder.text);
  const { id } = folder.json() as { id: string };
  const share = await service.api('POST', `/store/v3/files/${id}/permissions`, {
    token: 'dev-token-bob',
    body: { type: 'user', role: 'reader', emailAddress: 'alice@example.com' },
  });
  assert.equal(share.status, 200, share.text);
  const h = harness(service.url, { resumableThreshold: 0 });
  await h.engine.add('t', randomFile(1024), { parentId: id });
  const failed = await h.when((_e, s) => s.state === 'failed');
  assert.equal(failed.error?.code, 'forbidden', JSON.stringify(failed.error));
});

test('a file within the quota is stored', async () => {
  const h = harness(service.url, { resumableThreshold: 0 });
  const file = randomFile(LIMIT - 1);
  await h.engine.add('t', file);
  const done = await h.when((_e, s) => s.state === 'done');
  assert.equal(done.file?.size, String(LIMIT - 1));
});
