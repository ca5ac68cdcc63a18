// A shared engine's task that needs a new access token while no page of its account is open, against the real
// service over loopback: it pauses with code `auth` and a message saying why and when it goes on, and once a page
// gives it a token it uploads again with that error gone from its snapshot (issue 39's mutants of
// engine/no-page.ts, the default message, and of engine/upload-job.ts, a field set to undefined is removed).
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, test } from 'node:test';
import { withTimeout } from '../../src/uploader/contract/with-timeout.ts';
import type { TaskSnapshot } from '../../src/uploader/contract/types.ts';
import { userOfToken, userPrincipal } from '../../src/uploader/worker/principals.ts';
import { grantToken, revokeToken } from './helpers/accounts.ts';
import { attachedPage, sharedWorker } from './helpers/attached-page.ts';
import { startService, type ServiceHandle } from '../server/helpers/service.ts';
import { download, md5, randomFile, TOKEN } from './helpers/engine-harness.ts';

const KiB = 1024;

let service: ServiceHandle;
before(async () => {
  service = await startService();
});
after(async () => {
  await service.stop();
});

test('a task with no page to renew its token pauses saying so, and uploads again without that error once one opens', async () => {
  const { hubs } = sharedWorker();
  const revocable = `tok-${randomUUID()}`;
  await grantToken(service.url, revocable, 'alice@example.com');
  const options = { baseUrl: service.url, concurrency: 1 };
  const first = await attachedPage(hubs, options, () => revocable, { token: revocable });
  const hub = await hubs.hubFor(first.settings, userPrincipal(await userOfToken(service.url, TOKEN)));
  const file = randomFile(3 * 256 * KiB);
  const taskId = randomUUID();
  // The hub's own fan-out, watched: what it tells the pages of the task, in order (there is none while it waits).
  const told: [string, TaskSnapshot][] = [];
  const tell = hub.send.bind(hub);
  let pausedSeen: () => void = () => undefined;
  const paused = new Promise<void>((resolve) => (pausedSeen = resolve));
  hub.send = (event, snapshot) => {
    tell(event, snapshot);
    if (snapshot.id !== taskId) return;
    told.push([event, snapshot]);
    if (snapshot.state === 'paused') pausedSeen();
  };
  // The page leaves and its token is revoked before the task's first request: a new token is needed, none can come.
  first.connection.detach();
  await revokeToken(service.url, revocable);
  await hub.engine.add(taskId, file);
  await withTimeout(paused, 30_000, () => new Error('the task never paused for want of a page'));
  const pausedError = hub.engine.snapshot(taskId)?.error;

  const second = await attachedPage(hubs, options, () => TOKEN, { token: TOKEN });
  const done = await second.when((e, s) => e === 'success' && s.id === taskId);
  assert.deepEqual(pausedError, {
    code: 'auth',
    message: 'no page of this account is open to renew the access token: the upload goes on when one opens',
  });
  assert.equal(md5(await download(service.url, done.file!.id)), md5(file.bytes));
  const afterPause = told.slice(told.findIndex(([, s]) => s.state === 'paused') + 1);
  const again = afterPause.find(([, s]) => s.state === 'uploading');
  assert.ok(again, 'the task uploads again');
  assert.equal(Object.hasOwn(again[1], 'error'), false, 'the snapshot that goes on has no error field left');
  assert.equal(Object.hasOwn(done, 'error'), false, 'nor has the final snapshot');
});
