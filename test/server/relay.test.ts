/**
 * The push relay over real HTTPS on loopback: development certificates, subscriptions, the hook's token check and
 * duplicate suppression, the SSE stream with `Last-Event-ID` replay, CORS, and delivery from the real engine.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { request } from 'node:https';
import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSqliteFile } from '../../server/metadata/sqlite-metadata.ts';
import { X509Certificate } from 'node:crypto';
import { EventSource } from 'eventsource';
import { fetchTrusting } from './push-helpers.ts';
import {
  openRelaySubscription,
  type EventSourceLike,
  type RelayGap,
  type StreamMessage,
} from '../../src/client/relay-events.ts';
import { startRelay, type RunningRelay } from '../../server/relay/start.ts';
import { createDeliveryEngine } from '../../server/push/delivery.ts';
import { createPushTrust } from '../../server/push/trust.ts';

let dir: string;
let relay: RunningRelay;
let caPem: string;

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'relay-test-'));
  relay = await startRelay({ port: 0, host: 'localhost', certDir: join(dir, 'certs'), keepAliveMs: 60_000 });
  caPem = readFileSync(relay.caPath, 'utf8');
});
after(async () => {
  await relay.close();
  rmSync(dir, { recursive: true, force: true });
});

interface Reply {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

function call(method: string, path: string, headers: Record<string, string> = {}, body = ''): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = request(`${relay.url}${path}`, { method, headers, ca: caPem, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks).toString() }),
      );
    });
    req.on('error', reject);
    req.end(body);
  });
}

interface Grant {
  subscriptionId: string;
  key: string;
  address: string;
  token: string;
}

async function subscribe(): Promise<Grant> {
  const reply = await call('POST', '/subscriptions');
  assert.equal(reply.status, 201);
  return JSON.parse(reply.body) as Grant;
}

function pushHeaders(grant: Grant, number: number, extra: Record<string, string> = {}): Record<string, string> {
  return {
    'content-type': 'application/json; utf-8',
    'x-svc-channel-id': 'chan-A',
    'x-svc-message-number': String(number),
    'x-svc-resource-id': 'res-1',
    'x-svc-resource-uri': 'https://svc.example/store/v3/files/f1?alt=json',
    'x-svc-resource-state': number === 1 ? 'sync' : 'update',
    'x-svc-channel-token': grant.token,
    ...extra,
  };
}

function hookPath(grant: Grant): string {
  return new URL(grant.address).pathname;
}

interface SseFrame {
  id?: string;
  event?: string;
  data?: string;
}

/** Reads an event stream and hands out parsed frames (comments and `retry:` frames are skipped). */
function openStream(path: string, headers: Record<string, string> = {}) {
  const frames: SseFrame[] = [];
  let waiter: { count: number; resolve: () => void } | undefined;
  let response: IncomingMessage | undefined;
  let buffer = '';
  const opened = new Promise<IncomingMessage>((resolve, reject) => {
    const req = request(`${relay.url}${path}`, { headers, ca: caPem, agent: false }, (res) => {
      response = res;
      resolve(res);
      res.setEncoding('utf8');
      res.on('data', (text: string) => {
        buffer += text;
        let cut: number;
        while ((cut = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, cut);
          buffer = buffer.slice(cut + 2);
          const frame: SseFrame = {};
          for (const line of block.split('\n')) {
            const m = /^(id|event|data): (.*)$/.exec(line);
            if (m) frame[m[1] as keyof SseFrame] = m[2];
          }
          if (frame.data !== undefined) frames.push(frame);
        }
        if (waiter && frames.length >= waiter.count) waiter.resolve();
      });
    });
    req.on('error', reject);
    req.end();
  });
  return {
    opened,
    frames,
    async take(count: number): Promise<SseFrame[]> {
      if (frames.length < count) await new Promise<void>((resolve) => (waiter = { count, resolve }));
      return frames.slice(0, count);
    },
    close() {
      response?.destroy();
    },
  };
}

test('the relay serves a localhost certificate signed by a real CA kept in the cert folder', async () => {
  const ca = new X509Certificate(caPem);
  assert.equal(ca.ca, true);
  const reply = await call('GET', '/');
  assert.equal(reply.status, 200);
  assert.match(relay.url, /^https:\/\/localhost:\d+$/);
  assert.equal(relay.createdCa, true);
  // A second start reuses the CA, so a service that trusts it keeps working.
  const again = await startRelay({ port: 0, host: '127.0.0.1', certDir: join(dir, 'certs') });
  await again.close();
  assert.equal(again.createdCa, false);
  assert.equal(readFileSync(again.caPath, 'utf8'), caPem);
});

