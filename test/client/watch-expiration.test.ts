/**
 * A channel's expiration when the service's answer leaves it out (an app that asks the watch call for a partial
 * answer with `fields`, or a service that does not echo it): the watcher counts it from its own clock, the lifetime
 * it asked for, and renews before then. In Node against the real service and relay.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { EventSource } from 'eventsource';
import { startRelay, type RunningRelay } from '../../server/relay/start.ts';
import { createStoreClient } from '../../src/client/index.ts';
import { type EventSourceLike } from '../../src/client/relay-events.ts';
import { createWatcher, type WatchClient, type Watcher } from '../../src/client/watch.ts';
import { fetchTrusting } from '../server/push-helpers.ts';
import { startService, type ServiceHandle } from '../server/helpers/service.ts';

let dir: string;
let relay: RunningRelay;
let service: ServiceHandle;
let caFetch: typeof fetch;
const watchers: Watcher[] = [];
const streams: EventSource[] = [];

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'watch-expiration-'));
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

test('a watch answer without an expiration gives the channel the lifetime asked for, counted from the watcher’s clock', async () => {
  const store = createStoreClient({ baseUrl: service.url, getAccessToken: () => 'dev-token-alice' });
  const answers: Record<string, unknown>[] = [];
  // The app asks its watch calls for the channel's id and resource only: the service then leaves out the expiration.
  const client: WatchClient = {
    request: async <T>(method: string, path: string, options?: Parameters<WatchClient['request']>[2]) => {
      if (!path.endsWith('/watch')) return store.request<T>(method, path, options);
      const answer = await store.request<T>(method, path, { ...options, fields: 'kind,id,resourceId,resourceUri' });
      answers.push(answer as Record<string, unknown>);
      return answer;
    },
  };
  const clock = Date.now();
  const ttlMs = 20 * 60_000;
  const watcher = createWatcher({
    client,
    relayUrl: relay.url,
    fetch: caFetch,
    openEventStream,
    ttlMs,
    now: () => clock,
  });
  watchers.push(watcher);
  const renewed: unknown[] = [];
  const watch = watcher.watchChanges();
  watch.onRenew((channel) => renewed.push(channel));
  const off = watch.on('*', () => undefined);
  const channel = await watch.ready();
  assert.equal(answers.length, 1);
  assert.equal(answers[0]!.expiration, undefined, 'the service left the expiration out, as asked');
  assert.equal(channel.expiration, clock + ttlMs);
  assert.equal(watch.channel?.expiration, clock + ttlMs);
  await off();
  assert.deepEqual(renewed, [], 'a channel 20 minutes from expiry is not renewed');
  assert.equal(answers.length, 1, 'nor asked for again');
});
