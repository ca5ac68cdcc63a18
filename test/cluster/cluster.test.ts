/**
 * Three store-service nodes over one real PostgreSQL and one real Ceph RGW bucket, behind a round-robin proxy:
 * what only a cluster can get wrong. Every request may reach any node; nodes die, and the database and the object
 * store go away, mid-upload.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startService, type ServiceHandle, httpRequest } from '../server/helpers/service.ts';
import { subscribeToRelay } from '../server/push-helpers.ts';
import { startRelay, type RunningRelay } from '../../server/relay/start.ts';
import { startObjectStore, startPostgres, type ObjectStore, type Postgres } from './servers.ts';

const KIB = 1024;
const CHUNK = 256 * KIB;
const md5 = (b: Uint8Array) => createHash('md5').update(b).digest('hex');

let pg: Postgres;
let s3: ObjectStore;
let relay: RunningRelay;
let dir: string;
let cluster: ServiceHandle;
let nodes: readonly ServiceHandle[];

before(async () => {
  [pg, s3] = await Promise.all([startPostgres(), startObjectStore()]);
  Object.assign(process.env, s3.env);
  dir = mkdtempSync(join(tmpdir(), 'cluster-'));
  relay = await startRelay({ port: 0, host: 'localhost', certDir: join(dir, 'certs') });
  cluster = await startService({
    cluster: { database: pg.url, content: `s3://${s3.bucket}/cluster`, nodes: 3 },
    config: { verifiedDomains: [relay.url], registeredDomains: [relay.url], trustCa: [relay.caPath] },
  });
  nodes = cluster.nodes ?? [];
  assert.equal(nodes.length, 3);
});

after(async () => {
  await cluster?.stop().catch((e: unknown) => console.error(e));
  await relay?.close();
  await Promise.allSettled([pg?.dispose(), s3?.dispose()]);
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** Starts a resumable upload of `total` bytes; returns its session URI (on the proxy). */
async function startSession(on: ServiceHandle | string, total: number, name = 'cluster.bin'): Promise<string> {
  const base = typeof on === 'string' ? on : on.url;
  const r = await cluster.api('POST', `${base}/upload/store/v3/files?uploadType=resumable`, {
    headers: { 'X-Upload-Content-Length': String(total), 'X-Upload-Content-Type': 'application/octet-stream' },
    body: { name },
  });
  assert.equal(r.status, 200, r.text);
  return r.headers.location as string;
}

/** The session URI as another node would be addressed (same path and query, that node's origin). */
function onNode(uri: string, node: ServiceHandle): string {
  const u = new URL(uri);
  return node.url + u.pathname + u.search;
}

function put(uri: string, bytes: Uint8Array, first: number, total: number) {
  return httpRequest(
    'PUT',
    uri,
    {
      'Content-Range': `bytes ${first}-${first + bytes.length - 1}/${total}`,
      'Content-Length': String(bytes.length),
    },
    bytes,
  );
}

function status(uri: string, total: number) {
  return httpRequest('PUT', uri, { 'Content-Range': `bytes */${total}`, 'Content-Length': '0' });
}

/** The bytes stored for file `id`, downloaded through the proxy. */
async function download(id: string): Promise<Buffer> {
  const r = await cluster.api('GET', `/store/v3/files/${id}?alt=media`);
  assert.equal(r.status, 200, r.text);
  return r.body;
}