test('POST /subscriptions grants an address and a query-style token', async () => {
  const grant = await subscribe();
  assert.match(grant.subscriptionId, /^[\w-]{10,}$/);
  assert.equal(grant.address, `${relay.url}/hooks/${grant.subscriptionId}`);
  assert.equal(grant.token, `sub=${grant.subscriptionId}&key=${grant.key}`);
  assert.notEqual((await subscribe()).subscriptionId, grant.subscriptionId);
});

test('the hook checks the channel token and answers 200', async () => {
  const grant = await subscribe();
  const other = await subscribe();
  const missing = pushHeaders(grant, 1);
  delete missing['x-svc-channel-token'];
  const noToken = await call('POST', hookPath(grant), missing);
  assert.equal(noToken.status, 401);
  assert.match(noToken.body, /X-Svc-Channel-Token is missing/);
  const wrong = await call('POST', hookPath(grant), pushHeaders(grant, 1, { 'x-svc-channel-token': other.token }));
  assert.equal(wrong.status, 403);
  assert.match(wrong.body, /does not match/);
  const unknown = await call('POST', '/hooks/nope', pushHeaders(grant, 1));
  assert.equal(unknown.status, 404);
  const ok = await call('POST', hookPath(grant), pushHeaders(grant, 1));
  assert.equal(ok.status, 200);

  const stream = openStream(`/subscriptions/${grant.subscriptionId}/events?key=${grant.key}`);
  const [frame] = await stream.take(1);
  stream.close();
  assert.equal(frame.event, 'sync');
  assert.equal(frame.id, '1');
  assert.deepEqual(JSON.parse(frame.data!), {
    sequence: 1,
    channelId: 'chan-A',
    resourceId: 'res-1',
    resourceUri: 'https://svc.example/store/v3/files/f1?alt=json',
    state: 'sync',
    changed: [],
    messageNumber: 1,
    expiration: null,
    body: null,
  });
});

test('the event stream needs the subscription key', async () => {
  const grant = await subscribe();
  const reply = await call('GET', `/subscriptions/${grant.subscriptionId}/events?key=wrong`);
  assert.equal(reply.status, 404);
});

test('duplicates by channel id and message number are dropped; fields are carried over', async () => {
  const grant = await subscribe();
  const stream = openStream(`/subscriptions/${grant.subscriptionId}/events?key=${grant.key}`);
  const res = await stream.opened;
  assert.equal(res.headers['content-type'], 'text/event-stream; charset=utf-8');
  assert.equal(res.headers['access-control-allow-origin'], '*');
  await call('POST', hookPath(grant), pushHeaders(grant, 1));
  await call('POST', hookPath(grant), pushHeaders(grant, 1));
  const extra = {
    'x-svc-changed': 'content, properties',
    'x-svc-channel-expiration': 'Wed, 02 Jan 2030 03:04:05 GMT',
  };
  assert.equal((await call('POST', hookPath(grant), pushHeaders(grant, 8, extra))).status, 200);
  assert.equal((await call('POST', hookPath(grant), pushHeaders(grant, 8, extra))).status, 200);
  const change = { ...pushHeaders(grant, 9), 'x-svc-resource-state': 'change', 'x-svc-channel-id': 'chan-B' };
  await call('POST', hookPath(grant), change, '{"kind":"store#changes"}');
  await call('POST', hookPath(grant), { ...change, 'x-svc-channel-id': 'chan-C' }, '{"kind":"store#changes"}');
  const frames = await stream.take(4);
  stream.close();
  assert.deepEqual(
    frames.map((f) => [f.id, f.event]),
    [
      ['1', 'sync'],
      ['2', 'update'],
      ['3', 'change'],
      ['4', 'change'],
    ],
  );
  const update = JSON.parse(frames[1].data!);
  assert.deepEqual(update.changed, ['content', 'properties']);
  assert.equal(update.expiration, 'Wed, 02 Jan 2030 03:04:05 GMT');
  assert.deepEqual(JSON.parse(frames[2].data!).body, { kind: 'store#changes' });
  assert.equal(stream.frames.length, 4);
});

