// The upload engine and the page's tokens against the real service over loopback: with the worker's own client (one
// token kept until a 401) a retry after a server error reuses the token it has, a refreshed token that met only a
// network error is not taken as working, and a task that waited for a page to give it a token says it uploads again
// with a `change` (issue 39's survivors of upload-job.ts).
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, test } from 'node:test';
import { createUploadClient } from '../../src/client/index.ts';
import { withTimeout } from '../../src/uploader/contract/with-timeout.ts';
import { userOfToken, userPrincipal } from '../../src/uploader/worker/principals.ts';
import { grantToken, revokeToken } from './helpers/accounts.ts';
import { attachedPage, sharedWorker } from './helpers/attached-page.ts';
import { startService, type ServiceHandle } from '../server/helpers/service.ts';
import {
  addFault,
  clearFaults,
  download,
  harness,
  md5,
  randomFile,
  TOKEN,
  type HarnessOverrides,
} from './helpers/engine-harness.ts';

const KiB = 1024;

/**
 * The worker's own client, as `EngineHub` gives it to its engine. The harness's `client` is typed as both the engine's
 * port and the app's option of that name (a whole `StoreClient`); the engine uses only the worker client's part.
 */
const workerClient = (client: ReturnType<typeof createUploadClient>) => client as HarnessOverrides['client'];

let service: ServiceHandle;
before(async () => {
  service = await startService();
});
after(async () => {
  await service.stop();
});

test('a chunk answered 503 is retried with the token the engine has: the page is asked for one token only', async () => {
  await clearFaults(service.url);
  await addFault(service.url, {
    match: { method: 'PUT', uploadType: 'resumable' },
    action: { type: 'status', status: 503 },
    times: 2,
  });
  let asked = 0;
  const client = createUploadClient({
    baseUrl: service.url,
    getAccessToken: () => {
      asked++;
      return TOKEN;
    },
  });
  const h = harness(service.url, {
    client: workerClient(client),
    resumableThreshold: 0,
    chunkSize: 256 * KiB,
    backoff: { baseMs: 1, capMs: 5 },
  });
  const file = randomFile(512 * KiB);
  await h.engine.add('t1', file);
  const stored = await h.engine.done('t1');
  await clearFaults(service.url);
  assert.equal(md5(await download(service.url, stored.id)), md5(file.bytes));
  assert.equal(h.events.filter((e) => e.event === 'retry').length, 2, 'both 503s were retried (the fault was met)');
  assert.equal(asked, 1, 'no refresh without a 401');
});

test('a task paused for want of a page tells that it uploads again with a change once a page gives it a token', async () => {
  const { hubs } = sharedWorker();
  const revocable = `tok-${randomUUID()}`;
  await grantToken(service.url, revocable, 'alice@example.com');
  const options = { baseUrl: service.url, concurrency: 1 };
  const first = await attachedPage(hubs, options, () => revocable, { token: revocable });
  const hub = await hubs.hubFor(first.settings, userPrincipal(await userOfToken(service.url, TOKEN)));
  const file = randomFile(3 * 256 * KiB);
  const taskId = randomUUID();
  // The hub's own fan-out, watched: it tells every page it has, and there is none while the task waits.
  const told: [string, string][] = [];
  const tell = hub.send.bind(hub);
  let pausedSeen: () => void = () => undefined;
  const paused = new Promise<void>((resolve) => (pausedSeen = resolve));
  hub.send = (event, snapshot) => {
    tell(event, snapshot);
    if (snapshot.id !== taskId) return;
    told.push([event, snapshot.state]);
    if (snapshot.state === 'paused') pausedSeen();
  };
  // The page leaves and its token is revoked before the task's first request: a new token is needed, none can come.
  first.connection.detach();
  await revokeToken(service.url, revocable);
  await hub.engine.add(taskId, file);
  await withTimeout(paused, 30_000, () => new Error('the task never paused for want of a page'));

  const second = await attachedPage(hubs, options, () => TOKEN, { token: TOKEN });
  const done = await second.when((e, s) => e === 'success' && s.id === taskId);
  assert.equal(md5(await download(service.url, done.file!.id)), md5(file.bytes));
  const afterPause = told.slice(told.findIndex(([, state]) => state === 'paused') + 1);
  assert.deepEqual(
    afterPause.find(([, state]) => state === 'uploading'),
    ['change', 'uploading'],
    'the first word of the task after its pause is a change to uploading',
  );
});

test('a refreshed token that met only a network error is still unproven: a later 401 on it asks the page no more', async () => {
  await clearFaults(service.url);
  // The first session start goes with a refused token (401, no fault); the second, with the refreshed one, is cut.
  await addFault(service.url, {
    match: { method: 'POST', uploadType: 'resumable' },
    action: { type: 'cut', afterBytes: 0 },
    skip: 1,
    times: 1,
  });
  const tokens = ['refused-first', 'refused-refresh', TOKEN];
  let asked = 0;
  const client = createUploadClient({ baseUrl: service.url, getAccessToken: () => tokens[asked++]! });
  const h = harness(service.url, {
    client: workerClient(client),
    resumableThreshold: 0,
    chunkSize: 256 * KiB,
    concurrency: 1,
    backoff: { baseMs: 1, capMs: 5 },
  });
  await h.engine.add('t1', randomFile(300 * KiB));
  await assert.rejects(h.engine.done('t1'), (e: unknown) => (e as { code?: string }).code === 'auth');
  assert.equal(asked, 2, 'the first token, then one refresh');
  // Another task of the same engine meets the refresh's 401: it is not proven, so the page is not asked a third time.
  await h.engine.add('t2', randomFile(300 * KiB));
  await assert.rejects(h.engine.done('t2'), (e: unknown) => (e as { code?: string }).code === 'auth');
  assert.equal(asked, 2);
  await clearFaults(service.url);
});
