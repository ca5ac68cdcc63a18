// One engine for many pages (issue 20), as the site's shared worker runs it: several `UploadWorkerService`s — one per
// attached page — over one `EngineHubs`, in Node against the real reference service. Pages with the same settings
// share the engine and its tasks, other settings get their own; tokens come from the pages attached, and with none
// attached a task that needs a new token pauses with code `auth` until a page attaches.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, afterEach, before, test } from 'node:test';
import { startService, type ServiceHandle } from '../server/helpers/service.ts';
import type { TaskSnapshot } from '../../src/uploader/contract/types.ts';
import type { UploaderOptions } from '../../src/uploader/contract/options.ts';
import type { EngineHubs } from '../../src/uploader/worker/worker-service.ts';
import { attachedPage, sharedWorker } from './helpers/attached-page.ts';
import { addFault, clearFaults, download, filesNamed, md5, randomFile, TOKEN } from './helpers/engine-harness.ts';
import { grantToken, revokeToken } from './helpers/accounts.ts';
import { userOfToken, userPrincipal } from '../../src/uploader/worker/principals.ts';
import { withTimeout } from '../../src/uploader/contract/with-timeout.ts';
import { startCountingProxy, type ProxiedRequest } from './helpers/counting-proxy.ts';

const KiB = 1024;

let service: ServiceHandle;
before(async () => {
  service = await startService();
});
afterEach(async () => {
  await clearFaults(service.url);
});
after(async () => {
  await service.stop();
});

/** The hubs of one "shared worker": every page made from them attaches to the engine its settings name. */
/** A page attached to `hubs`: its events, in order, and a way to wait for one. */
function page(
  hubs: EngineHubs,
  options: Partial<UploaderOptions> = {},
  getAccessToken: () => string | Promise<string> = () => TOKEN,
  /** The page's token when it attaches (what `createUploader` sends with `init`). */
  initToken = TOKEN,
) {
  return attachedPage(hubs, { baseUrl: service.url, ...options }, getAccessToken, { token: initToken });
}

test('pages with the same settings share one engine: a page attaching later lists the running task and hears its end', async () => {
  const { hubs } = sharedWorker();
  const a = await page(hubs);
  await addFault(service.url, {
    match: { method: 'PUT', uploadType: 'resumable' },
    action: { type: 'delay', ms: 50 },
    times: 20,
  });
  const file = randomFile(8 * 256 * KiB + 5);
  const taskId = randomUUID();
  await a.connection.add(taskId, file.file, file);
  await a.when((e, s) => e === 'progress' && s.id === taskId && s.bytesAcknowledged > 0);

  const b = await page(hubs);
  assert.deepEqual(
    b.attachment.tasks.map((t) => [t.id, t.state]),
    [[taskId, 'uploading']],
  );
  const done = await b.when((e, s) => e === 'success' && s.id === taskId);
  assert.equal(md5(await download(service.url, done.file!.id)), md5(file.bytes));
  assert.ok(
    a.events.some(([e, s]) => e === 'success' && s.id === taskId),
    'the adding page heard the end too',
  );

  // Another account (shareKey) or other options: an engine of its own, which knows nothing of the task.
  const other = await page(hubs, { shareKey: 'bob' });
  assert.deepEqual(other.attachment.tasks, []);
  const faster = await page(hubs, { concurrency: 6 });
  assert.deepEqual(faster.attachment.tasks, []);
  // A page attaching after the end, with no page gone meanwhile, starts with an empty list.
  assert.deepEqual((await page(hubs)).attachment.tasks, []);
});

test('with no page of its account attached, a task that needs a new token pauses with code auth and goes on when one attaches', async () => {
  const { hubs } = sharedWorker();
  // A token of Alice's that is revoked (a sign-out elsewhere) while its page is gone.
  const revocable = `tok-${randomUUID()}`;
  await grantToken(service.url, revocable, 'alice@example.com');
  await addFault(service.url, {
    match: { method: 'PUT', uploadType: 'resumable' },
    action: { type: 'delay', ms: 100 },
    times: 4,
  });
  // One at a time: the second file starts after the sign-out, and its first request needs a token (a running
  // session's URI is a capability and needs none).
  const first = await page(hubs, { concurrency: 1 }, () => revocable, revocable);
  const running = randomFile(8 * 256 * KiB);
  const runningId = randomUUID();
  const file = randomFile(3 * 256 * KiB);
  const taskId = randomUUID();
  // A detached page hears nothing: the hub's own fan-out is watched instead (it still tells every page it has).
  const hub = await hubs.hubFor(first.settings, userPrincipal(await userOfToken(service.url, TOKEN)));
  const tell = hub.send.bind(hub);
  const paused = new Promise<TaskSnapshot>((resolve) => {
    hub.send = (event, snapshot) => {
      tell(event, snapshot);
      if (snapshot.id === taskId && snapshot.state === 'paused') resolve(snapshot);
    };
  });
  await first.connection.add(runningId, running.file, running);
  await first.connection.add(taskId, file.file, file);
  await first.when((e, s) => e === 'progress' && s.id === runningId && s.bytesAcknowledged > 0);
  first.connection.detach();
  await revokeToken(service.url, revocable);
  assert.equal((await paused).error?.code, 'auth');

  const second = await page(hubs, { concurrency: 1 });
  const done = await second.when((e, s) => e === 'success' && s.id === taskId);
  assert.equal(md5(await download(service.url, done.file!.id)), md5(file.bytes));
  assert.equal((await filesNamed(service.url, file.name)).length, 1);
});