test('Last-Event-ID replays what was missed, and says when the buffer lost some', async () => {
  const grant = await subscribe();
  for (const n of [1, 2, 3]) await call('POST', hookPath(grant), pushHeaders(grant, n));
  const first = openStream(`/subscriptions/${grant.subscriptionId}/events?key=${grant.key}`);
  assert.deepEqual(
    (await first.take(3)).map((f) => f.id),
    ['1', '2', '3'],
  );
  first.close();
  for (const n of [4, 5]) await call('POST', hookPath(grant), pushHeaders(grant, n));
  const again = openStream(`/subscriptions/${grant.subscriptionId}/events?key=${grant.key}`, { 'last-event-id': '3' });
  assert.deepEqual(
    (await again.take(2)).map((f) => [f.id, JSON.parse(f.data!).messageNumber]),
    [
      ['4', 4],
      ['5', 5],
    ],
  );
  again.close();
  const bad = await call('GET', `/subscriptions/${grant.subscriptionId}/events?key=${grant.key}`, {
    'last-event-id': 'x',
  });
  assert.equal(bad.status, 400);
});

test("the client's subscription passes a gap event on to its gap listeners", async () => {
  const small = await startRelay({ port: 0, host: 'localhost', certDir: join(dir, 'certs'), bufferSize: 2 });
  const trusting = fetchTrusting(caPem);
  try {
    let grant: Grant | undefined;
    const listeners: [string, (m: StreamMessage) => void][] = [];
    let real: EventSourceLike | undefined;
    // Gap messages wait until the test listens (the subscription is handed over only once the stream is open).
    let held: (() => void)[] | undefined = [];
    const release = () => {
      for (const deliver of held ?? []) deliver();
      held = undefined;
    };
    // The stream is opened once five messages went by, from after the first: the relay keeps two, so it tells a gap.
    const openEventStream = (url: string): EventSourceLike => {
      void (async () => {
        for (const n of [1, 2, 3, 4, 5]) {
          const pushed = await trusting(`${small.url}${hookPath(grant!)}`, {
            method: 'POST',
            headers: pushHeaders(grant!, n),
          });
          assert.equal(pushed.status, 200);
        }
        real = new EventSource(`${url}&lastEventId=1`, { fetch: trusting });
        for (const [type, listener] of listeners) real.addEventListener(type, listener);
      })();
      return {
        get readyState() {
          return real?.readyState ?? 0;
        },
        addEventListener: (type, given) => {
          const listener = type === 'gap' ? (m: StreamMessage) => (held ? held.push(() => given(m)) : given(m)) : given;
          listeners.push([type, listener]);
          real?.addEventListener(type, listener);
        },
        removeEventListener: (type, listener) => real?.removeEventListener(type, listener),
        close: () => real?.close(),
      };
    };
    const fetchGrant: typeof fetch = async (input, init) => {
      const response = await trusting(input, init);
      grant = (await response.clone().json()) as Grant;
      return response;
    };
    const subscription = await openRelaySubscription(small.url, { fetch: fetchGrant, openEventStream });
    try {
      const gap = await new Promise<RelayGap>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('no gap reached the listener')), 10_000);
        subscription.onGap((told) => {
          clearTimeout(timer);
          resolve(told);
        });
        release();
      });
      assert.deepEqual(gap, { from: 2, to: 3 });
    } finally {
      subscription.close();
    }
  } finally {
    await small.close();
  }
});

test('a reconnect older than the buffer gets a gap event first', async () => {
  const small = await startRelay({ port: 0, host: 'localhost', certDir: join(dir, 'certs'), bufferSize: 2 });
  try {
    const post = (path: string, headers: Record<string, string>) =>
      new Promise<number>((resolve, reject) => {
        const req = request(`${small.url}${path}`, { method: 'POST', headers, ca: caPem, agent: false }, (res) => {
          res.resume();
          resolve(res.statusCode!);
        });
        req.on('error', reject);
        req.end();
      });
    const grant = await new Promise<Grant>((resolve, reject) => {
      const req = request(`${small.url}/subscriptions`, { method: 'POST', ca: caPem, agent: false }, (res) => {
        let text = '';
        res.on('data', (c: Buffer) => (text += c.toString()));
        res.on('end', () => resolve(JSON.parse(text) as Grant));
      });
      req.on('error', reject);
      req.end();
    });
    for (const n of [1, 2, 3, 4, 5]) assert.equal(await post(hookPath(grant), pushHeaders(grant, n)), 200);
    const frames: string[] = [];
    await new Promise<void>((resolve, reject) => {
      const path = `${small.url}/subscriptions/${grant.subscriptionId}/events?key=${grant.key}&lastEventId=1`;
      const req = request(path, { ca: caPem, agent: false }, (res) => {
        res.setEncoding('utf8');
        let text = '';
        res.on('data', (chunk: string) => {
          text += chunk;
          if ((text.match(/\ndata: /g) ?? []).length >= 3) {
            frames.push(...text.split('\n\n').filter((b) => b.includes('data: ')));
            res.destroy();
            resolve();
          }
        });
      });
      req.on('error', reject);
      req.end();
    });
    assert.equal(frames[0], 'event: gap\ndata: {"from":2,"to":3}');
    assert.match(frames[1], /^id: 4\nevent: update\n/);
    assert.match(frames[2], /^id: 5\nevent: update\n/);
  } finally {
    await small.close();
  }
});

