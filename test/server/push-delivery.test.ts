/**
 * The push delivery engine against real HTTPS receivers on loopback: headers, TLS trust (trusted, self-signed,
 * untrusted signer, wrong host, revoked), retry and drop rules, per-channel order, isolation of a slow receiver,
 * and resending after a restart.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:https';
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { connect as tlsConnect } from 'node:tls';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSqliteFile } from '../../server/metadata/sqlite-metadata.ts';
import type { MetadataDb } from '../../server/metadata/metadata-port.ts';
import { generate } from 'selfsigned';
import { createDevCa, type DevCa, type PemPair } from '../../server/http/dev-ca.ts';
import { createDeliveryEngine, type DeliveryEvent, type DeliveryOptions } from '../../server/push/delivery.ts';
import { createPushTrust, type PushTrust } from '../../server/push/trust.ts';
import type { PushMessage } from '../../server/push/message.ts';

interface Received {
  headers: IncomingHttpHeaders;
  body: string;
}

interface Receiver {
  url: string;
  received: Received[];
  close(): Promise<void>;
}

type Respond = (req: IncomingMessage, res: ServerResponse, index: number) => void;

async function startReceiver(pair: PemPair, respond: Respond = (_q, r) => r.writeHead(200).end()): Promise<Receiver> {
  const received: Received[] = [];
  const server: Server = createServer(pair, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      respond(req, res, received.length - 1);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `https://localhost:${port}/hook`,
    received,
    close: () =>
      new Promise<void>((r) => {
        server.close(() => r());
        server.closeAllConnections();
      }),
  };
}

/** Collects delivery events and lets a test await a matching one. */
function eventLog() {
  const events: DeliveryEvent[] = [];
  const waiters: Array<{ match: (e: DeliveryEvent) => boolean; resolve: (e: DeliveryEvent) => void }> = [];
  return {
    events,
    onAttempt(event: DeliveryEvent) {
      events.push(event);
      for (const w of [...waiters]) {
        if (w.match(event)) {
          waiters.splice(waiters.indexOf(w), 1);
          w.resolve(event);
        }
      }
    },
    next(match: (e: DeliveryEvent) => boolean): Promise<DeliveryEvent> {
      const found = events.find(match);
      if (found) return Promise.resolve(found);
      return new Promise((resolve) => waiters.push({ match, resolve }));
    },
  };
}

let ca: DevCa;
let trust: PushTrust;
let revokedLeaf: PemPair;
let goodLeaf: PemPair;

before(async () => {
  ca = await createDevCa('push test CA');
  goodLeaf = await ca.issueLeaf(['localhost', '127.0.0.1']);
  const revoked = await ca.issueLeaf(['localhost', '127.0.0.1']);
  revokedLeaf = revoked;
  trust = await createPushTrust({ trustCa: [ca.cert], crl: [await ca.createCrl([revoked.serial])] });
});

async function engine(extra: Partial<DeliveryOptions> & { db?: MetadataDb } = {}) {
  const log = eventLog();
  const e = createDeliveryEngine({
    db: extra.db ?? (await openSqliteFile(':memory:')),
    trust,
    backoff: { baseMs: 5, capMs: 20 },
    timeoutMs: 5000,
    onAttempt: log.onAttempt,
    ...extra,
  });
  return { engine: e, log };
}

function message(address: string, overrides: Partial<PushMessage> = {}): PushMessage {
  return {
    channelId: 'ch-1',
    address,
    resourceId: 'res-opaque-1',
    resourceUri: 'https://127.0.0.1:1/store/v3/files/f1?alt=json',
    state: 'sync',
    messageNumber: 1,
    ...overrides,
  };
}

