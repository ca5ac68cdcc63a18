// The name of the engine a page's settings run (`engineKeyOf`, src/uploader/contract/settings.ts): pages whose apps wrote
// the same settings in another order share one engine in the worker; different settings get different engines.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { engineKeyOf, resolveSettings } from '../../src/uploader/contract/settings.ts';

const getAccessToken = () => 'token';

test('equal settings written in another order name the same engine; other settings another one', () => {
  const one = resolveSettings({
    baseUrl: 'https://store.example/api',
    getAccessToken,
    backoff: { baseMs: 20, capMs: 200 },
  });
  const two = resolveSettings({
    backoff: { capMs: 200, baseMs: 20 },
    getAccessToken,
    baseUrl: 'https://store.example/api',
  });
  assert.equal(engineKeyOf(one), engineKeyOf(two));
  const other = resolveSettings({
    baseUrl: 'https://store.example/api',
    getAccessToken,
    backoff: { baseMs: 20, capMs: 300 },
  });
  assert.notEqual(engineKeyOf(one), engineKeyOf(other));
});
