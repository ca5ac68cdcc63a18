// `persist` as the settings carry it to the worker (src/uploader/contract/settings.ts): `false` keeps no session
// (the worker's store is in memory, no blob copy, no persistent storage asked), and a page that keeps none runs in
// another engine than one that keeps them; `true`, an object or no option at all keep sessions.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { engineKeyOf, resolveSettings } from '../../src/uploader/contract/settings.ts';

const base = { baseUrl: 'https://store.example/api', getAccessToken: () => 'token' };

test('persist: false keeps no session and no copy; true, an object or nothing keep them', () => {
  const none = resolveSettings({ ...base, persist: false });
  assert.equal(none.persist, false);
  assert.equal(none.blobQuotaBytes, 0);
  for (const persist of [undefined, true, { blobQuotaBytes: 1024 }] as const) {
    const kept = resolveSettings({ ...base, ...(persist !== undefined && { persist }) });
    assert.equal(kept.persist, true, `persist ${JSON.stringify(persist)}`);
  }
  assert.equal(resolveSettings({ ...base, persist: { blobQuotaBytes: 1024 } }).blobQuotaBytes, 1024);
});

test('a page that keeps no sessions does not share the engine of one that keeps them', () => {
  const keeping = resolveSettings({ ...base, persist: { blobQuotaBytes: 0 } });
  const notKeeping = resolveSettings({ ...base, persist: false });
  assert.equal(keeping.blobQuotaBytes, notKeeping.blobQuotaBytes);
  assert.notEqual(engineKeyOf(keeping), engineKeyOf(notKeeping));
});