test('CORS preflight is answered for pages', async () => {
  const reply = await call('OPTIONS', '/subscriptions', {
    origin: 'https://app.example',
    'access-control-request-method': 'POST',
    'access-control-request-headers': 'content-type',
  });
  assert.equal(reply.status, 204);
  assert.equal(reply.headers['access-control-allow-origin'], '*');
  assert.match(String(reply.headers['access-control-allow-methods']), /POST/);
  assert.match(String(reply.headers['access-control-allow-headers']), /content-type/);
  const created = await call('POST', '/subscriptions', { origin: 'https://app.example' });
  assert.equal(created.headers['access-control-allow-origin'], '*');
});

test('the delivery engine, trusting the relay CA, delivers to the relay and the page sees it', async () => {
  const grant = await subscribe();
  const stream = openStream(`/subscriptions/${grant.subscriptionId}/events?key=${grant.key}`);
  await stream.opened;
  const engine = createDeliveryEngine({
    db: await openSqliteFile(':memory:'),
    trust: await createPushTrust({ trustCa: [caPem] }),
  });
  await engine.start();
  const base = {
    channelId: 'chan-E',
    address: grant.address,
    resourceId: 'res-E',
    resourceUri: 'https://svc.example/store/v3/changes?alt=json&pageToken=7',
    token: grant.token,
    expiration: Date.UTC(2030, 0, 1),
    changeLog: true,
  };
  await engine.enqueue({ ...base, state: 'sync', messageNumber: 1 });
  await engine.enqueue({ ...base, state: 'change', messageNumber: 12 });
  const frames = await stream.take(2);
  await engine.close();
  stream.close();
  const events = frames.map((f) => JSON.parse(f.data!));
  assert.deepEqual(
    events.map((e) => [e.state, e.messageNumber, e.channelId, e.expiration, e.body]),
    [
      ['sync', 1, 'chan-E', 'Tue, 01 Jan 2030 00:00:00 GMT', { kind: 'store#changes' }],
      ['change', 12, 'chan-E', 'Tue, 01 Jan 2030 00:00:00 GMT', { kind: 'store#changes' }],
    ],
  );
});

test('store-relay with an unusable CA in its cert folder says which files and exits 1', async () => {
  const certDir = join(dir, 'broken-certs');
  mkdirSync(certDir);
  writeFileSync(join(certDir, 'ca.pem'), 'not a certificate\n');
  writeFileSync(join(certDir, 'ca-key.pem'), 'not a key\n');
  const child = spawn(process.execPath, ['bin/store-relay.js', '--port', '0', '--cert-dir', certDir], {
    cwd: join(import.meta.dirname, '../..'),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  assert.equal(code, 1);
  assert.match(
    stderr,
    new RegExp(
      `^store-relay: cannot start: the CA in ${join(certDir, 'ca.pem')} / ${join(certDir, 'ca-key.pem')} cannot be used \\(.+\\); delete both to create a new one\\n$`,
    ),
  );
});

test('a message with an unknown X-Svc-Resource-State is refused with a 400 that names the allowed states', async () => {
  const grant = await subscribe();
  const reply = await call('POST', hookPath(grant), pushHeaders(grant, 1, { 'x-svc-resource-state': 'exploded' }));
  assert.equal(reply.status, 400);
  assert.match(
    reply.body,
    /X-Svc-Resource-State 'exploded' is not one of sync, add, remove, update, trash, untrash, change/,
  );
});