test('delivers to a receiver signed by a trusted CA with every header of spec §6.1', async () => {
  const receiver = await startReceiver(goodLeaf);
  const { engine: e, log } = await engine();
  await e.start();
  const expiration = Date.UTC(2030, 0, 2, 3, 4, 5);
  await e.enqueue(message(receiver.url, { expiration, token: 'sub=a&key=b' }));
  await e.enqueue(message(receiver.url, { state: 'update', messageNumber: 7, changed: ['content', 'properties'] }));
  await e.enqueue(
    message(receiver.url, { channelId: 'ch-changes', state: 'change', messageNumber: 3, changeLog: true }),
  );
  await e.idle();
  await e.close();
  await receiver.close();

  assert.deepEqual(
    log.events.map((x) => [x.outcome.kind, x.final]),
    [
      ['delivered', true],
      ['delivered', true],
      ['delivered', true],
    ],
  );
  assert.deepEqual(
    receiver.received
      .filter((r) => r.headers['x-svc-channel-id'] === 'ch-1')
      .map((r) => r.headers['x-svc-message-number']),
    ['1', '7'],
  );
  const byNumber = new Map(receiver.received.map((r) => [r.headers['x-svc-message-number'], r]));
  assert.equal(receiver.received.length, 3);

  const sync = byNumber.get('1')!;
  assert.equal(sync.headers['content-type'], 'application/json; utf-8');
  assert.equal(sync.headers['content-length'], '0');
  assert.equal(sync.body, '');
  assert.equal(sync.headers['x-svc-channel-id'], 'ch-1');
  assert.equal(sync.headers['x-svc-resource-id'], 'res-opaque-1');
  assert.equal(sync.headers['x-svc-resource-state'], 'sync');
  assert.equal(sync.headers['x-svc-resource-uri'], 'https://127.0.0.1:1/store/v3/files/f1?alt=json');
  assert.equal(sync.headers['x-svc-channel-expiration'], 'Wed, 02 Jan 2030 03:04:05 GMT');
  assert.equal(sync.headers['x-svc-channel-token'], 'sub=a&key=b');
  assert.equal(sync.headers['x-svc-changed'], undefined);

  const update = byNumber.get('7')!;
  assert.equal(update.headers['x-svc-resource-state'], 'update');
  assert.equal(update.headers['x-svc-changed'], 'content, properties');
  assert.equal(update.headers['x-svc-channel-expiration'], undefined);
  assert.equal(update.headers['x-svc-channel-token'], undefined);

  const change = byNumber.get('3')!;
  assert.equal(change.headers['x-svc-resource-state'], 'change');
  assert.equal(change.headers['content-type'], 'application/json; utf-8');
  assert.equal(change.body, '{"kind":"store#changes"}');
  assert.equal(change.headers['content-length'], String(Buffer.byteLength('{"kind":"store#changes"}')));
});

async function assertNotDelivered(pair: PemPair, expectedCode: RegExp): Promise<void> {
  const receiver = await startReceiver(pair);
  const { engine: e, log } = await engine();
  await e.start();
  await e.enqueue(message(receiver.url));
  const event = await log.next((x) => x.final);
  await e.close();
  await receiver.close();
  assert.equal(event.outcome.kind, 'drop');
  assert.match(event.outcome.reason, expectedCode);
  assert.equal(event.attempt, 1, 'a certificate problem is not retried');
  assert.equal(receiver.received.length, 0, 'the receiver must not see the message');
}

test('a self-signed receiver never gets the message', async () => {
  const self = await generate([{ name: 'commonName', value: 'localhost' }], {
    algorithm: 'sha256',
    extensions: [
      {
        name: 'subjectAltName',
        altNames: [
          { type: 2, value: 'localhost' },
          { type: 7, ip: '127.0.0.1' },
        ],
      },
    ],
  });
  await assertNotDelivered({ cert: self.cert, key: self.private }, /SELF_SIGNED/);
});

test('a receiver signed by an untrusted CA never gets the message', async () => {
  const stranger = await createDevCa('stranger CA');
  await assertNotDelivered(await stranger.issueLeaf(['localhost', '127.0.0.1']), /UNABLE_TO_VERIFY_LEAF_SIGNATURE/);
});

test('a receiver whose certificate names another host never gets the message', async () => {
  await assertNotDelivered(await ca.issueLeaf(['other.example']), /ERR_TLS_CERT_ALTNAME_INVALID/);
});

test('a receiver whose certificate is revoked by the configured CRL never gets the message', async () => {
  await assertNotDelivered(revokedLeaf, /CERT_REVOKED/);
});

