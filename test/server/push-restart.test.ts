/**
 * A message pending when the real `store-service` process dies (its receiver was answering 503) is delivered after
 * the process starts again on the same data directory; and unusable `trustCa` files fail watch calls loudly instead
 * of opening channels that never hear anything.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:https';
import type { IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createDevCa } from '../../server/http/dev-ca.ts';
import { startService, type ApiResult } from './helpers/service.ts';

interface Hit {
  headers: IncomingHttpHeaders;
  /** What the receiver answered. */
  status: number;
}

let dir: string;
let caPath: string;
let server: Server;
let origin: string;
/** Status the receiver answers next. */
let answer = 200;
const hits: Hit[] = [];
let waiters: Array<() => void> = [];

/** Resolves once the receiver got `count` requests in all. */
function hitCount(count: number): Promise<Hit[]> {
  return new Promise((resolve) => {
    const check = (): void => {
      if (hits.length >= count) resolve(hits.slice(0, count));
      else waiters.push(check);
    };
    check();
  });
}

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'push-restart-'));
  const ca = await createDevCa();
  caPath = join(dir, 'ca.pem');
  writeFileSync(caPath, ca.cert);
  const leaf = await ca.issueLeaf(['localhost']);
  server = createServer({ cert: leaf.cert, key: leaf.key }, (req, res) => {
    req.resume();
    req.on('end', () => {
      hits.push({ headers: req.headers, status: answer });
      res.writeHead(answer).end();
      const pending = waiters;
      waiters = [];
      for (const w of pending) w();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, 'localhost', resolve));
  origin = `https://localhost:${(server.address() as AddressInfo).port}`;
});

after(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  rmSync(dir, { recursive: true, force: true });
});

function ok(result: ApiResult, status = 200): any {
  assert.equal(result.status, status, result.text);
  return result.text ? result.json() : undefined;
}

test('a message pending while its receiver answered 503 is delivered after the service process is killed and restarted', async () => {
  const service = await startService({
    config: { verifiedDomains: [origin], registeredDomains: [origin], trustCa: [caPath] },
  });
  try {
    const fileId = ok(await service.api('POST', '/store/v3/files', { body: { name: 'pending.txt' } })).id as string;
    const channel = ok(
      await service.api('POST', `/store/v3/files/${fileId}/watch`, {
        body: { id: 'restart-1', type: 'web_hook', address: `${origin}/hook`, token: 'k=1' },
      }),
    );
    const [sync] = await hitCount(1);
    assert.equal(sync.headers['x-svc-resource-state'], 'sync');

    answer = 503;
    ok(await service.api('PATCH', `/store/v3/files/${fileId}`, { body: { name: 'pending-2.txt' } }));
    const [, refused] = await hitCount(2);
    assert.equal(refused.status, 503);
    assert.equal(refused.headers['x-svc-resource-state'], 'update');

    // Killed without a chance to clean up, while the message waits for its retry.
    await service.kill('SIGKILL');
    // The dead process may have retried (and been refused) once more before the kill: the same message each time.
    const beforeRestart = hits.length;
    for (const retry of hits.slice(2))
      assert.deepEqual(
        [retry.status, retry.headers['x-svc-message-number']],
        [503, refused.headers['x-svc-message-number']],
      );
    answer = 200;
    await service.restart();
    const resent = (await hitCount(beforeRestart + 1))[beforeRestart];
    assert.equal(resent.status, 200);
    for (const name of [
      'x-svc-channel-id',
      'x-svc-message-number',
      'x-svc-resource-id',
      'x-svc-resource-state',
      'x-svc-changed',
      'x-svc-channel-token',
    ]) {
      assert.equal(resent.headers[name], refused.headers[name], name);
    }
    assert.equal(resent.headers['x-svc-channel-id'], channel.id);
    assert.equal(resent.headers['x-svc-changed'], 'properties');

    // The channel lives on after the restart, its numbers still rising.
    ok(await service.api('PATCH', `/store/v3/files/${fileId}`, { body: { name: 'pending-3.txt' } }));
    const next = (await hitCount(beforeRestart + 2))[beforeRestart + 1];
    assert.equal(next.headers['x-svc-resource-state'], 'update');
    assert.ok(Number(next.headers['x-svc-message-number']) > Number(resent.headers['x-svc-message-number']));
    // Delivered once after the restart, not again.
    assert.equal(hits.length, beforeRestart + 2);
  } finally {
    await service.stop();
  }
});

test('a trustCa file that cannot be read fails watch calls with a message naming it', async () => {
  const missing = join(dir, 'no-such-ca.pem');
  const service = await startService({
    config: { verifiedDomains: [origin], registeredDomains: [origin], trustCa: [missing] },
  });
  try {
    const fileId = ok(await service.api('POST', '/store/v3/files', { body: { name: 'untrusting.txt' } })).id as string;
    const reply = await service.api('POST', `/store/v3/files/${fileId}/watch`, {
      body: { id: 'no-trust', type: 'web_hook', address: `${origin}/hook` },
    });
    assert.equal(reply.status, 500);
    const body = reply.json();
    assert.equal(body.error.errors[0].reason, 'backendError');
    assert.match(
      body.error.message,
      new RegExp(`^Push notifications are unavailable: cannot read trustCa file ${missing}: ENOENT`),
    );
    const token = ok(await service.api('GET', '/store/v3/changes/startPageToken')).startPageToken as string;
    const changes = await service.api('POST', `/store/v3/changes/watch?pageToken=${token}`, {
      body: { id: 'no-trust-2', type: 'web_hook', address: `${origin}/hook` },
    });
    assert.equal(changes.status, 500);
    // Validation still comes first, and the rest of the service works.
    assert.equal(
      (
        await service.api('POST', `/store/v3/files/${fileId}/watch`, {
          body: { type: 'web_hook', address: `${origin}/hook` },
        })
      ).status,
      400,
    );
    ok(await service.api('GET', `/store/v3/changes?pageToken=${token}`));
  } finally {
    await service.stop();
  }
});

test('a trustCa or crl file without a PEM block of its kind fails watch calls, naming the file', async () => {
  const notPem = join(dir, 'not-a-ca.pem');
  writeFileSync(notPem, 'hello\n');
  const crlPath = join(dir, 'not-a-crl.pem');
  writeFileSync(crlPath, 'hello\n');
  for (const [config, expected] of [
    [{ trustCa: [notPem] }, `trustCa file ${notPem} holds no PEM "CERTIFICATE" block`],
    [{ trustCa: [caPath], crl: crlPath }, `crl file ${crlPath} holds no PEM "X509 CRL" block`],
  ] as const) {
    const service = await startService({
      config: { verifiedDomains: [origin], registeredDomains: [origin], ...config },
    });
    try {
      const fileId = ok(await service.api('POST', '/store/v3/files', { body: { name: 'x.txt' } })).id as string;
      const reply = await service.api('POST', `/store/v3/files/${fileId}/watch`, {
        body: { id: 'bad-pem', type: 'web_hook', address: `${origin}/hook` },
      });
      assert.equal(reply.status, 500);
      assert.equal(reply.json().error.message, `Push notifications are unavailable: ${expected}.`);
    } finally {
      await service.stop();
    }
  }
});
