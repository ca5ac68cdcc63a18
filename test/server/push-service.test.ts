/**
 * Watch, stop and the change log against the real reference service, with messages delivered over HTTPS to the
 * real relay (whose development CA the service trusts) and read back from its event stream.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startService, type ServiceHandle } from './helpers/service.ts';
import { startRelay, type RunningRelay } from '../../server/relay/start.ts';
import { subscribeToRelay, type TestSubscription } from './push-helpers.ts';

let dir: string;
let relay: RunningRelay;
let service: ServiceHandle;
let sub: TestSubscription;

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'push-service-'));
  relay = await startRelay({ port: 0, host: 'localhost', certDir: join(dir, 'certs') });
  // The real store-service process, trusting the relay's development CA and accepting its origin.
  service = await startService({
    config: { verifiedDomains: [relay.url], registeredDomains: [relay.url], trustCa: [relay.caPath] },
  });
  sub = await subscribeToRelay(relay.url, readFileSync(relay.caPath, 'utf8'));
});

after(async () => {
  sub.close();
  await service.stop();
  await relay.close();
  rmSync(dir, { recursive: true, force: true });
});

const ALICE = 'dev-token-alice';
const BOB = 'dev-token-bob';
const ROBOT = 'dev-token-robot';
const MALLORY = 'dev-token-mallory';

interface Reply {
  status: number;
  body: any;
}

async function api(method: string, path: string, token: string, body?: unknown): Promise<Reply> {
  const res = await fetch(`${service.url}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

async function createFile(token: string, metadata: Record<string, unknown>): Promise<string> {
  const reply = await api('POST', '/store/v3/files', token, metadata);
  assert.equal(reply.status, 200, JSON.stringify(reply.body));
  return reply.body.id as string;
}

async function serviceNow(): Promise<number> {
  return ((await (await fetch(`${service.url}/__admin/clock`)).json()) as { now: number }).now;
}

let channelCounter = 0;
const newChannelId = (): string => `chan-${process.pid}-${++channelCounter}`;

function watchBody(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { id: newChannelId(), type: 'web_hook', address: sub.address, token: sub.token, ...extra };
}

function assertError(reply: Reply, status: number, reason: string, message: string | RegExp): void {
  assert.equal(reply.status, status, JSON.stringify(reply.body));
  assert.equal(reply.body.error.code, status);
  assert.equal(reply.body.error.errors[0].reason, reason);
  if (typeof message === 'string') assert.equal(reply.body.error.message, message);
  else assert.match(reply.body.error.message, message);
}

test('watch validation follows supplement §8', async () => {
  const fileId = await createFile(ALICE, { name: 'v.txt' });
  const path = `/store/v3/files/${fileId}/watch`;
  assertError(await api('POST', path, ALICE, { type: 'web_hook', address: sub.address }), 400, 'required', /'id'/);
  assertError(await api('POST', path, ALICE, watchBody({ id: 'x'.repeat(65) })), 400, 'invalidParameter', /at most 64/);
  assertError(
    await api('POST', path, ALICE, watchBody({ token: 't'.repeat(257) })),
    400,
    'invalidParameter',
    /at most 256/,
  );
  assertError(
    await api('POST', path, ALICE, watchBody({ type: 'email' })),
    400,
    'invalidParameter',
    /Unknown channel type "email"/,
  );
  const http = sub.address.replace('https:', 'http:');
  assertError(
    await api('POST', path, ALICE, watchBody({ address: http })),
    400,
    'push.webhookUrlNotHttps',
    `WebHook callback must be HTTPS: ${http}`,
  );
  assertError(
    await api('POST', path, ALICE, watchBody({ address: 'https://unregistered.example/hook' })),
    401,
    'push.webhookUrlUnauthorized',
    'Unauthorized WebHook callback channel: https://unregistered.example/hook',
  );
  const now = await serviceNow();
  assertError(
    await api('POST', path, ALICE, watchBody({ expiration: String(now - 100_000) })),
    400,
    'badRequest',
    /^Invalid ttl value for channel -1\d\d$/,
  );
  assertError(
    await api('POST', '/store/v3/files/nope/watch', ALICE, watchBody()),
    404,
    'notFound',
    'File not found: nope.',
  );
  assertError(await api('POST', path, BOB, watchBody()), 404, 'notFound', `File not found: ${fileId}.`);
  assertError(await api('POST', '/store/v3/changes/watch', ALICE, watchBody()), 400, 'required', /pageToken/);
  const id = newChannelId();
  assert.equal((await api('POST', path, ALICE, watchBody({ id }))).status, 200);
  assertError(
    await api('POST', path, ALICE, watchBody({ id })),
    400,
    'channelIdNotUnique',
    `Channel id ${id} not unique`,
  );
  // A bad `fields` selection is refused before the channel exists: the same id with the selection mended is taken.
  for (const watchPath of [path, `/store/v3/changes/watch?pageToken=1`]) {
    const fresh = newChannelId();
    const sep = watchPath.includes('?') ? '&' : '?';
    assertError(
      await api('POST', `${watchPath}${sep}fields=bogus`, ALICE, watchBody({ id: fresh })),
      400,
      'invalidParameter',
      /bogus/,
    );
    const mended = await api('POST', `${watchPath}${sep}fields=id,resourceId`, ALICE, watchBody({ id: fresh }));
    assert.equal(mended.status, 200, JSON.stringify(mended.body));
    assert.deepEqual(Object.keys(mended.body as object).sort(), ['id', 'resourceId']);
  }
  // The id and token are echoed in headers: what a header cannot carry is refused, naming the field and where.
  assertError(
    await api('POST', path, ALICE, watchBody({ token: 'a=1\r\nX-Injected: yes' })),
    400,
    'invalidParameter',
    'Channel token must be printable ASCII, as it is echoed in an HTTP header; character 4 is not.',
  );
  assertError(
    await api('POST', path, ALICE, watchBody({ id: `chan-${'🙂'.repeat(3)}` })),
    400,
    'invalidParameter',
    'Channel id must be printable ASCII, as it is echoed in an HTTP header; character 6 is not.',
  );
  const spaced = await api('POST', path, ALICE, watchBody({ token: 'target=app; user=a b\t~' }));
  assert.equal(spaced.status, 200, JSON.stringify(spaced.body));
  assert.equal((spaced.body as { token: string }).token, 'target=app; user=a b\t~');
  // Another project (OAuth client) may use the same id.
  const mallorysFile = await createFile(MALLORY, { name: 'm.txt' });
  assert.equal((await api('POST', `/store/v3/files/${mallorysFile}/watch`, MALLORY, watchBody({ id }))).status, 200);
});

test('a file channel gets sync, update with X-Svc-Changed, trash, untrash and remove, in order', async () => {
  const fileId = await createFile(ALICE, { name: 'watched.txt' });
  const before = await serviceNow();
  const requested = before + 600_000;
  const reply = await api(
    'POST',
    `/store/v3/files/${fileId}/watch`,
    ALICE,
    watchBody({ expiration: String(requested) }),
  );
  assert.equal(reply.status, 200);
  const channel = reply.body;
  assert.deepEqual(Object.keys(channel).sort(), ['expiration', 'id', 'kind', 'resourceId', 'resourceUri', 'token']);
  assert.equal(channel.kind, 'api#channel');
  assert.equal(channel.token, sub.token);
  assert.equal(channel.expiration, requested);
  assert.notEqual(channel.resourceId, fileId);
  assert.equal(channel.resourceUri, `${service.url}/store/v3/files/${fileId}?alt=json`);

  assert.equal((await api('PATCH', `/store/v3/files/${fileId}`, ALICE, { name: 'renamed.txt' })).status, 200);
  assert.equal((await api('PATCH', `/store/v3/files/${fileId}`, ALICE, { trashed: true })).status, 200);
  assert.equal((await api('PATCH', `/store/v3/files/${fileId}`, ALICE, { trashed: false })).status, 200);
  assert.equal((await api('DELETE', `/store/v3/files/${fileId}`, ALICE)).status, 204);

  const events = await sub.take(channel.id, 5);
  assert.deepEqual(
    events.map((e) => [e.state, e.changed]),
    [
      ['sync', []],
      ['update', ['properties']],
      ['trash', []],
      ['untrash', []],
      ['remove', []],
    ],
  );
  assert.equal(events[0].messageNumber, 1);
  for (let i = 1; i < events.length; i++) assert.ok(events[i].messageNumber > events[i - 1].messageNumber);
  for (const e of events) {
    assert.equal(e.resourceId, channel.resourceId);
    assert.equal(e.resourceUri, channel.resourceUri);
    assert.equal(e.expiration, new Date(requested).toUTCString());
    assert.equal(e.body, null);
  }
});

test('lifetime: default one hour, capped at a day for files and a week for the change log', async () => {
  const fileId = await createFile(ALICE, { name: 'ttl.txt' });
  const t0 = await serviceNow();
  const plain = (await api('POST', `/store/v3/files/${fileId}/watch`, ALICE, watchBody())).body;
  const far = (
    await api('POST', `/store/v3/files/${fileId}/watch`, ALICE, watchBody({ expiration: t0 + 30 * 86_400_000 }))
  ).body;
  const token = (await api('GET', '/store/v3/changes/startPageToken', ALICE)).body.startPageToken;
  const changes = (
    await api(
      'POST',
      `/store/v3/changes/watch?pageToken=${token}`,
      ALICE,
      watchBody({ expiration: t0 + 30 * 86_400_000 }),
    )
  ).body;
  const t1 = await serviceNow();
  const within = (value: number, ttl: number) =>
    assert.ok(value >= t0 + ttl && value <= t1 + ttl, `${value} not in [${t0 + ttl}, ${t1 + ttl}]`);
  within(plain.expiration, 3_600_000);
  within(far.expiration, 86_400_000);
  within(changes.expiration, 604_800_000);
});

test('a folder channel hears children', async () => {
  const folderId = await createFile(ALICE, { name: 'folder', mimeType: 'application/vnd.svc-apps.folder' });
  const channel = (await api('POST', `/store/v3/files/${folderId}/watch`, ALICE, watchBody())).body;
  await createFile(ALICE, { name: 'child.txt', parents: [folderId] });
  const events = await sub.take(channel.id, 2);
  assert.deepEqual(
    events.map((e) => [e.state, e.changed]),
    [
      ['sync', []],
      ['update', ['children']],
    ],
  );
});

test('the change log: watch, change messages, one entry per file, tombstones and paging', async () => {
  const start = (await api('GET', '/store/v3/changes/startPageToken', BOB)).body;
  assert.equal(start.kind, 'store#startPageToken');
  assert.match(start.startPageToken, /^\d+$/);
  const reply = await api('POST', `/store/v3/changes/watch?pageToken=${start.startPageToken}`, BOB, watchBody());
  assert.equal(reply.status, 200);
  const channel = reply.body;
  assert.equal(channel.resourceUri, `${service.url}/store/v3/changes?alt=json&pageToken=${start.startPageToken}`);

  const a = await createFile(BOB, { name: 'a.txt' });
  const b = await createFile(BOB, { name: 'b.txt' });
  await api('PATCH', `/store/v3/files/${a}`, BOB, { name: 'a2.txt' });
  assert.equal((await api('DELETE', `/store/v3/files/${b}`, BOB)).status, 204);
  const events = await sub.take(channel.id, 5);
  assert.deepEqual(
    events.map((e) => e.state),
    ['sync', 'change', 'change', 'change', 'change'],
  );
  for (const e of events) assert.deepEqual(e.body, { kind: 'store#changes' });

  const all = (await api('GET', `/store/v3/changes?pageToken=${start.startPageToken}`, BOB)).body;
  assert.equal(all.kind, 'store#changeList');
  assert.match(all.newStartPageToken, /^\d+$/);
  assert.equal(all.nextPageToken, undefined);
  assert.deepEqual(
    all.changes.map((c: any) => [c.kind, c.changeType, c.fileId, c.removed, c.file?.name]),
    [
      ['store#change', 'file', a, false, 'a2.txt'],
      ['store#change', 'file', b, true, undefined],
    ],
  );
  assert.match(all.changes[0].time, /^\d{4}-\d\d-\d\dT/);

  const page1 = (await api('GET', `/store/v3/changes?pageToken=${start.startPageToken}&pageSize=1`, BOB)).body;
  assert.deepEqual(
    page1.changes.map((c: any) => c.fileId),
    [a],
  );
  assert.match(page1.nextPageToken, /^\d+$/);
  const page2 = (await api('GET', `/store/v3/changes?pageToken=${page1.nextPageToken}&pageSize=1`, BOB)).body;
  assert.deepEqual(
    page2.changes.map((c: any) => c.fileId),
    [b],
  );
  assert.equal(page2.newStartPageToken, all.newStartPageToken);
  const after = (await api('GET', `/store/v3/changes?pageToken=${all.newStartPageToken}`, BOB)).body;
  assert.deepEqual(after.changes, []);

  // Alice never saw Bob's files: her change log has none of them.
  const alices = (await api('GET', `/store/v3/changes?pageToken=${start.startPageToken}`, ALICE)).body;
  assert.equal(
    alices.changes.some((c: any) => c.fileId === a || c.fileId === b),
    false,
  );
  assertError(await api('GET', '/store/v3/changes?pageToken=abc', BOB), 400, 'invalidParameter', /pageToken/);
  assertError(await api('GET', `/store/v3/changes?pageToken=1&pageSize=0`, BOB), 400, 'invalidParameter', /pageSize/);
});

test('stop: only the same user of the same client; any user of the client for a service account', async () => {
  const fileId = await createFile(ALICE, { name: 'stop.txt' });
  const mine = (await api('POST', `/store/v3/files/${fileId}/watch`, ALICE, watchBody())).body;
  const markerReply = await api('POST', `/store/v3/files/${fileId}/watch`, ALICE, watchBody());
  assert.equal(markerReply.status, 200);
  const marker = markerReply.body;
  const stopBody = { id: mine.id, resourceId: mine.resourceId };
  const notFound = (client: string) => `Channel '${mine.id}' not found for project '${client}'`;
  assertError(await api('POST', '/store/v3/channels/stop', BOB, stopBody), 404, 'notFound', notFound('dev-client'));
  assertError(
    await api('POST', '/store/v3/channels/stop', MALLORY, stopBody),
    404,
    'notFound',
    notFound('other-client'),
  );
  assertError(
    await api('POST', '/store/v3/channels/stop', ALICE, { ...stopBody, resourceId: 'other' }),
    404,
    'notFound',
    notFound('dev-client'),
  );
  assertError(await api('POST', '/store/v3/channels/stop', ALICE, { id: mine.id }), 400, 'required', /'resourceId'/);
  const stopped = await fetch(`${service.url}/store/v3/channels/stop`, {
    method: 'POST',
    headers: { authorization: `Bearer ${ALICE}`, 'content-type': 'application/json' },
    body: JSON.stringify(stopBody),
  });
  assert.equal(stopped.status, 204);
  assert.equal(await stopped.text(), '');
  assertError(await api('POST', '/store/v3/channels/stop', ALICE, stopBody), 404, 'notFound', notFound('dev-client'));

  await sub.take(mine.id, 1); // its sync, sent before the stop
  await api('PATCH', `/store/v3/files/${fileId}`, ALICE, { name: 'after-stop.txt' });
  await api('PATCH', `/store/v3/files/${fileId}`, ALICE, { name: 'after-stop-2.txt' });
  await sub.take(marker.id, 3);
  assert.deepEqual(
    sub.events.filter((e) => e.channelId === mine.id).map((e) => e.state),
    ['sync'],
  );

  const robotsFile = await createFile(ROBOT, { name: 'robot.txt' });
  const robotsReply = await api('POST', `/store/v3/files/${robotsFile}/watch`, ROBOT, watchBody());
  assert.equal(robotsReply.status, 200);
  const robots = robotsReply.body;
  assertError(
    await api('POST', '/store/v3/channels/stop', MALLORY, { id: robots.id, resourceId: robots.resourceId }),
    404,
    'notFound',
    `Channel '${robots.id}' not found for project 'other-client'`,
  );
  assert.equal(
    (await api('POST', '/store/v3/channels/stop', BOB, { id: robots.id, resourceId: robots.resourceId })).status,
    204,
  );
});

test('a channel ends at its expiration by the service clock', async () => {
  const fileId = await createFile(ALICE, { name: 'expiring.txt' });
  const now = await serviceNow();
  const shortReply = await api(
    'POST',
    `/store/v3/files/${fileId}/watch`,
    ALICE,
    watchBody({ expiration: now + 60_000 }),
  );
  const longReply = await api(
    'POST',
    `/store/v3/files/${fileId}/watch`,
    ALICE,
    watchBody({ expiration: now + 3_600_000 }),
  );
  assert.deepEqual([shortReply.status, longReply.status], [200, 200]);
  const [short, long] = [shortReply.body, longReply.body];
  await sub.take(short.id, 1);
  const advanced = await fetch(`${service.url}/__admin/clock`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ advanceMs: 120_000 }),
  });
  assert.equal(advanced.status, 200);
  await api('PATCH', `/store/v3/files/${fileId}`, ALICE, { name: 'expired.txt' });
  await api('PATCH', `/store/v3/files/${fileId}`, ALICE, { name: 'expired-2.txt' });
  await sub.take(long.id, 3);
  assert.deepEqual(
    sub.events.filter((e) => e.channelId === short.id).map((e) => e.state),
    ['sync'],
  );
  assertError(
    await api('POST', '/store/v3/channels/stop', ALICE, { id: short.id, resourceId: short.resourceId }),
    404,
    'notFound',
    `Channel '${short.id}' not found for project 'dev-client'`,
  );
});

test("sharing: a sharee's file channel hears remove when unshared and add when shared again", async () => {
  const fileId = await createFile(ALICE, { name: 'shared.txt' });
  const grant = await api('POST', `/store/v3/files/${fileId}/permissions?fields=id`, ALICE, {
    type: 'user',
    role: 'reader',
    emailAddress: 'bob@example.com',
  });
  assert.equal(grant.status, 200, JSON.stringify(grant.body));
  const owners = (await api('POST', `/store/v3/files/${fileId}/watch`, ALICE, watchBody())).body;
  const bobsReply = await api('POST', `/store/v3/files/${fileId}/watch`, BOB, watchBody());
  assert.equal(bobsReply.status, 200, JSON.stringify(bobsReply.body));
  const bobs = bobsReply.body;
  const token = (await api('GET', '/store/v3/changes/startPageToken', BOB)).body.startPageToken;
  const bobsLog = (await api('POST', `/store/v3/changes/watch?pageToken=${token}`, BOB, watchBody())).body;

  const removed = await fetch(`${service.url}/store/v3/files/${fileId}/permissions/${grant.body.id}`, {
    method: 'DELETE',
    headers: { authorization: `Bearer ${ALICE}` },
  });
  assert.equal(removed.status, 204);
  // Unshared, Bob can no longer watch the file: it is invisible to him.
  assertError(
    await api('POST', `/store/v3/files/${fileId}/watch`, BOB, watchBody()),
    404,
    'notFound',
    `File not found: ${fileId}.`,
  );
  const regrant = await api('POST', `/store/v3/files/${fileId}/permissions`, ALICE, {
    type: 'domain',
    role: 'reader',
    domain: 'example.com',
  });
  assert.equal(regrant.status, 200, JSON.stringify(regrant.body));
  // Mallory is in the domain too but watches nothing; Carol is not in it. A later update ends each sequence.
  await api('PATCH', `/store/v3/files/${fileId}`, ALICE, { name: 'shared-2.txt' });

  const bobEvents = await sub.take(bobs.id, 4);
  assert.deepEqual(
    bobEvents.map((e) => [e.state, e.changed]),
    [
      ['sync', []],
      ['remove', []],
      ['add', []],
      ['update', ['properties']],
    ],
  );
  const ownerEvents = await sub.take(owners.id, 4);
  assert.deepEqual(
    ownerEvents.map((e) => [e.state, e.changed]),
    [
      ['sync', []],
      ['update', ['permissions']],
      ['update', ['permissions']],
      ['update', ['properties']],
    ],
  );
  // Bob's change log hears each step: the unshare is a tombstone in his log, the reshare brings the file back.
  assert.deepEqual(
    (await sub.take(bobsLog.id, 4)).map((e) => e.state),
    ['sync', 'change', 'change', 'change'],
  );
  const log = (await api('GET', `/store/v3/changes?pageToken=${token}`, BOB)).body;
  assert.deepEqual(
    log.changes.map((c: any) => [c.fileId, c.removed, c.file?.name]),
    [[fileId, false, 'shared-2.txt']],
  );
});

test('sharing a file with someone who watches the change log tells them, and unsharing leaves a tombstone', async () => {
  const token = (await api('GET', '/store/v3/changes/startPageToken', BOB)).body.startPageToken;
  const bobsLog = (await api('POST', `/store/v3/changes/watch?pageToken=${token}`, BOB, watchBody())).body;
  const fileId = await createFile(ALICE, { name: 'for-bob.txt' });
  const grant = await api('POST', `/store/v3/files/${fileId}/permissions?fields=id`, ALICE, {
    type: 'user',
    role: 'writer',
    emailAddress: 'bob@example.com',
  });
  assert.equal(grant.status, 200);
  const shared = await sub.take(bobsLog.id, 2);
  assert.deepEqual(
    shared.map((e) => e.state),
    ['sync', 'change'],
  );
  let log = (await api('GET', `/store/v3/changes?pageToken=${token}`, BOB)).body;
  assert.deepEqual(
    log.changes.map((c: any) => [c.fileId, c.removed, c.file?.name]),
    [[fileId, false, 'for-bob.txt']],
  );

  const removed = await fetch(`${service.url}/store/v3/files/${fileId}/permissions/${grant.body.id}`, {
    method: 'DELETE',
    headers: { authorization: `Bearer ${ALICE}` },
  });
  assert.equal(removed.status, 204);
  assert.deepEqual(
    (await sub.take(bobsLog.id, 3)).map((e) => e.state),
    ['sync', 'change', 'change'],
  );
  log = (await api('GET', `/store/v3/changes?pageToken=${token}`, BOB)).body;
  assert.deepEqual(
    log.changes.map((c: any) => [c.fileId, c.removed, c.file]),
    [[fileId, true, undefined]],
  );
});

test('a folder watcher hears children only for children it can see', async () => {
  const folderId = await createFile(ALICE, { name: 'team', mimeType: 'application/vnd.svc-apps.folder' });
  const share = await api('POST', `/store/v3/files/${folderId}/permissions`, ALICE, {
    type: 'user',
    role: 'reader',
    emailAddress: 'bob@example.com',
  });
  assert.equal(share.status, 200);
  const alices = (await api('POST', `/store/v3/files/${folderId}/watch`, ALICE, watchBody())).body;
  const bobsReply = await api('POST', `/store/v3/files/${folderId}/watch`, BOB, watchBody());
  assert.equal(bobsReply.status, 200, JSON.stringify(bobsReply.body));
  const bobs = bobsReply.body;

  // A private child: Alice's watcher hears it come and go; Bob's must not learn it exists.
  const hidden = await createFile(ALICE, { name: 'private.txt', parents: [folderId] });
  await api('PATCH', `/store/v3/files/${hidden}`, ALICE, { trashed: true });
  assert.equal((await api('DELETE', `/store/v3/files/${hidden}`, ALICE)).status, 204);
  // A child shared with Bob afterwards: from Bob's side a child appeared, so he hears children then.
  const later = await createFile(ALICE, { name: 'later.txt', parents: [folderId] });
  assert.equal(
    (
      await api('POST', `/store/v3/files/${later}/permissions`, ALICE, {
        type: 'user',
        role: 'reader',
        emailAddress: 'bob@example.com',
      })
    ).status,
    200,
  );
  // A rename of the folder closes both sequences (one channel's messages arrive in order).
  await api('PATCH', `/store/v3/files/${folderId}`, ALICE, { name: 'team-2' });

  assert.deepEqual(
    (await sub.take(bobs.id, 3)).map((e) => [e.state, e.changed]),
    [
      ['sync', []],
      ['update', ['children']],
      ['update', ['properties']],
    ],
  );
  assert.deepEqual(
    (await sub.take(alices.id, 6)).map((e) => [e.state, e.changed]),
    [
      ['sync', []],
      ['update', ['children']], // private.txt created
      ['update', ['children']], // trashed
      ['update', ['children']], // deleted
      ['update', ['children']], // later.txt created (the share changes nothing Alice sees)
      ['update', ['properties']],
    ],
  );
});
