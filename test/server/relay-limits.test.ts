/**
 * Issue 10, failure 6: the relay's subscriptions are bounded per client address and in total, idle ones expire,
 * creating them is rate limited — and a subscription whose event stream is open is never evicted, so a flood of
 * unauthenticated `POST /subscriptions` cannot make the service's next push get a 404 (which it never retries).
 * Over real HTTPS on loopback; different client addresses are different 127.0.0.x source addresses.
 */
import assert from 'node:assert/strict';
import type { IncomingMessage } from 'node:http';
import { Agent, request } from 'node:https';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { startRelay, type RunningRelay, type StartRelayOptions } from '../../server/relay/start.ts';

interface Grant {
  subscriptionId: string;
  key: string;
  address: string;
  token: string;
}

const dirs: string[] = [];
const relays: RunningRelay[] = [];
after(async () => {
  for (const r of relays) await r.close();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

let certDir: string;
before(() => {
  certDir = mkdtempSync(join(tmpdir(), 'relay-limits-'));
  dirs.push(certDir);
});

async function relayWith(options: StartRelayOptions) {
  const relay = await startRelay({
    port: 0,
    host: 'localhost',
    certDir: join(certDir, 'certs'),
    keepAliveMs: 60_000,
    ...options,
  });
  relays.push(relay);
  const ca = readFileSync(relay.caPath, 'utf8');
  const agents = new Map<string, Agent>();
  const agentFor = (from: string) => {
    let a = agents.get(from);
    if (!a) agents.set(from, (a = new Agent({ keepAlive: true, ca, localAddress: from, maxSockets: 8 })));
    return a;
  };
  const call = (method: string, path: string, from = '127.0.0.1', headers: Record<string, string> = {}, body = '') =>
    new Promise<{ status: number; headers: IncomingMessage['headers']; body: string }>((resolve, reject) => {
      const req = request(
        `https://127.0.0.1:${relay.port}${path}`,
        { method, headers: { host: 'localhost', ...headers }, servername: 'localhost', agent: agentFor(from) },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () =>
            resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks).toString() }),
          );
          res.on('error', reject);
        },
      );
      req.on('error', reject);
      req.end(body);
    });
  const subscribe = async (from = '127.0.0.1'): Promise<Grant> => {
    const r = await call('POST', '/subscriptions', from);
    assert.equal(r.status, 201, r.body);
    return JSON.parse(r.body) as Grant;
  };
  /** Opens the event stream and resolves once the relay has answered its head (the stream is live). */
  const listen = (grant: Grant) =>
    new Promise<{ next: () => Promise<string>; close: () => void }>((resolve, reject) => {
      const req = request(
        `https://127.0.0.1:${relay.port}/subscriptions/${grant.subscriptionId}/events?key=${encodeURIComponent(grant.key)}`,
        { headers: { host: 'localhost' }, servername: 'localhost', ca, agent: false },
        (res) => {
          assert.equal(res.statusCode, 200);
          res.setEncoding('utf8');
          let text = '';
          let wake: (() => void) | undefined;
          res.on('data', (t: string) => {
            text += t;
            wake?.();
          });
          resolve({
            next: () =>
              new Promise<string>((res2, rej2) => {
                const timer = setTimeout(() => rej2(new Error(`no event within 10 s; stream so far: ${text}`)), 10_000);
                const check = () => {
                  const m = /data: (\{.*\})\n\n/.exec(text);
                  if (!m) return;
                  clearTimeout(timer);
                  wake = undefined;
                  res2(m[1]);
                };
                wake = check;
                check();
              }),
            close: () => res.destroy(),
          });
        },
      );
      req.on('error', reject);
      req.end();
    });
  const push = (grant: Grant, n: number) =>
    call('POST', new URL(grant.address).pathname, '127.0.0.1', {
      'x-svc-channel-id': 'chan',
      'x-svc-message-number': String(n),
      'x-svc-resource-state': 'update',
      'x-svc-channel-token': grant.token,
    });
  return { relay, call, subscribe, listen, push, close: () => agents.forEach((a) => a.destroy()) };
}

