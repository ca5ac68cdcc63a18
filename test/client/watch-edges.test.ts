/**
 * The watcher's edges, in Node against the real service and relay: every listener leaving before the channel
 * opens, the account changing while a channel is being made or renewed, a 401 answered with one fresh token, a
 * relay unreachable once, stops the service answers 404 (no error) or 401 (an error), a renewal refused, and a
 * message whose token the service no longer knows. Tests wait for requests and events, never for time.
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
import { createWatcher, type ChannelInfo, type WatchClient, type Watcher } from '../../src/client/watch.ts';
import { RelayError, type EventSourceLike } from '../../src/client/relay-events.ts';
import { grantToken, revokeToken } from './helpers/accounts.ts';

const ALICE = 'dev-token-alice';
const BOB = 'dev-token-bob';
const STOP = '/store/v3/channels/stop';

let dir: string;
let relay: RunningRelay;
let service: ServiceHandle;
let caFetch: typeof fetch;
const watchers: Watcher[] = [];
const streams: EventSource[] = [];

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'watch-edges-'));
  relay = await startRelay({ port: 0, host: 'localhost', certDir: join(dir, 'certs') });
  service = await startService({
    config: { verifiedDomains: [relay.url], registeredDomains: [relay.url], trustCa: [relay.caPath] },
  });
  caFetch = fetchTrusting(readFileSync(relay.caPath, 'utf8'));
});
after(async () => {
  for (const w of watchers) await w.close();
  for (const s of streams) s.close();
  await service.stop();
  await relay.close();
  rmSync(dir, { recursive: true, force: true });
});

const openEventStream = (url: string): EventSourceLike => {
  const source = new EventSource(url, { fetch: caFetch });
  streams.push(source);
  return source;
};

/** A request the client sent: method, path, bearer token and, for a channel request, the channel id it names. */
interface Sent {
  method: string;
  path: string;
  token: string;
  id?: string;
}

/** A token of Alice's account that the test can revoke (a real sign-out). */
async function aliceToken(): Promise<string> {
  const token = `alice-${randomUUID()}`;
  await grantToken(service.url, token, 'alice@example.com');
  return token;
}

/** A file of Alice's, to watch. */
async function aliceFile(): Promise<string> {
  const r = await service.api('POST', '/store/v3/files', { token: ALICE, body: { name: `${randomUUID()}.txt` } });
  assert.equal(r.status, 200, r.text);
  return r.json<{ id: string }>().id;
}

/** Stopping `channel` again as `token`: 404 once the service no longer has it. */
async function stopAgain(token: string, channel: { id: string; resourceId: string }): Promise<number> {
  return (await service.api('POST', STOP, { token, body: { id: channel.id, resourceId: channel.resourceId } })).status;
}

/** The first of `promises` to settle, labelled. */
function first<T extends Record<string, Promise<unknown>>>(promises: T): Promise<{ which: keyof T; value: unknown }> {
  return Promise.race(Object.entries(promises).map(([which, p]) => p.then((value) => ({ which, value }))));
}

/**
 * A watcher over a real client whose getter gives `signedIn.token`; `sent` records every request, and `onSend`
 * (when set) runs as a request leaves, before it reaches the service.
 */
function setUp(
  signedIn: { token: string },
  options: { ttlMs?: number; renewBeforeMs?: number; relayFetch?: typeof fetch } = {},
) {
  const sent: Sent[] = [];
  const hooks = { onSend: undefined as ((request: Sent) => void) | undefined };
  const sentWaits = new Set<() => void>();
  const client = createStoreClient({
    baseUrl: service.url,
    getAccessToken: () => signedIn.token,
    fetch: (input, init) => {
      const url = new URL(input instanceof Request ? input.url : String(input));
      const token = new Headers(init?.headers).get('authorization')?.replace(/^Bearer /, '') ?? '';
      const body = typeof init?.body === 'string' ? (JSON.parse(init.body) as { id?: string }) : undefined;
      const request: Sent = {
        method: init?.method ?? 'GET',
        path: url.pathname,
        token,
        ...(body?.id && { id: body.id }),
      };
      sent.push(request);
      hooks.onSend?.(request);
      for (const w of [...sentWaits]) w();
      return fetch(input, init);
    },
  });
  const watcher = createWatcher({
    client,
    relayUrl: relay.url,
    fetch: options.relayFetch ?? caFetch,
    openEventStream,
    ...(options.ttlMs !== undefined && { ttlMs: options.ttlMs }),
    ...(options.renewBeforeMs !== undefined && { renewBeforeMs: options.renewBeforeMs }),
  });
  watchers.push(watcher);
  /** Resolves once a request matching `match` was sent. */
  const sentOne = (match: (r: Sent) => boolean): Promise<Sent> =>
    new Promise((resolve) => {
      const check = (): void => {
        const found = sent.find(match);
        if (found) {
          sentWaits.delete(check);
          resolve(found);
        }
      };
      sentWaits.add(check);
      check();
    });
  return { client, watcher, sent, hooks, sentOne };
}

