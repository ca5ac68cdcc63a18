/**
 * The watcher follows the signed-in account (issue 37), in Node against the real service and relay: on an account
 * change it stops the first account's channels at the service with that account's token, opens the second's, and
 * never passes on a message of the first — not when the app says so (`accountChanged()`), not when it says nothing,
 * not when the first account's message reaches the page after the switch (held back at the event stream, then let
 * go). A refreshed token of the same account changes nothing.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EventSource } from 'eventsource';
import { startService, type ServiceHandle } from '../server/helpers/service.ts';
import { fetchTrusting } from '../server/push-helpers.ts';
import { startRelay, type RunningRelay } from '../../server/relay/start.ts';
import { createStoreClient } from '../../src/client/index.ts';
import type { PushEvent } from '../../src/protocol/push.ts';
import { createWatcher, type Watch, type Watcher } from '../../src/client/watch.ts';
import type { EventSourceLike, StreamMessage } from '../../src/client/relay-events.ts';
import { grantToken } from './helpers/accounts.ts';

const ALICE = 'dev-token-alice';
const BOB = 'dev-token-bob';
const STOP = '/store/v3/channels/stop';

let dir: string;
let relay: RunningRelay;
let service: ServiceHandle;
let caFetch: typeof fetch;
const watchers: Watcher[] = [];

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'watch-account-'));
  relay = await startRelay({ port: 0, host: 'localhost', certDir: join(dir, 'certs') });
  service = await startService({
    config: { verifiedDomains: [relay.url], registeredDomains: [relay.url], trustCa: [relay.caPath] },
  });
  caFetch = fetchTrusting(readFileSync(relay.caPath, 'utf8'));
});
after(async () => {
  for (const w of watchers) await w.close();
  await service.stop();
  await relay.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Waits for `check` to hold, re-checked whenever `poke` is called (by an event), failing after 20 s. */
function until<T>(check: () => T | undefined, what: string): { promise: Promise<T>; poke: () => void } {
  let poke = (): void => undefined;
  const promise = new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`timed out waiting for ${what}`)), 20_000);
    poke = () => {
      const value = check();
      if (value !== undefined) {
        clearTimeout(timer);
        resolve(value);
      }
    };
    poke();
  });
  return { promise, poke };
}

/**
 * A watcher over one client whose getter gives `signedIn.token`; what it sent (method, path, bearer token), what its
 * listeners heard, and the raw relay stream, which the test can hold back (`hold`) and let go (`release`).
 */
function setUp(signedIn: { token: string }) {
  const sent: { method: string; path: string; token: string }[] = [];
  const client = createStoreClient({
    baseUrl: service.url,
    getAccessToken: () => signedIn.token,
    fetch: (input, init) => {
      const url = new URL(input instanceof Request ? input.url : String(input));
      const token = new Headers(init?.headers).get('authorization')?.replace(/^Bearer /, '') ?? '';
      sent.push({ method: init?.method ?? 'GET', path: url.pathname, token });
      return fetch(input, init);
    },
  });
  const raw: PushEvent[] = [];
  const heard: PushEvent[] = [];
  const errors: unknown[] = [];
  const waits = new Set<() => void>();
  const poke = (): void => waits.forEach((w) => w());
  let held: (() => void)[] | undefined;
  const watcher = createWatcher({
    client,
    relayUrl: relay.url,
    fetch: caFetch,
    openEventStream: (url) => holdable(new EventSource(url, { fetch: caFetch })),
  });
  watchers.push(watcher);

  /** The stream as the watcher reads it, recording each push message and delaying it while held. */
  function holdable(source: EventSourceLike): EventSourceLike {
    const wrapped = new Map<(m: StreamMessage) => void, (m: StreamMessage) => void>();
    return {
      get readyState() {
        return source.readyState;
      },
      addEventListener(type, listener) {
        const inner = (message: StreamMessage): void => {
          if (type === 'open' || type === 'error' || type === 'gap') return listener(message);
          raw.push(JSON.parse(message.data) as PushEvent);
          poke();
          if (held) held.push(() => listener(message));
          else listener(message);
        };
        wrapped.set(listener, inner);
        source.addEventListener(type, inner);
      },
      removeEventListener(type, listener) {
        source.removeEventListener(type, wrapped.get(listener) ?? listener);
      },
      close: () => source.close(),
    };
  }

  const listen = (watch: Watch): void => {
    watch.on('*', (event) => {
      heard.push(event);
      poke();
    });
    watch.onError((error) => {
      errors.push(error);
      poke();
    });
  };
  const wait = <T>(check: () => T | undefined, what: string): Promise<T> => {
    const w = until(check, what);
    waits.add(w.poke);
    return w.promise.finally(() => waits.delete(w.poke));
  };
  return {
    client,
    watcher,
    sent,
    raw,
    heard,
    errors,
    listen,
    wait,
    hold: () => void (held = []),
    release: () => {
      const queue = held ?? [];
      held = undefined;
      for (const deliver of queue) deliver();
    },
  };
}