test('a task paused for want of a page is cancelled at once when asked, with no page attaching', async () => {
  const { hubs } = sharedWorker();
  const revocable = `tok-${randomUUID()}`;
  await grantToken(service.url, revocable, 'alice@example.com');
  const first = await page(hubs, { concurrency: 1 }, () => revocable, revocable);
  const hub = await hubs.hubFor(first.settings, userPrincipal(await userOfToken(service.url, TOKEN)));
  const file = randomFile(3 * 256 * KiB);
  const taskId = randomUUID();
  const tell = hub.send.bind(hub);
  const states: string[] = [];
  const seen = (state: string) =>
    new Promise<void>((resolve) => {
      const before = hub.send;
      hub.send = (event, snapshot) => {
        before(event, snapshot);
        if (snapshot.id === taskId && snapshot.state === state) resolve();
      };
    });
  hub.send = (event, snapshot) => {
    tell(event, snapshot);
    if (snapshot.id === taskId) states.push(snapshot.state);
  };
  const paused = seen('paused');
  // The page leaves and its token is revoked before the task's first request: a new token is needed, none can come.
  first.connection.detach();
  await revokeToken(service.url, revocable);
  await hub.engine.add(taskId, file);
  await withTimeout(paused, 30_000, () => new Error('the task never paused for want of a page'));
  const cancelled = seen('cancelled');
  await hub.engine.cancel(taskId);
  await withTimeout(cancelled, 10_000, () => new Error('the paused task was not cancelled while it waited for a page'));
  assert.equal(states.at(-1), 'cancelled');
  assert.equal((await filesNamed(service.url, file.name)).length, 0);
});

test('the same file added by two pages at once is one task, uploaded once; the second page gets the first one’s id', async () => {
  const { hubs } = sharedWorker();
  const [a, b] = await Promise.all([page(hubs), page(hubs)]);
  const file = randomFile(5 * 256 * KiB + 1);
  const [fromA, fromB] = await Promise.all([
    a.connection.add(randomUUID(), file.file, file),
    b.connection.add(randomUUID(), file.file, file),
  ]);
  assert.equal(fromB.id, fromA.id);
  const done = await b.when((e, s) => e === 'success' && s.id === fromA.id);
  assert.equal(md5(await download(service.url, done.file!.id)), md5(file.bytes));
  assert.equal((await filesNamed(service.url, file.name)).length, 1);
  // One page adding the same file twice means two uploads, as it always did.
  const twice = await Promise.all([
    a.connection.add(randomUUID(), file.file, file),
    a.connection.add(randomUUID(), file.file, file),
  ]);
  assert.notEqual(twice[0].id, twice[1].id);
});

test('a new token comes from the newest page that gives one; a page that fails is passed over', async () => {
  const { hubs } = sharedWorker();
  // Both pages attached with a token that expires (is revoked) before the upload: a new one is needed.
  const expiring = `tok-${randomUUID()}`;
  await grantToken(service.url, expiring, 'alice@example.com');
  const asked: string[] = [];
  await page(hubs, {}, () => (asked.push('old'), TOKEN), expiring);
  const newest = await page(
    hubs,
    {},
    () => {
      asked.push('new');
      throw new Error('signed out in this tab');
    },
    expiring,
  );
  await revokeToken(service.url, expiring);
  const file = randomFile(KiB);
  const taskId = randomUUID();
  await newest.connection.add(taskId, file.file, file);
  const done = await newest.when((e, s) => e === 'success' && s.id === taskId);
  assert.equal(md5(await download(service.url, done.file!.id)), md5(file.bytes));
  assert.deepEqual(asked, ['new', 'old']);
});

test('a page that attaches with its token has the engine fetch the first file IDs then: the first file goes out with no generateIds of its own, and the app is asked for no token', async () => {
  const proxy = await startCountingProxy(service.url);
  try {
    const { hubs } = sharedWorker();
    let asked = 0;
    const a = await attachedPage(
      hubs,
      { baseUrl: proxy.url, resumableThreshold: 1024 * KiB },
      () => {
        asked++;
        return TOKEN;
      },
      { token: TOKEN },
    );
    const isIds = (r: ProxiedRequest) => r.url.includes('/files/generateIds');
    // Before any file: bounded, so an engine that waits for its first file fails here rather than at the test's limit.
    const ids = await withTimeout(
      proxy.answered(isIds),
      10_000,
      () => new Error('no generateIds before the first file'),
    );
    assert.equal(ids.status, 200);

    const file = randomFile(40 * KiB);
    const taskId = randomUUID();
    await a.connection.add(taskId, file.file, file);
    const done = await a.when((e, s) => e === 'success' && s.id === taskId);
    assert.equal(md5(await download(service.url, done.file!.id)), md5(file.bytes));
    assert.deepEqual(
      proxy.requests.filter((r) => !r.url.includes('/about')).map((r) => `${r.method} ${r.url.split('?')[0]}`),
      ['GET /store/v3/files/generateIds', 'POST /upload/store/v3/files'],
      'one batch of IDs, fetched at the attach; the create used one of them',
    );
    assert.equal(asked, 0, 'the token the page attached with served both requests');
    // A second page of the same account attaching fetches none: the engine has its IDs.
    await attachedPage(hubs, { baseUrl: proxy.url, resumableThreshold: 1024 * KiB }, () => TOKEN, { token: TOKEN });
    assert.equal(proxy.requests.filter(isIds).length, 1);
  } finally {
    await proxy.close();
  }
});