test('a CRL for one CA does not stop delivery to receivers of another trusted CA', async () => {
  const other = await createDevCa('second CA');
  const mixedTrust = await createPushTrust({ trustCa: [ca.cert, other.cert], crl: [await ca.createCrl(['7f01'])] });
  const receiver = await startReceiver(await other.issueLeaf(['localhost']));
  const { engine: e, log } = await engine({ trust: mixedTrust });
  await e.start();
  await e.enqueue(message(receiver.url));
  const event = await log.next((x) => x.final);
  await e.close();
  await receiver.close();
  assert.equal(event.outcome.kind, 'delivered');
  assert.equal(receiver.received.length, 1);
});

test('the development CA writes a CRL OpenSSL takes as current: a certificate it does not list is accepted', async () => {
  const crl = await ca.createCrl(['7f01']);
  const server = createServer({ cert: goodLeaf.cert, key: goodLeaf.key }, (_req, res) => res.end('ok'));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const { port } = server.address() as AddressInfo;
    // Node's `crl` option makes OpenSSL check the leaf against the CRL, its dates included.
    const outcome = await new Promise<string>((resolve) => {
      const socket = tlsConnect({ host: '127.0.0.1', port, servername: 'localhost', ca: ca.cert, crl }, () => {
        socket.destroy();
        resolve('accepted');
      });
      socket.once('error', (e: NodeJS.ErrnoException) => resolve(e.code ?? e.message));
    });
    assert.equal(outcome, 'accepted');
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
});

test('503 is retried with backoff, and later messages of the channel wait behind it', async () => {
  const receiver = await startReceiver(goodLeaf, (_req, res, index) => res.writeHead(index === 0 ? 503 : 204).end());
  const { engine: e, log } = await engine();
  await e.start();
  await e.enqueue(message(receiver.url, { messageNumber: 1 }));
  await e.enqueue(message(receiver.url, { state: 'add', messageNumber: 5 }));
  await e.enqueue(message(receiver.url, { state: 'remove', messageNumber: 9 }));
  await e.idle();
  await e.close();
  await receiver.close();
  assert.deepEqual(
    receiver.received.map((r) => r.headers['x-svc-message-number']),
    ['1', '1', '5', '9'],
  );
  assert.deepEqual(
    log.events.map((x) => [x.message.messageNumber, x.attempt, x.outcome.kind, x.final]),
    [
      [1, 1, 'retry', false],
      [1, 2, 'delivered', true],
      [5, 1, 'delivered', true],
      [9, 1, 'delivered', true],
    ],
  );
});

test('a message still failing after five tries is dropped and the channel moves on', async () => {
  const receiver = await startReceiver(goodLeaf, (req, res) =>
    res.writeHead(req.headers['x-svc-message-number'] === '1' ? 500 : 200).end(),
  );
  const { engine: e, log } = await engine();
  await e.start();
  await e.enqueue(message(receiver.url, { messageNumber: 1 }));
  await e.enqueue(message(receiver.url, { state: 'add', messageNumber: 2 }));
  await e.idle();
  await e.close();
  await receiver.close();
  assert.deepEqual(
    receiver.received.map((r) => r.headers['x-svc-message-number']),
    ['1', '1', '1', '1', '1', '2'],
  );
  const final = log.events.find((x) => x.final && x.message.messageNumber === 1)!;
  assert.deepEqual([final.attempt, final.outcome.kind], [5, 'retry']);
});

test('404 is not retried', async () => {
  const receiver = await startReceiver(goodLeaf, (_req, res) => res.writeHead(404).end());
  const { engine: e, log } = await engine();
  await e.start();
  await e.enqueue(message(receiver.url));
  const event = await log.next((x) => x.final);
  await e.close();
  await receiver.close();
  assert.deepEqual(
    [event.outcome.kind, event.attempt, event.outcome.kind !== 'expired' && event.outcome.status],
    ['drop', 1, 404],
  );
  assert.equal(receiver.received.length, 1);
});

