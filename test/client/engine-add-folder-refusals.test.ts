// The engine's `addFolder` against the real service over loopback: a folder create the service refuses for good (a
// 4xx that is no rate limit) fails at once with that error, sent once, never retried as a 5xx or a lost connection is
// (issue 39's mutant of engine/engine.ts, the retry test of addFolder).
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { createStoreClient, StoreError } from '../../src/client/index.ts';
import { startService, type ServiceHandle } from '../server/helpers/service.ts';
import { startCountingProxy } from './helpers/counting-proxy.ts';
import { harness, TOKEN } from './helpers/engine-harness.ts';

let service: ServiceHandle;
before(async () => {
  service = await startService();
});
after(async () => {
  await service.stop();
});

test('a folder create under a parent that does not exist is sent once and fails addFolder with a 404', async () => {
  const proxy = await startCountingProxy(service.url);
  try {
    const h = harness(service.url, {
      client: createStoreClient({ baseUrl: proxy.url, getAccessToken: () => TOKEN }),
      maxRetries: 3,
      backoff: { baseMs: 1, capMs: 5 },
    });
    await assert.rejects(
      h.engine.addFolder('orphan', { parentId: 'no-such-folder-id' }),
      (e: unknown) => e instanceof StoreError && e.status === 404,
    );
    const creates = proxy.requests.filter((r) => r.method === 'POST' && r.url.startsWith('/store/v3/files'));
    assert.equal(creates.length, 1, 'a 404 is not tried again');
  } finally {
    await proxy.close();
  }
});