test('a flood of 10,001 subscription requests from many addresses evicts no live subscription; the next push is delivered', async () => {
  const r = await relayWith({
    maxSubscriptions: 40,
    maxSubscriptionsPerClient: 10,
    createBurst: 1_000,
    createPerMinute: 60,
  });
  const live = await r.subscribe();
  const stream = await r.listen(live);
  const statuses = new Map<number, number>();
  const from = ['127.0.0.2', '127.0.0.3', '127.0.0.4', '127.0.0.5', '127.0.0.6', '127.0.0.7'];
  let sent = 0;
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (sent < 10_001) {
        const i = sent++;
        const a = await r.call('POST', '/subscriptions', from[i % from.length]);
        statuses.set(a.status, (statuses.get(a.status) ?? 0) + 1);
      }
    }),
  );
  // Some were created (and evicted again), the rest refused by the rate limit; none evicted the live one.
  assert.ok((statuses.get(201) ?? 0) > 0 && (statuses.get(429) ?? 0) > 0, JSON.stringify([...statuses]));
  assert.deepEqual(
    [...statuses.keys()].filter((s) => s !== 201 && s !== 429),
    [],
  );
  const delivered = await r.push(live, 2);
  assert.equal(delivered.status, 200, delivered.body);
  assert.equal(JSON.parse(await stream.next()).messageNumber, 2);
  stream.close();
  r.close();
});

test('per address: at most maxSubscriptionsPerClient; the idlest without a stream makes room, a live one never does', async () => {
  const r = await relayWith({ maxSubscriptions: 100, maxSubscriptionsPerClient: 2, createBurst: 100 });
  const a = await r.subscribe('127.0.0.8');
  const b = await r.subscribe('127.0.0.8');
  const sa = await r.listen(a);
  const sb = await r.listen(b);
  const refused = await r.call('POST', '/subscriptions', '127.0.0.8');
  assert.equal(refused.status, 429);
  assert.match(refused.body, /open event streams/);
  // Another address is not affected.
  await r.subscribe('127.0.0.9');
  sb.close();
  // Once b's stream is gone, b is the one that makes room; a (live) stays.
  const until = Date.now() + 10_000;
  let c: { status: number; body: string };
  do c = await r.call('POST', '/subscriptions', '127.0.0.8');
  while (c.status === 429 && Date.now() < until);
  assert.equal(c.status, 201, c.body);
  assert.equal((await r.push(b, 2)).status, 404);
  assert.equal((await r.push(a, 2)).status, 200);
  sa.close();
  r.close();
});

test('in total: at most maxSubscriptions; when all are live, a new one is refused with 503', async () => {
  const r = await relayWith({ maxSubscriptions: 2, maxSubscriptionsPerClient: 10, createBurst: 100 });
  const s1 = await r.listen(await r.subscribe('127.0.0.10'));
  const s2 = await r.listen(await r.subscribe('127.0.0.11'));
  const refused = await r.call('POST', '/subscriptions', '127.0.0.12');
  assert.equal(refused.status, 503, refused.body);
  s1.close();
  s2.close();
  r.close();
});

test('creation is rate limited per address: past the burst → 429 with Retry-After', async () => {
  const r = await relayWith({ createBurst: 3, createPerMinute: 1 });
  for (let i = 0; i < 3; i++) await r.subscribe('127.0.0.13');
  const limited = await r.call('POST', '/subscriptions', '127.0.0.13');
  assert.equal(limited.status, 429);
  assert.ok(Number(limited.headers['retry-after']) > 0);
  await r.subscribe('127.0.0.14');
  r.close();
});

test('a subscription without a stream expires after subscriptionIdleMs; one with an open stream does not', async () => {
  const r = await relayWith({ subscriptionIdleMs: 150, createBurst: 100 });
  const idle = await r.subscribe();
  const live = await r.subscribe();
  const stream = await r.listen(live);
  const until = Date.now() + 10_000;
  // Expiry is swept on creation (and by a timer): create until the idle one is gone.
  while ((await r.push(idle, 2)).status !== 404) {
    assert.ok(Date.now() < until, 'the idle subscription never expired');
    await r.call('POST', '/subscriptions');
  }
  assert.equal((await r.push(live, 3)).status, 200);
  assert.equal(JSON.parse(await stream.next()).messageNumber, 3);
  stream.close();
  r.close();
});
