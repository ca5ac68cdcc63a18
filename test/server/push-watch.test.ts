/**
 * The page-side watch client (`src/client/watch.ts`) in Node, with the `eventsource` package as its event stream:
 * a file watch and a change-log watch against the real service and relay, renewal before expiry with a new
 * channel id, and stopping when the last listener leaves.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EventSource } from 'eventsource';
import { startService, type ServiceHandle } from './helpers/service.ts';
import { startRelay, type RunningRelay } from '../../server/relay/start.ts';
import { createStoreClient, type StoreClient } from '../../src/client/index.ts';
import type { PushEvent } from '../../src/protocol/push.ts';
import type { RequestOptions } from '../../src/client/api-call.ts';
import { createWatcher, type WatchClient, type Watcher } from '../../src/client/watch.ts';
import { fetchTrusting } from './push-helpers.ts';
import { encodeBatchRequest } from '../../src/protocol/batch-codec.ts';

let dir: string;
let relay: RunningRelay;
let service: ServiceHandle;
let client: StoreClient;
let caFetch: typeof fetch;
const watchers: Watcher[] = [];

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'push-watch-'));
  relay = await startRelay({ port: 0, host: 'localhost', certDir: join(dir, 'certs') });
  // The real store-service process, trusting the relay's development CA and accepting its origin.
  service = await startService({
    config: { verifiedDomains: [relay.url], registeredDomains: [relay.url], trustCa: [relay.caPath] },
  });
  client = createStoreClient({ baseUrl: service.url, getAccessToken: () => 'dev-token-alice' });
  caFetch = fetchTrusting(readFileSync(relay.caPath, 'utf8'));
});

after(async () => {
  for (const w of watchers) await w.close();
  await service.stop();
  await relay.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Channel ids the client made, so a test can check what the service was asked to do. */
function watcher(extra: Partial<Parameters<typeof createWatcher>[0]> = {}): { watcher: Watcher; ids: string[] } {
  const ids: string[] = [];
  let n = 0;
  const w = createWatcher({
    client,
    relayUrl: relay.url,
    fetch: caFetch,
    openEventStream: (url) => new EventSource(url, { fetch: caFetch }),
    createChannelId: () => {
      const id = `client-${process.pid}-${Date.now()}-${++n}`;
      ids.push(id);
      return id;
    },
    ...extra,
  });
  watchers.push(w);
  return { watcher: w, ids };
}

/** Collects events and awaits a count. */
function collector() {
  const events: PushEvent[] = [];
  let waiter: { count: number; resolve: () => void } | undefined;
  return {
    events,
    listener(event: PushEvent) {
      events.push(event);
      if (waiter && events.length >= waiter.count) waiter.resolve();
    },
    async waitFor(count: number): Promise<PushEvent[]> {
      if (events.length < count) await new Promise<void>((resolve) => (waiter = { count, resolve }));
      return events.slice(0, count);
    },
  };
}

test('watchFile: typed events per state; the last listener leaving stops the channel', async () => {
  const file = await client.files.create({ name: 'client-watch.txt' });
  const { watcher: w } = watcher();
  const watch = w.watchFile(file.id);
  const all = collector();
  const updates = collector();
  const offAll = watch.on('*', all.listener);
  const offUpdates = watch.on('update', (event) => {
    // `event.state` is typed as 'update' here.
    const state: 'update' = event.state;
    assert.equal(state, 'update');
    updates.listener(event);
  });
  const channel = await watch.ready();
  await all.waitFor(1);
  await client.files.update(file.id, { name: 'client-watch-2.txt' });
  const [update] = await updates.waitFor(1);
  assert.deepEqual(update.changed, ['properties']);
  assert.deepEqual(
    (await all.waitFor(2)).map((e) => e.state),
    ['sync', 'update'],
  );

  await offAll();
  await offUpdates();
  // The channel was stopped: stopping it again is a 404 for the same user.
  await assert.rejects(
    client.request('POST', '/store/v3/channels/stop', { body: { id: channel.id, resourceId: channel.resourceId } }),
    (error: { status: number }) => error.status === 404,
  );
});