const isWatch = (r: Sent): boolean => r.method === 'POST' && r.path.endsWith('/watch');

test('every listener leaves before the channel opens: the opening rejects, and the channel made is stopped', async () => {
  const t = setUp({ token: ALICE });
  const watch = t.watcher.watchChanges();
  const errors: unknown[] = [];
  watch.onError((error) => errors.push(error));
  const off = watch.on('*', () => undefined);
  const opening = watch.ready();
  await off();
  await assert.rejects(opening, { message: 'watch ended before its channel opened' });
  assert.equal(watch.channel, undefined);
  assert.equal((errors[0] as Error | undefined)?.message, 'watch ended before its channel opened');
  const made = t.sent.find(isWatch);
  assert.ok(made?.id, 'a channel was asked for');
  assert.ok(
    t.sent.some((r) => r.path === STOP && r.id === made.id && r.token === ALICE),
    'the channel made is stopped by its creator',
  );
});

test('the account changes while the channel is being made: that channel is stopped and the new account’s opens', async () => {
  const signedIn = { token: ALICE };
  const t = setUp(signedIn);
  t.hooks.onSend = (request) => {
    if (!isWatch(request)) return;
    t.hooks.onSend = undefined;
    // Alice's channel request is on its way; Bob signs in before it is answered.
    signedIn.token = BOB;
    void t.watcher.accountChanged();
  };
  const watch = t.watcher.watchChanges();
  watch.on('*', () => undefined);
  const channel = await watch.ready();
  const watches = t.sent.filter(isWatch);
  assert.deepEqual(
    watches.map((r) => r.token),
    [ALICE, BOB],
    'made again with Bob’s token',
  );
  assert.equal(channel.id, watches[1]!.id, 'the channel kept is Bob’s');
  assert.ok(t.sent.some((r) => r.path === STOP && r.id === watches[0]!.id && r.token === ALICE));
});

test('a 401 to the channel request asks for a fresh token once, and the channel opens with it', async () => {
  const fileId = await aliceFile();
  const expired = await aliceToken();
  await revokeToken(service.url, expired);
  const real = createStoreClient({ baseUrl: service.url, getAccessToken: () => ALICE });
  const tokens: string[] = [];
  let stale = 0;
  const client: WatchClient = {
    request: (method, path, options) => real.request(method, path, options),
    accessToken: (refresh) => {
      // A getter that hands out its cached, expired token until it is told a 401 came back.
      if (!refresh && ++stale > 2) return Promise.reject(new Error('asked for the cached token again after a 401'));
      const token = refresh ? ALICE : expired;
      tokens.push(token);
      return Promise.resolve(token);
    },
  };
  const watcher = createWatcher({ client, relayUrl: relay.url, fetch: caFetch, openEventStream });
  watchers.push(watcher);
  const watch = watcher.watchFile(fileId);
  watch.on('*', () => undefined);
  const channel = await watch.ready();
  assert.deepEqual(tokens, [expired, ALICE]);
  assert.equal(await stopAgain(ALICE, channel), 204, 'the channel is Alice’s, made with the fresh token');
});

test('a relay unreachable once fails the opening with relay-unreachable; the next opening subscribes afresh', async () => {
  let calls = 0;
  const relayFetch: typeof fetch = (input, init) =>
    ++calls === 1 ? Promise.reject(new Error('network is down')) : caFetch(input, init);
  const t = setUp({ token: ALICE }, { relayFetch });
  const fileId = await aliceFile();
  const watch = t.watcher.watchFile(fileId);
  const errors: unknown[] = [];
  watch.onError((error) => errors.push(error));
  watch.on('*', () => undefined);
  await assert.rejects(watch.ready(), (error) => {
    assert.ok(error instanceof RelayError, String(error));
    assert.equal(error.code, 'relay-unreachable');
    assert.match(error.message, /network is down/);
    return true;
  });
  assert.ok(errors[0] instanceof RelayError);
  const channel = await watch.ready();
  assert.equal(typeof channel.id, 'string');
  assert.equal(calls, 2, 'the relay was asked again');
});

test('a stop the service answers 404 (the channel is gone already) is no error', async () => {
  const t = setUp({ token: ALICE });
  const watch = t.watcher.watchFile(await aliceFile());
  const errors: unknown[] = [];
  watch.onError((error) => errors.push(error));
  const off = watch.on('*', () => undefined);
  const channel = await watch.ready();
  assert.equal(await stopAgain(ALICE, channel), 204);
  await off();
  assert.ok(
    t.sent.some((r) => r.path === STOP && r.id === channel.id),
    'the watcher stopped it too',
  );
  assert.deepEqual(errors, []);
});