/** A file made by `token`'s account from outside the page: a change in its change log. */
async function change(token: string, name = `${token}-${randomUUID()}.txt`): Promise<string> {
  const r = await service.api('POST', '/store/v3/files', { token, body: { name } });
  assert.equal(r.status, 200, r.text);
  return r.json<{ id: string }>().id;
}

/** Stopping the channel again as its creator: 404 once the service no longer has it. */
async function stopAgain(token: string, channel: { id: string; resourceId: string }): Promise<number> {
  return (await service.api('POST', STOP, { token, body: { id: channel.id, resourceId: channel.resourceId } })).status;
}

test('accountChanged(): Alice’s channel is stopped with her token, Bob’s opens, and only Bob’s changes are heard', async () => {
  const signedIn = { token: ALICE };
  const t = setUp(signedIn);
  const watch = t.watcher.watchChanges();
  t.listen(watch);
  const alices = await watch.ready();
  await t.wait(() => t.heard.find((e) => e.state === 'sync'), 'Alice’s sync');

  signedIn.token = BOB;
  const before = t.sent.length;
  await t.watcher.accountChanged();
  const bobs = await watch.ready();
  assert.notEqual(bobs.id, alices.id);
  const stops = t.sent.slice(before).filter((r) => r.path === STOP);
  assert.deepEqual(stops, [{ method: 'POST', path: STOP, token: ALICE }], 'stopped once, as its creator');
  assert.equal(await stopAgain(ALICE, alices), 404, 'the service no longer has Alice’s channel');
  await t.wait(() => t.heard.find((e) => e.state === 'sync' && e.channelId === bobs.id), 'Bob’s sync');

  const heardBefore = t.heard.length;
  await change(ALICE);
  await change(BOB);
  await t.wait(() => t.heard.slice(heardBefore).find((e) => e.state === 'change'), 'Bob’s change');
  await change(BOB); // a second one of Bob's, after Alice's: it came through, Alice's never will
  await t.wait(() => (t.heard.slice(heardBefore).length >= 2 ? true : undefined), 'Bob’s second change');
  assert.ok(t.heard.slice(heardBefore).every((e) => e.channelId === bobs.id));
  assert.ok(
    t.raw.every((e) => e.channelId !== alices.id || e.state === 'sync'),
    'the service sent nothing more',
  );
  assert.ok(
    t.sent.slice(before).every((r) => r.token === BOB || r.path === STOP),
    'every other request after the switch is Bob’s',
  );
});

