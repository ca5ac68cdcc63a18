/**
 * What a test sets at run time on a single node (`--admin`: faults, tokens, a storage quota) ends with the process,
 * as it always did: the same data directory started again lists no fault, takes no token issued before, and has
 * the quota its start gave — while the files stay.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { type ServiceHandle, startService } from './helpers/service.ts';

let svc: ServiceHandle;
before(async () => {
  svc = await startService();
});
after(() => svc.stop());

test('a restarted node lists no fault, refuses a run-time token and has its own quota; the files stay', async () => {
  const made = await svc.api('POST', '/store/v3/files?fields=id', { body: { name: 'kept.txt' } });
  assert.equal(made.status, 200, made.text);
  const fault = await svc.api('POST', '/__admin/faults', {
    token: null,
    body: { match: { method: 'DELETE' }, action: { type: 'status', status: 503 }, times: 5 },
  });
  assert.equal(fault.status, 200, fault.text);
  const token = await svc.api('POST', '/__admin/tokens', {
    token: null,
    body: { token: 'tok-before-restart', user: 'ida@example.com' },
  });
  assert.equal(token.status, 201, token.text);
  const quota = await svc.api('PUT', '/__admin/storage-quota', { token: null, body: { limit: 10 } });
  assert.equal(quota.status, 200, quota.text);
  assert.equal((await svc.api('GET', '/store/v3/about?fields=user', { token: 'tok-before-restart' })).status, 200);

  await svc.restart();

  assert.deepEqual((await svc.api('GET', '/__admin/faults', { token: null })).json(), { faults: [] });
  assert.equal((await svc.api('GET', '/store/v3/about?fields=user', { token: 'tok-before-restart' })).status, 401);
  assert.deepEqual((await svc.api('GET', '/__admin/storage-quota', { token: null })).json(), { limit: null });
  const read = await svc.api('GET', `/store/v3/files/${(made.json() as { id: string }).id}?fields=name`);
  assert.deepEqual(read.json(), { name: 'kept.txt' });
});
