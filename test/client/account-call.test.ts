/**
 * The one account-change call (issue 37): `StoreClient.accountChanged()` moves every watcher made with that client,
 * resolving once each has (the first account's channel stopped at the service, the second's open), and the client's
 * next request carries the second account's token. A closed watcher is unbound from its client.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EventSource } from 'eventsource';
import { startService, type ServiceHandle } from '../server/helpers/service.ts';
import { fetchTrusting } from '../server/push-helpers.ts';
import { startRelay, type RunningRelay } from '../../server/relay/start.ts';
import { UploadStore } from '../../src/headless/upload-store.ts';
import { optionsKey } from '../../src/headless/registry.ts';
import { accountChanges, createStoreClient, createWatcher, type StoreClient } from '../../src/client/index.ts';

const ALICE = 'dev-token-alice';
const BOB = 'dev-token-bob';
const STOP = '/store/v3/channels/stop';

let dir: string;
let relay: RunningRelay;
let service: ServiceHandle;
let caFetch: typeof fetch;

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'account-call-'));
  relay = await startRelay({ port: 0, host: 'localhost', certDir: join(dir, 'certs') });
  service = await startService({
    config: { verifiedDomains: [relay.url], registeredDomains: [relay.url], trustCa: [relay.caPath] },
  });
  caFetch = fetchTrusting(readFileSync(relay.caPath, 'utf8'));
});
after(async () => {
  await service.stop();
  await relay.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A client whose getter gives `signedIn.token`, recording each request's path and bearer token. */
function clientOf(signedIn: { token: string }) {
  const sent: { path: string; token: string }[] = [];
  const client = createStoreClient({
    baseUrl: service.url,
    getAccessToken: () => signedIn.token,
    fetch: (input, init) => {
      const url = new URL(input instanceof Request ? input.url : String(input));
      sent.push({ path: url.pathname, token: new Headers(init?.headers).get('authorization') ?? '' });
      return fetch(input, init);
    },
  });
  return { client, sent };
}

const watcherOf = (client: StoreClient) =>
  createWatcher({
    client,
    relayUrl: relay.url,
    fetch: caFetch,
    openEventStream: (url) => new EventSource(url, { fetch: caFetch }),
  });

test('client.accountChanged() moves the watcher made with it: resolved, Alice’s channel is stopped and Bob’s open', async () => {
  const signedIn = { token: ALICE };
  const { client, sent } = clientOf(signedIn);
  const watcher = watcherOf(client);
  try {
    const watch = watcher.watchChanges();
    watch.on('*', () => undefined);
    const alices = await watch.ready();

    signedIn.token = BOB;
    const before = sent.length;
    await client.accountChanged(); // the one call: no watcher.accountChanged()
    const moved = sent.slice(before);
    assert.deepEqual(
      moved.filter((r) => r.path === STOP),
      [{ path: STOP, token: `Bearer ${ALICE}` }],
      'Alice’s channel stopped, with her token, before the call resolved',
    );
    const bobs = watch.channel;
    assert.ok(bobs && bobs.id !== alices.id, 'a new channel is open when the call resolves');
    const stopAgain = await service.api('POST', STOP, {
      token: ALICE,
      body: { id: alices.id, resourceId: alices.resourceId },
    });
    assert.equal(stopAgain.status, 404, 'the service no longer has Alice’s channel');

    await client.about();
    assert.equal(sent.at(-1)?.token, `Bearer ${BOB}`, 'the client’s next call is Bob’s');
  } finally {
    await watcher.close();
  }
});

test('a closed watcher is unbound from its client', async () => {
  const { client } = clientOf({ token: ALICE });
  let bound = 0;
  const counted: StoreClient = {
    ...client,
    onAccountChange: (listener) => {
      bound++;
      const unbind = client.onAccountChange(listener);
      return () => {
        bound--;
        unbind();
      };
    },
  };
  const watcher = watcherOf(counted);
  assert.equal(bound, 1);
  await watcher.close();
  assert.equal(bound, 0);
});

test('accountChanges: resolves once every bound part has moved; a failure rejects after the others moved', async () => {
  const changes = accountChanges();
  const moved: string[] = [];
  let release!: () => void;
  const slow = new Promise<void>((resolve) => (release = resolve));
  changes.onAccountChange(async (account) => {
    await slow;
    moved.push(`slow:${account}`);
  });
  const off = changes.onAccountChange((account) => void moved.push(`fast:${account}`));
  let settled = false;
  const call = changes.accountChanged('bob').then(() => (settled = true));
  await Promise.resolve();
  assert.equal(settled, false, 'not resolved while a part is still moving');
  release();
  await call;
  assert.deepEqual(moved.sort(), ['fast:bob', 'slow:bob']);

  off();
  moved.length = 0;
  changes.onAccountChange(() => {
    throw new Error('could not move');
  });
  await assert.rejects(changes.accountChanged('carol'), /could not move/);
  assert.deepEqual(moved, ['slow:carol'], 'the unbound part was not called; the others moved');
});

test('the headless store with a client: a change of the app’s account makes the one call, and the watcher moves', async () => {
  const signedIn = { token: ALICE };
  const { client } = clientOf(signedIn);
  const watcher = watcherOf(client);
  try {
    const watch = watcher.watchChanges();
    watch.on('*', () => undefined);
    const alices = await watch.ready();
    const options = { client, account: 'alice' };
    const store = new UploadStore(options);
    store.setOptions({ client, account: 'alice' }); // a re-render with the same account: no call
    assert.equal(watch.channel?.id, alices.id);

    signedIn.token = BOB;
    store.setOptions({ client, account: 'bob' });
    await store.accountChange;
    assert.ok(watch.channel && watch.channel.id !== alices.id, 'the client’s watcher moved to Bob');
    assert.equal(optionsKey({ client, account: 'alice' }), optionsKey({ client, account: 'bob' }), 'one store');
    assert.notEqual(
      optionsKey({ baseUrl: service.url, account: 'alice' }),
      optionsKey({ baseUrl: service.url, account: 'bob' }),
      'without a client, a store per account as before',
    );
  } finally {
    await watcher.close();
  }
});