describe('one upload across nodes', () => {
  it('its chunks on alternating nodes store the file byte-identical', async () => {
    const data = randomBytes(12 * CHUNK + 1234);
    const uri = await startSession(cluster, data.length);
    let last;
    for (let first = 0, i = 0; first < data.length; first += 2 * CHUNK, i++) {
      const node = nodes[i % nodes.length] as ServiceHandle;
      last = await put(onNode(uri, node), data.subarray(first, first + 2 * CHUNK), first, data.length);
      const done = first + 2 * CHUNK >= data.length;
      assert.equal(last.status, done ? 200 : 308, last.text);
      if (!done) assert.equal(last.headers.range, `bytes=0-${first + 2 * CHUNK - 1}`);
      // Every node reports the same durable range.
      const seen = await status(onNode(uri, nodes[(i + 1) % nodes.length] as ServiceHandle), data.length);
      if (!done) assert.equal(seen.headers.range, `bytes=0-${first + 2 * CHUNK - 1}`);
    }
    const file = last!.json<{ id: string; md5Checksum: string; size: string }>();
    assert.equal(file.md5Checksum, md5(data));
    assert.equal(file.size, String(data.length));
    assert.ok((await download(file.id)).equals(data));
  });

  it('a node killed mid-upload: another node reports exactly what was acknowledged and the upload finishes there', async () => {
    const data = randomBytes(10 * CHUNK);
    const [a, b] = nodes as [ServiceHandle, ServiceHandle];
    const uri = await startSession(a, data.length);
    const acknowledged = await put(onNode(uri, a), data.subarray(0, 4 * CHUNK), 0, data.length);
    assert.equal(acknowledged.status, 308);
    // A request is under way on node a when it dies: half of its body sent.
    const body = data.subarray(4 * CHUNK, 8 * CHUNK);
    const { request } = await import('node:http');
    const target = new URL(onNode(uri, a));
    const inFlight = request(target, {
      method: 'PUT',
      headers: {
        'Content-Range': `bytes ${4 * CHUNK}-${8 * CHUNK - 1}/${data.length}`,
        'Content-Length': String(body.length),
      },
    });
    const cut = new Promise<void>((resolve) => {
      inFlight.on('error', () => resolve());
      inFlight.on('response', () => resolve());
    });
    inFlight.write(body.subarray(0, CHUNK + 100));
    await a.kill('SIGKILL');
    await cut;
    const q = await status(onNode(uri, b), data.length);
    assert.equal(q.status, 308);
    const stored = Number(/bytes=0-(\d+)/.exec(String(q.headers.range))?.[1]) + 1;
    // What was acknowledged is kept; what was not may be kept in whole blocks, never more than arrived.
    assert.ok(stored >= 4 * CHUNK && stored <= 5 * CHUNK && stored % CHUNK === 0, `stored ${stored}`);
    const rest = await put(onNode(uri, b), data.subarray(stored), stored, data.length);
    assert.equal(rest.status, 200, rest.text);
    const file = rest.json<{ id: string; md5Checksum: string }>();
    assert.equal(file.md5Checksum, md5(data));
    assert.ok((await download(file.id)).equals(data));
    await a.restart();
  });

  it('racing PUTs of one upload with different bytes on two nodes: both answered, the file is one of them whole', async () => {
    const size = 20 * 1024 * 1024;
    const one = randomBytes(size);
    const other = randomBytes(size);
    const [a, b] = nodes as [ServiceHandle, ServiceHandle];
    const uri = await startSession(a, size);
    const answers = await Promise.all([put(onNode(uri, a), one, 0, size), put(onNode(uri, b), other, 0, size)]);
    for (const r of answers) assert.ok([200, 201, 503].includes(r.status), `${r.status} ${r.text}`);
    const done = answers.find((r) => r.status === 200) ?? (await status(onNode(uri, b), size));
    assert.equal(done.status, 200, done.text);
    const file = done.json<{ id: string; md5Checksum: string }>();
    const stored = await download(file.id);
    assert.ok(stored.equals(one) || stored.equals(other), 'the stored bytes are one body whole, never a mix');
    assert.equal(file.md5Checksum, md5(stored));
  });
});

