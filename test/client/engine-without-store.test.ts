// An engine with no session store (a page where IndexedDB is refused: the uploads run, nothing is kept for a next
// visit), in Node against the real service: a stored session asked for by id is simply not there, and a file still
// uploads (issue 39's survivor of engine/session-records.ts, the store read only when there is one).
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { createStoreClient } from '../../src/client/index.ts';
import { ManualOnline } from '../../src/uploader/adapters/manual-online.ts';
import { MemoryLocks } from '../../src/uploader/adapters/memory-locks.ts';
import { systemClock } from '../../src/uploader/adapters/system-clock.ts';
import { resolveSettings } from '../../src/uploader/contract/settings.ts';
import { UploadEngine } from '../../src/uploader/engine/engine.ts';
import { startService, type ServiceHandle } from '../server/helpers/service.ts';
import { download, md5, randomFile, TOKEN } from './helpers/engine-harness.ts';
import { nodeHttp } from './helpers/node-http-port.ts';

let service: ServiceHandle;
before(async () => {
  service = await startService();
});
after(async () => {
  await service.stop();
});

test('with no session store, a session asked for by id is not there, and a file still uploads', async () => {
  const engine = new UploadEngine({
    settings: resolveSettings({ baseUrl: service.url, getAccessToken: () => TOKEN, resumableThreshold: 0 }),
    io: {
      client: createStoreClient({ baseUrl: service.url, getAccessToken: () => TOKEN }),
      http: nodeHttp,
      online: new ManualOnline(true),
      clock: systemClock,
      store: undefined,
      locks: new MemoryLocks(),
    },
    onEvent: () => undefined,
  });
  try {
    assert.equal(await engine.record('no-such-session'), undefined);
    const file = randomFile(300 * 1024);
    await engine.add('t1', file);
    const stored = await engine.done('t1');
    assert.equal(md5(await download(service.url, stored.id)), md5(file.bytes));
  } finally {
    await engine.destroy();
  }
});