test('a stop the service refuses (its token was revoked) is an error event with the 401', async () => {
  const token = await aliceToken();
  const t = setUp({ token });
  const watch = t.watcher.watchFile(await aliceFile());
  const errors: unknown[] = [];
  watch.onError((error) => errors.push(error));
  const off = watch.on('*', () => undefined);
  await watch.ready();
  await revokeToken(service.url, token);
  await off();
  assert.equal(errors.length, 1);
  assert.equal((errors[0] as { status?: number }).status, 401);
});

test('a renewal the service refuses is an error event; the old channel is kept', async () => {
  const token = await aliceToken();
  const t = setUp({ token }, { ttlMs: 3_000, renewBeforeMs: 2_000 });
  const watch = t.watcher.watchFile(await aliceFile());
  const failed = new Promise<unknown>((resolve) => watch.onError(resolve));
  const renewed = new Promise<ChannelInfo>((resolve) => watch.onRenew(resolve));
  watch.on('*', () => undefined);
  const channel = await watch.ready();
  await revokeToken(service.url, token);
  const outcome = await first({ failed, renewed });
  assert.equal(outcome.which, 'failed');
  assert.equal((outcome.value as { status?: number }).status, 401);
  assert.equal(watch.channel?.id, channel.id, 'the channel still running is kept');
});

test('the account changes while a renewal is being made: the renewed channel is stopped, not kept', async () => {
  const signedIn = { token: ALICE };
  const t = setUp(signedIn, { ttlMs: 3_000, renewBeforeMs: 2_000 });
  const watch = t.watcher.watchChanges();
  const renewals: ChannelInfo[] = [];
  watch.onRenew((channel) => renewals.push(channel));
  watch.on('*', () => undefined);
  const channel = await watch.ready();
  let renewal: Sent | undefined;
  const renewing = new Promise<Sent>((resolve) => {
    t.hooks.onSend = (request) => {
      if (!isWatch(request) || request.id === undefined) return;
      t.hooks.onSend = undefined;
      renewal = request;
      signedIn.token = BOB;
      void t.watcher.accountChanged();
      resolve(request);
    };
  });
  const fresh = await renewing;
  assert.equal(fresh.token, ALICE, 'the renewal was asked as Alice');
  const stopped = t.sentOne((r) => r.path === STOP && r.id === renewal!.id);
  const renewed = new Promise<ChannelInfo>((resolve) => watch.onRenew(resolve));
  const outcome = await first({ stopped, renewed });
  assert.equal(outcome.which, 'stopped', 'the renewed channel of Alice is stopped');
  assert.equal((outcome.value as Sent).token, ALICE);
  assert.deepEqual(renewals, []);
  const bobs = await t.sentOne((r) => isWatch(r) && r.token === BOB);
  assert.notEqual(bobs.id, channel.id);
});

test('a message whose channel token the service no longer knows is an error event, not passed on', async () => {
  const token = await aliceToken();
  const signedIn = { token };
  const t = setUp(signedIn);
  const watch = t.watcher.watchChanges();
  const heard: PushEvent[] = [];
  let syncs = 0;
  let secondSync!: () => void;
  const resynced = new Promise<void>((resolve) => (secondSync = resolve));
  let firstSync!: () => void;
  const synced = new Promise<void>((resolve) => (firstSync = resolve));
  watch.on('*', (event) => {
    heard.push(event);
    if (event.state === 'sync' && ++syncs === 1) firstSync();
    if (event.state === 'sync' && syncs === 2) secondSync();
  });
  const failed = new Promise<unknown>((resolve) => watch.onError(resolve));
  await watch.ready();
  await synced;
  // The app now gives Alice's other token, and the one the channel was made with is revoked.
  signedIn.token = ALICE;
  await revokeToken(service.url, token);
  const r = await service.api('POST', '/store/v3/files', { token: ALICE, body: { name: `${randomUUID()}.txt` } });
  assert.equal(r.status, 200, r.text);
  const outcome = await first({ failed, resynced });
  assert.equal(outcome.which, 'failed');
  assert.equal((outcome.value as { status?: number }).status, 401);
  assert.ok(
    t.sent.some((r) => r.path === '/store/v3/about' && r.token === token),
    'the service was asked whose the channel’s token is',
  );
  assert.ok(!t.sent.some((r) => r.path === STOP), 'the watch did not move: whose the message is cannot be told');
  assert.deepEqual(
    heard.map((e) => e.state),
    ['sync'],
    'the change was not passed on',
  );
});
