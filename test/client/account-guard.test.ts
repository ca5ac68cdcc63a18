// Whose a token is (`AccountGuard`, src/client/accounts.ts), against the real service through a counting proxy: a
// refreshed token of the same account is still current, another account's is not, and each token's account is asked
// of the service once, not at every message.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { AccountGuard } from '../../src/client/accounts.ts';
import { createStoreClient } from '../../src/client/index.ts';
import { startService, type ServiceHandle } from '../server/helpers/service.ts';
import { grantToken } from './helpers/accounts.ts';
import { startCountingProxy } from './helpers/counting-proxy.ts';

let service: ServiceHandle;
before(async () => {
  service = await startService();
});
after(async () => {
  await service.stop();
});

test('a token of the same account is current, another account’s is not; each token’s account is asked once', async () => {
  await grantToken(service.url, 'tok-alice-refreshed', 'alice@example.com');
  const proxy = await startCountingProxy(service.url);
  try {
    let now = 'tok-alice-refreshed';
    const guard = new AccountGuard(createStoreClient({ baseUrl: proxy.url, getAccessToken: () => now }));
    assert.equal(await guard.isCurrent('dev-token-alice'), true);
    assert.equal(await guard.isCurrent('dev-token-alice'), true);
    now = 'dev-token-bob';
    assert.equal(await guard.isCurrent('dev-token-alice'), false);
    const abouts = proxy.requests.filter((r) => r.method === 'GET' && r.url.startsWith('/store/v3/about'));
    assert.equal(abouts.length, 3, 'one look-up for each of the three tokens');
  } finally {
    await proxy.close();
  }
});