test(
  'an update says what changed: new content alone is content, not properties the request never named',
  { timeout: 60_000 },
  async () => {
    const file = await client.files.create({
      name: 'changed.txt',
      mimeType: 'text/plain',
      description: 'kept as it is',
      originalFilename: 'changed (original).txt',
    });
    const { watcher: w } = watcher();
    const watch = w.watchFile(file.id);
    const updates = collector();
    const off = watch.on('update', updates.listener);
    await watch.ready();
    const put = await service.api('PUT', `/upload/store/v3/files/${file.id}?uploadType=media`, {
      headers: { 'Content-Type': 'text/plain' },
      body: 'new bytes',
    });
    assert.equal(put.status, 200, put.text);
    const [update] = await updates.waitFor(1);
    assert.deepEqual(update.changed, ['content']);
    await off();
  },
);

test(
  'each call of a batch on a watched file is told, the group commit sharing its lookups',
  { timeout: 60_000 },
  async () => {
    const file = await client.files.create({ name: 'batched.txt' });
    const { watcher: w } = watcher();
    const watch = w.watchFile(file.id);
    const updates = collector();
    const off = watch.on('update', updates.listener);
    await watch.ready();
    const { body, contentType } = encodeBatchRequest([
      {
        method: 'PATCH',
        path: `/store/v3/files/${file.id}`,
        headers: { 'Content-Type': 'application/json' },
        body: '{"name":"b1.txt"}',
      },
      {
        method: 'PATCH',
        path: `/store/v3/files/${file.id}`,
        headers: { 'Content-Type': 'application/json' },
        body: '{"description":"b2"}',
      },
    ]);
    const batch = await service.api('POST', '/batch/store/v3', { headers: { 'Content-Type': contentType }, body });
    assert.equal(batch.status, 200, batch.text);
    const got = await updates.waitFor(2);
    assert.deepEqual(
      got.map((e) => e.changed),
      [['properties'], ['properties']],
    );
    await off();
  },
);

test('watchChanges: change events after sync', async () => {
  const { watcher: w } = watcher();
  const watch = w.watchChanges();
  const events = collector();
  watch.on('*', events.listener);
  await watch.ready();
  await events.waitFor(1);
  await client.files.create({ name: 'in-the-log.txt' });
  const received = await events.waitFor(2);
  assert.deepEqual(
    received.map((e) => e.state),
    ['sync', 'change'],
  );
  assert.deepEqual(received[1].body, { kind: 'store#changes' });
});

test('renews before expiry with a new channel id and stops the old channel', async () => {
  const file = await client.files.create({ name: 'renewed.txt' });
  // Ask for 2 s and renew 1.9 s before expiry: the renewal starts at once (about 100 ms later).
  const { watcher: w, ids } = watcher({ ttlMs: 2000, renewBeforeMs: 1900 });
  const watch = w.watchFile(file.id);
  const events = collector();
  const renewed = new Promise<unknown>((resolve) => watch.onRenew(resolve));
  watch.on('*', events.listener);
  const first = await watch.ready();
  // Due about 100 ms after the open: a watch that never schedules its renewal fails here, not at the suite's limit.
  let timer: NodeJS.Timeout | undefined;
  const fresh = await Promise.race([
    renewed,
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error('no renewal within 20 s')), 20_000);
    }),
  ]).finally(() => clearTimeout(timer));
  assert.equal((fresh as { id: string }).id, ids[1]);
  assert.equal(watch.channel?.id, ids[1]);
  const syncs = await events.waitFor(2);
  assert.deepEqual(
    syncs.map((e) => [e.state, e.channelId]),
    [
      ['sync', ids[0]],
      ['sync', ids[1]],
    ],
  );
  assert.notEqual(ids[0], ids[1]);
  await assert.rejects(
    client.request('POST', '/store/v3/channels/stop', { body: { id: first.id, resourceId: first.resourceId } }),
    (error: { status: number }) => error.status === 404,
  );
});

