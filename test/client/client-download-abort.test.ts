// A download the app aborts (`files.download(id, { signal })`) stops: its promise rejects with the signal's reason,
// whether the signal was aborted before the call or while the bytes arrive, and no Blob is handed back. Real client,
// real service over loopback.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startService, type ServiceHandle } from '../server/helpers/service.ts';
import { createStoreClient, type StoreClient } from '../../src/client/index.ts';

const MiB = 1024 * 1024;

let service: ServiceHandle;
let client: StoreClient;
let fileId: string;
before(async () => {
  service = await startService();
  client = createStoreClient({ baseUrl: service.url, getAccessToken: () => 'dev-token-alice' });
  const made = await service.api('POST', '/upload/store/v3/files?uploadType=media&fields=id', {
    body: new Uint8Array(8 * MiB).fill(0x5a),
    headers: { 'Content-Type': 'application/octet-stream' },
  });
  assert.equal(made.status, 200, made.text);
  fileId = (made.json() as { id: string }).id;
});
after(async () => {
  await service.stop();
});

test('a download whose signal was aborted before the call rejects with its reason', async () => {
  const reason = new Error('the user left the page');
  await assert.rejects(client.files.download(fileId, { signal: AbortSignal.abort(reason) }), reason);
});

test('a download aborted while its bytes arrive rejects with the reason, not a Blob', async () => {
  const controller = new AbortController();
  const reason = new Error('the user pressed stop');
  let reported = 0;
  await assert.rejects(
    client.files.download(fileId, {
      signal: controller.signal,
      onProgress: ({ loaded }) => {
        reported = loaded;
        if (loaded < 8 * MiB) controller.abort(reason);
      },
    }),
    reason,
  );
  assert.ok(reported < 8 * MiB, `stopped before the end: ${reported} bytes reported`);
});