test('the app says nothing: Alice’s message after the switch is dropped, and the watch moves to Bob at once', async () => {
  const signedIn = { token: ALICE };
  const t = setUp(signedIn);
  const watch = t.watcher.watchChanges();
  t.listen(watch);
  const alices = await watch.ready();
  await t.wait(() => t.heard.find((e) => e.state === 'sync'), 'Alice’s sync');

  signedIn.token = BOB; // and no call: the app only changed what its getter gives
  await change(ALICE);
  await t.wait(
    () => t.raw.find((e) => e.channelId === alices.id && e.state === 'change'),
    'Alice’s change on the wire',
  );
  const bobSync = await t.wait(
    () => t.heard.find((e) => e.state === 'sync' && e.channelId !== alices.id),
    'the watch reopened as Bob',
  );
  assert.deepEqual(
    t.heard.filter((e) => e.channelId === alices.id).map((e) => e.state),
    ['sync'],
    'no message of Alice after the switch reached a listener',
  );
  await t.wait(() => (t.sent.some((r) => r.path === STOP && r.token === ALICE) ? true : undefined), 'Alice’s stop');
  assert.equal(await stopAgain(ALICE, alices), 404);
  await change(BOB);
  await t.wait(() => t.heard.find((e) => e.state === 'change' && e.channelId === bobSync.channelId), 'Bob’s change');
});

test('the race: Alice’s message reaches the page only after accountChanged() began — it is dropped', async () => {
  const signedIn = { token: ALICE };
  const t = setUp(signedIn);
  const watch = t.watcher.watchChanges();
  t.listen(watch);
  const alices = await watch.ready();
  await t.wait(() => t.heard.find((e) => e.state === 'sync'), 'Alice’s sync');

  t.hold();
  await change(ALICE);
  await t.wait(() => t.raw.find((e) => e.channelId === alices.id && e.state === 'change'), 'Alice’s change, held');
  signedIn.token = BOB;
  const switching = t.watcher.accountChanged();
  t.release(); // Alice's message arrives now, while her channel is being stopped
  await switching;
  const bobs = await watch.ready();
  await change(BOB);
  await t.wait(() => t.heard.find((e) => e.state === 'change' && e.channelId === bobs.id), 'Bob’s change');
  assert.deepEqual(
    t.heard.filter((e) => e.channelId === alices.id).map((e) => e.state),
    ['sync'],
  );
});

test('a file Bob cannot see: its watch fails with the service’s 404 as an error event, Alice’s channel stopped', async () => {
  const signedIn = { token: ALICE };
  const t = setUp(signedIn);
  const fileId = await change(ALICE);
  const watch = t.watcher.watchFile(fileId);
  t.listen(watch);
  const alices = await watch.ready();
  signedIn.token = BOB;
  await t.watcher.accountChanged();
  const error = await t.wait(() => t.errors[0], 'the error event');
  assert.equal((error as { status?: number }).status, 404);
  assert.equal(watch.channel, undefined);
  assert.equal(await stopAgain(ALICE, alices), 404);
  // Alice's change to it reaches no listener (the service has no channel left to send it to).
  const heard = t.heard.length;
  assert.equal(
    (await service.api('PATCH', `/store/v3/files/${fileId}`, { body: { name: 'renamed.txt' } })).status,
    200,
  );
  await change(BOB); // nothing watches Bob's changes here: this only lets a stray message arrive first
  assert.equal(t.heard.length, heard);
  // One watch per file: the same one for the same id, another for another id.
  assert.equal(t.watcher.watchFile(fileId), watch);
  assert.notEqual(t.watcher.watchFile(`${fileId}-other`), watch);
});

test('a refreshed token of the same account changes nothing: its messages are heard on the same channel', async () => {
  const signedIn = { token: ALICE };
  const t = setUp(signedIn);
  const watch = t.watcher.watchChanges();
  t.listen(watch);
  const channel = await watch.ready();
  await t.wait(() => t.heard.find((e) => e.state === 'sync'), 'the sync');
  const refreshed = `alice-refreshed-${randomUUID()}`;
  await grantToken(service.url, refreshed, 'alice@example.com');
  signedIn.token = refreshed;
  await change(ALICE);
  await t.wait(() => t.heard.find((e) => e.state === 'change' && e.channelId === channel.id), 'Alice’s change');
  assert.equal(watch.channel?.id, channel.id);
  assert.ok(!t.sent.some((r) => r.path === STOP));
});
