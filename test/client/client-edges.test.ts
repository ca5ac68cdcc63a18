// The typed client's less travelled paths against the real reference service: a move between several folders at
// once (addParents/removeParents lists), a gzipped download's progress (no total: the length on the wire is not the
// file's), and a batch whose signal aborts while it waits to retry.
import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { after, before, test } from 'node:test';
import { calls, createStoreClient, type StoreClient } from '../../src/client/index.ts';
import { FOLDER_MIME } from '../../src/protocol/native.ts';
import { startService, type ServiceHandle } from '../server/helpers/service.ts';

let service: ServiceHandle;
let client: StoreClient;
before(async () => {
  // Gzip for any user agent: Node's fetch asks for gzip, but its User-Agent does not say so (spec §4.10).
  service = await startService({ config: { gzipAnyUserAgent: true } });
  client = createStoreClient({ baseUrl: service.url, getAccessToken: () => 'dev-token-alice' });
});
after(async () => {
  await service.stop();
});

test('update adds and removes several parents at once', async () => {
  const folder = (name: string) => client.files.create({ name, mimeType: FOLDER_MIME }, { fields: ['id'] });
  const [a, b] = await Promise.all([folder('parent-a'), folder('parent-b')]);
  const file = await client.files.create({ name: 'moved.txt' }, { fields: ['id', 'parents'] });
  const home = file.parents!;
  const added = await client.files.update(file.id!, {}, { addParents: [a.id!, b.id!], fields: ['parents'] });
  assert.deepEqual([...added.parents!].sort(), [...home, a.id!, b.id!].sort());
  const removed = await client.files.update(file.id!, {}, { removeParents: [a.id!, b.id!], fields: ['parents'] });
  assert.deepEqual(removed.parents, home);
});

test('a gzipped download reports what has arrived without a total, and gives back the stored bytes', async () => {
  const text = 'a line that compresses well\n'.repeat(20_000);
  const made = await service.api('POST', '/upload/store/v3/files?uploadType=media', {
    body: Buffer.from(text),
    headers: { 'content-type': 'text/plain' },
  });
  assert.equal(made.status, 200, made.text);
  const { id } = made.json<{ id: string }>();
  const progress: { loaded: number; total?: number }[] = [];
  const blob = await client.files.download(id, { onProgress: (p) => progress.push(p) });
  assert.equal(await blob.text(), text);
  assert.ok(progress.length >= 1);
  for (const p of progress) assert.deepEqual(Object.keys(p), ['loaded'], JSON.stringify(p));
  assert.equal(progress.at(-1)!.loaded, text.length);
});

test('a batch aborted while it waits to retry rejects with the abort reason, sending nothing more', async () => {
  // Nothing listens at the port: every round fails with status 0 and is retried after the backoff.
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  const controller = new AbortController();
  const reason = new Error('the user left');
  let sent = 0;
  const c = createStoreClient({
    baseUrl: `http://127.0.0.1:${port}`,
    getAccessToken: () => 'dev-token-alice',
    fetch: async (input, init) => {
      sent++;
      try {
        return await fetch(input, init);
      } finally {
        // The first round has failed: the batch now waits about three seconds before the next, and is aborted.
        if (sent === 1) setImmediate(() => controller.abort(reason));
      }
    },
    backoff: { baseMs: 3_000, capMs: 3_000, random: () => 0.999 },
    batchRetries: 3,
  });
  await assert.rejects(c.batch([calls.about({ fields: ['kind'] })] as const, { signal: controller.signal }), reason);
  assert.equal(sent, 1, 'no round after the abort');
});