test('an unreachable receiver is dropped', async () => {
  const receiver = await startReceiver(goodLeaf);
  await receiver.close();
  const { engine: e, log } = await engine();
  await e.start();
  await e.enqueue(message(receiver.url));
  const event = await log.next((x) => x.final);
  await e.close();
  assert.equal(event.outcome.kind, 'drop');
  assert.match(event.outcome.reason, /ECONNREFUSED/);
});

test('a message of an expired channel is not sent', async () => {
  const receiver = await startReceiver(goodLeaf);
  const { engine: e, log } = await engine({ now: () => Date.UTC(2031, 0, 1) });
  await e.start();
  await e.enqueue(message(receiver.url, { expiration: Date.UTC(2030, 0, 1) }));
  const event = await log.next((x) => x.final);
  await e.close();
  await receiver.close();
  assert.equal(event.outcome.kind, 'expired');
  assert.equal(receiver.received.length, 0);
});

test('a receiver that does not answer does not delay another channel', async () => {
  let release: () => void = () => {};
  const held = new Promise<void>((r) => (release = r));
  const slow = await startReceiver(goodLeaf, (_req, res) => void held.then(() => res.writeHead(200).end()));
  const fast = await startReceiver(goodLeaf);
  const { engine: e, log } = await engine();
  await e.start();
  await e.enqueue(message(slow.url, { channelId: 'slow' }));
  await e.enqueue(message(fast.url, { channelId: 'fast' }));
  const fastEvent = await log.next((x) => x.message.channelId === 'fast' && x.final);
  // The slow receiver has the request but has not answered it.
  assert.equal(slow.received.length, 1);
  assert.equal(
    log.events.some((x) => x.message.channelId === 'slow'),
    false,
  );
  assert.equal(fastEvent.outcome.kind, 'delivered');
  release();
  await e.idle();
  await e.close();
  await slow.close();
  await fast.close();
  assert.equal(log.events.find((x) => x.message.channelId === 'slow')?.outcome.kind, 'delivered');
});

let dir: string;
before(() => {
  dir = mkdtempSync(join(tmpdir(), 'push-delivery-'));
});
after(() => rmSync(dir, { recursive: true, force: true }));

test('a message pending at shutdown is delivered after a restart', async () => {
  const receiver = await startReceiver(goodLeaf, (_req, res, index) => res.writeHead(index === 0 ? 503 : 200).end());
  const file = join(dir, 'outbox.db');
  const db1 = await openSqliteFile(file);
  // A long backoff keeps the message waiting in the outbox when the engine stops.
  const first = await engine({ db: db1, backoff: { baseMs: 3_600_000, capMs: 3_600_000, random: () => 0.5 } });
  await first.engine.start();
  await first.engine.enqueue(message(receiver.url, { messageNumber: 1 }));
  await first.engine.enqueue(message(receiver.url, { state: 'add', messageNumber: 4 }));
  await first.log.next((x) => x.outcome.kind === 'retry');
  await first.engine.close();
  await db1.close();

  const db2 = await openSqliteFile(file);
  const second = await engine({ db: db2 });
  await second.engine.start();
  await second.engine.idle();
  await second.engine.close();
  await db2.close();
  await receiver.close();
  assert.deepEqual(
    receiver.received.map((r) => r.headers['x-svc-message-number']),
    ['1', '1', '4'],
  );
  assert.deepEqual(
    second.log.events.map((x) => [x.message.messageNumber, x.attempt, x.outcome.kind]),
    [
      [1, 2, 'delivered'],
      [4, 1, 'delivered'],
    ],
  );
});

test('when the trust cannot be loaded, ready() and idle() reject with the reason instead of hanging', async () => {
  const db = await openSqliteFile(':memory:');
  const reason = new Error('cannot read trustCa file /nowhere/ca.pem: ENOENT');
  const { engine: e } = await engine({ db, trust: Promise.reject(reason) });
  await e.start();
  await e.enqueue(message('https://localhost:1/hook'));
  await assert.rejects(e.ready(), (error) => error === reason);
  await assert.rejects(e.idle(), (error) => error === reason);
  // The message waits in the outbox for a restart with a fixed config.
  assert.equal((await db.get<{ n: number }>('SELECT COUNT(*) AS n FROM push_outbox'))?.n, 1);
  await e.close();
  await db.close();
});