describe('state every node shares', () => {
  it('a token revoked on one node is refused on every node', async () => {
    const [a, b, c] = nodes as [ServiceHandle, ServiceHandle, ServiceHandle];
    const issued = await a.api('POST', '/__admin/tokens', {
      token: null,
      body: { token: 'tok-dana', user: 'dana@example.com' },
    });
    assert.equal(issued.status, 201, issued.text);
    for (const n of [b, c]) assert.equal((await n.api('GET', '/store/v3/files', { token: 'tok-dana' })).status, 200);
    assert.equal((await b.api('DELETE', '/__admin/tokens/tok-dana', { token: null })).status, 204);
    for (const n of [a, b, c]) assert.equal((await n.api('GET', '/store/v3/files', { token: 'tok-dana' })).status, 401);
  });

  it('the test clock moved on one node expires a session on another', async () => {
    const [a, b] = nodes as [ServiceHandle, ServiceHandle];
    const uri = await startSession(a, 2 * CHUNK);
    assert.equal((await status(onNode(uri, b), 2 * CHUNK)).status, 308);
    const moved = await a.api('POST', '/__admin/clock', { token: null, body: { advanceMs: 8 * 24 * 3600 * 1000 } });
    assert.equal(moved.status, 200);
    assert.equal((await status(onNode(uri, b), 2 * CHUNK)).status, 404);
  });

  it('a fault scheduled through one node counts the matching requests of all nodes', async () => {
    const set = await cluster.api('POST', '/__admin/faults', {
      token: null,
      body: {
        match: { method: 'GET', pathPrefix: '/store/v3/about' },
        action: { type: 'status', status: 503 },
        times: 2,
      },
    });
    assert.equal(set.status, 200, set.text);
    const answers = [];
    for (const n of nodes) answers.push((await n.api('GET', '/store/v3/about?fields=kind')).status);
    answers.push((await nodes[0]!.api('GET', '/store/v3/about?fields=kind')).status);
    assert.deepEqual(answers.filter((s) => s === 503).length, 2, `answers ${answers.join(' ')}`);
    assert.deepEqual(answers.slice(2), [200, 200]);
  });

  it('a watch made on one node hears the changes committed on the two others, each once', async () => {
    const [a, b, c] = nodes as [ServiceHandle, ServiceHandle, ServiceHandle];
    const created = await a.api('POST', '/store/v3/files', { body: { name: 'watched.txt' } });
    const { id } = created.json<{ id: string }>();
    const sub = await subscribeToRelay(relay.url, readFileSync(relay.caPath, 'utf8'));
    try {
      const watch = await a.api('POST', `/store/v3/files/${id}/watch`, {
        body: { id: `cluster-${Date.now()}`, type: 'web_hook', address: sub.address, token: sub.token },
      });
      assert.equal(watch.status, 200, watch.text);
      const channelId = watch.json<{ id: string }>().id;
      assert.equal((await b.api('PATCH', `/store/v3/files/${id}`, { body: { name: 'renamed-on-b.txt' } })).status, 200);
      assert.equal((await c.api('PATCH', `/store/v3/files/${id}`, { body: { description: 'on c' } })).status, 200);
      const events = await sub.take(channelId, 3);
      assert.deepEqual(
        events.map((e) => e.state),
        ['sync', 'update', 'update'],
      );
      const numbers = events.map((e) => e.messageNumber);
      assert.equal(new Set(numbers).size, 3, `message numbers ${numbers.join(' ')}`);
      // Nothing more arrives: each change once (a later change's message comes after, never a repeat).
      assert.equal((await c.api('PATCH', `/store/v3/files/${id}`, { body: { description: 'last' } })).status, 200);
      const four = await sub.take(channelId, 4);
      assert.equal(four.length, 4);
      assert.equal(sub.events.filter((e) => e.channelId === channelId).length, 4);
    } finally {
      sub.close();
    }
  });
});

describe('backends that go away', () => {
  it('PostgreSQL stopped mid-run: readable 503s, no 200 for what was not stored, and work goes on once it is back', async () => {
    const data = randomBytes(4 * CHUNK);
    const uri = await startSession(cluster, data.length);
    assert.equal((await put(uri, data.subarray(0, 2 * CHUNK), 0, data.length)).status, 308);
    await pg.stop();
    try {
      const during = await put(uri, data.subarray(2 * CHUNK), 2 * CHUNK, data.length);
      assert.equal(during.status, 503, during.text);
      assert.match(during.text, /database/i);
      const list = await cluster.api('GET', '/store/v3/files');
      assert.equal(list.status, 503, list.text);
    } finally {
      await pg.start();
    }
    const q = await status(uri, data.length);
    assert.ok(q.status === 308 || q.status === 200, `${q.status} ${q.text}`);
    const stored =
      q.status === 200 ? data.length : Number(/bytes=0-(\d+)/.exec(String(q.headers.range))?.[1] ?? -1) + 1;
    const done = stored === data.length ? q : await put(uri, data.subarray(stored), stored, data.length);
    assert.equal(done.status, 200, done.text);
    assert.equal(done.json<{ md5Checksum: string }>().md5Checksum, md5(data));
  });

  it('the object store unreachable: readable 503s, no 200 for what was not stored, and the upload resumes after', async () => {
    const data = randomBytes(4 * CHUNK);
    const uri = await startSession(cluster, data.length);
    assert.equal((await put(uri, data.subarray(0, 2 * CHUNK), 0, data.length)).status, 308);
    await s3.stopGateway();
    try {
      const during = await put(uri, data.subarray(2 * CHUNK), 2 * CHUNK, data.length);
      assert.ok(during.status >= 500, `${during.status} ${during.text}`);
      assert.notEqual(during.status, 200);
    } finally {
      await s3.startGateway();
    }
    const q = await status(uri, data.length);
    assert.ok(q.status === 308 || q.status === 200, `${q.status} ${q.text}`);
    const stored =
      q.status === 200 ? data.length : Number(/bytes=0-(\d+)/.exec(String(q.headers.range))?.[1] ?? -1) + 1;
    const done = stored === data.length ? q : await put(uri, data.subarray(stored), stored, data.length);
    assert.equal(done.status, 200, done.text);
    assert.equal(done.json<{ md5Checksum: string }>().md5Checksum, md5(data));
  });
});