test('a sync message that arrives before the watch response is passed on, not dropped', async () => {
  const file = await client.files.create({ name: 'early-sync.txt' });
  let streamHadSync!: () => void;
  const syncArrived = new Promise<void>((resolve) => (streamHadSync = resolve));
  // The same client, except that it answers a watch call only once the relay stream has delivered the sync:
  // the order spec §3.2 allows ("it may arrive before the watch response").
  const lateAnswers: WatchClient = {
    async request<T>(method: string, path: string, options?: RequestOptions): Promise<T> {
      const result = await client.request<T>(method, path, options);
      if (path.endsWith('/watch')) await syncArrived;
      return result;
    },
  };
  const { watcher: w } = watcher({
    client: lateAnswers,
    openEventStream: (url) => {
      const source = new EventSource(url, { fetch: caFetch });
      source.addEventListener('sync', () => streamHadSync());
      return source;
    },
  });
  const watch = w.watchFile(file.id);
  const events = collector();
  watch.on('*', events.listener);
  const channel = await watch.ready();
  assert.deepEqual(
    events.events.map((e) => [e.state, e.channelId]),
    [['sync', channel.id]],
  );
});

test('a watch the service refuses for another reason than a 401 is asked for once, and its error is heard', async () => {
  let asked = 0;
  const counting: WatchClient = {
    ...client,
    request: (method, path, options) => {
      if (method === 'POST' && path.endsWith('/watch')) asked++;
      return client.request(method, path, options);
    },
  };
  const { watcher: w } = watcher({ client: counting });
  const watch = w.watchFile('no-such-file');
  const errors: unknown[] = [];
  watch.onError((error) => errors.push(error));
  const off = watch.on('*', () => undefined);
  await assert.rejects(
    Promise.race([
      watch.ready(),
      new Promise((_, reject) => setTimeout(() => reject(new Error('no answer within 20 s')), 20_000).unref()),
    ]),
    (error: { status?: number }) => error.status === 404,
  );
  assert.equal(asked, 1, 'a 404 is not asked again');
  assert.ok(errors.length >= 1, 'the refusal is heard');
  await off();
});

test('a watch is asked for with the current token, and a 401 to it with a fresh one, once', async () => {
  // The app's token getter: its current token has expired; asked to refresh, it gives a good one.
  const asked: (boolean | undefined)[] = [];
  const expiring: WatchClient = {
    ...client,
    accessToken: (refresh) => {
      asked.push(refresh);
      return Promise.resolve(refresh ? 'dev-token-alice' : 'dev-token-expired-long-ago');
    },
  };
  const file = await client.files.create({ name: 'token-refresh-watch.txt' });
  const { watcher: w } = watcher({ client: expiring });
  const watch = w.watchFile(file.id);
  const off = watch.on('*', () => undefined);
  await Promise.race([
    watch.ready(),
    new Promise((_, reject) => setTimeout(() => reject(new Error('no channel within 20 s')), 20_000).unref()),
  ]);
  assert.deepEqual(asked, [false, true], 'the current token first; a refreshed one only after its 401');
  await off();
});

test('closing the watcher stops every channel it holds with the service: stopping one again is a 404', async () => {
  const file = await client.files.create({ name: 'closed-watcher.txt' });
  const { watcher: w } = watcher();
  const watch = w.watchFile(file.id);
  const heard = collector();
  watch.on('*', heard.listener);
  const channel = await watch.ready();
  await heard.waitFor(1);
  await w.close();
  await assert.rejects(
    client.request('POST', '/store/v3/channels/stop', { body: { id: channel.id, resourceId: channel.resourceId } }),
    (error: { status: number }) => error.status === 404,
  );
});
