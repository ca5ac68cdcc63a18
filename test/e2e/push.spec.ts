/**
 * Push notifications end to end in a browser: a real `store-service` child process and a real `store-relay` child
 * process on loopback; a page in Debian's Chromium that loads the kit's `createWatcher` (bundled here with esbuild)
 * and reads the relay with a real `EventSource`. Changes are made through the service's API and the test asserts
 * on what the page received: every event kind, `X-Svc-Changed` values, resource ids, rising message numbers, the
 * replay of missed events after a reconnect (`Last-Event-ID`), and silence after the last listener leaves.
 *
 * The page trusts the relay's development CA by ignoring certificate errors (a developer trusts it once); the
 * service's trust is real: it verifies the relay through `trustCa` like any receiver.
 */
import type { PushEvent } from '../../src/protocol/push.ts';
import { test, expect, type Page } from '@playwright/test';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer as createHttpServer, type Server } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { createServer as createTcpServer, connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { build } from 'esbuild';
import { startRelayProcess } from './relay-process.ts';
import { startService, type ApiResult, type ServiceHandle } from '../server/helpers/service.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const ALICE = 'dev-token-alice';
const BOB = 'dev-token-bob';
const FOLDER = 'application/vnd.svc-apps.folder';

/** What the page's `EventSource` and watch listeners hand over (the relay's JSON). */
type Received = PushEvent;

interface Channel {
  id: string;
  resourceId: string;
  resourceUri: string;
  expiration: number;
}

// The page's script: the real client and watcher, with each raw stream message recorded as it arrives.
const PAGE_ENTRY = `
import { createStoreClient } from './src/client/index.ts';
import { createWatcher } from './src/client/watch.ts';
import { PUSH_STATES } from './src/protocol/push.ts';

const params = new URL(location.href).searchParams;
const watches = new Map();
const kit = {
  /** Per watch name: what its listeners heard. */
  events: {},
  /** Per watch name: every message its EventSource received, duplicates included. */
  raw: {},
  /** Per watch name: the event stream URL (subscription id and key). */
  streams: {},
  async watch(name, token, fileId, relayUrl) {
    const client = createStoreClient({ baseUrl: params.get('service'), getAccessToken: () => token });
    const raw = (kit.raw[name] = []);
    const events = (kit.events[name] = []);
    const watcher = createWatcher({
      client,
      relayUrl: relayUrl ?? params.get('relay'),
      openEventStream(url) {
        kit.streams[name] = url;
        const source = new EventSource(url);
        for (const state of PUSH_STATES) source.addEventListener(state, (m) => raw.push(JSON.parse(m.data)));
        return source;
      },
    });
    const watch = fileId ? watcher.watchFile(fileId) : watcher.watchChanges();
    const off = watch.on('*', (event) => events.push(event));
    const channel = await watch.ready();
    watches.set(name, { watcher, off });
    return channel;
  },
  /** Removes the watch's only listener: the watcher stops the channel (its stream stays open). */
  unwatch: (name) => watches.get(name).off(),
};
window.kit = kit;
document.body.dataset.ready = 'yes';
`;

/**
 * A TCP pass-through between the page and the relay, so the test can cut the page's event stream (the service
 * keeps posting to the relay directly) and let it reconnect.
 */
async function startCutter(
  targetPort: number,
): Promise<{ url: string; cut(): void; resume(): void; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  let open = true;
  const server = createTcpServer((client) => {
    if (!open) return void client.destroy();
    const upstream = connect(targetPort, 'localhost');
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
      s.on('error', () => undefined);
    }
    client.pipe(upstream).pipe(client);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  await new Promise<void>((done) => server.listen(0, 'localhost', done));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `https://localhost:${port}`,
    cut() {
      open = false;
      for (const s of sockets) s.destroy();
    },
    resume() {
      open = true;
    },
    close: () =>
      new Promise<void>((done) => {
        for (const s of sockets) s.destroy();
        server.close(() => done());
      }),
  };
}

/** Reads a relay event stream from Node (trusting the relay CA) until `count` events came; resolves with them. */
function readRelayStream(url: string, caPem: string, count: number): Promise<Received[]> {
  return new Promise((done, fail) => {
    const events: Received[] = [];
    const req = httpsRequest(url, { ca: caPem, agent: false }, (res) => {
      if (res.statusCode !== 200) return fail(new Error(`relay stream answered ${res.statusCode}`));
      res.setEncoding('utf8');
      let buffer = '';
      res.on('data', (text: string) => {
        buffer += text;
        let cut: number;
        while ((cut = buffer.indexOf('\n\n')) >= 0) {
          const data = /^data: (.*)$/m.exec(buffer.slice(0, cut));
          buffer = buffer.slice(cut + 2);
          if (data) events.push(JSON.parse(data[1]) as Received);
        }
        if (events.length >= count) {
          res.destroy();
          done(events);
        }
      });
    });
    req.on('error', fail);
    req.end();
  });
}

let dir: string;
let relay: Awaited<ReturnType<typeof startRelayProcess>>;
let caPem: string;
let service: ServiceHandle;
let pageServer: Server;
let pageUrl: string;

test.describe.configure({ mode: 'serial' });
// The page trusts the relay's development CA the way a developer's browser would after trusting it once.
test.use({ ignoreHTTPSErrors: true });

test.beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'push-e2e-'));
  relay = await startRelayProcess(join(dir, 'relay-certs'));
  caPem = readFileSync(relay.caPath, 'utf8');
  service = await startService({
    config: { verifiedDomains: [relay.url], registeredDomains: [relay.url], trustCa: [relay.caPath] },
  });
  const bundle = await build({
    stdin: { contents: PAGE_ENTRY, resolveDir: ROOT, loader: 'ts', sourcefile: 'push-page.ts' },
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    write: false,
  });
  const script = bundle.outputFiles[0].text;
  pageServer = createHttpServer((req, res) => {
    if (req.url?.startsWith('/push-page.js')) {
      res.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8' }).end(script);
    } else {
      res
        .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
        .end('<!doctype html><title>push</title><script type="module" src="/push-page.js"></script>');
    }
  });
  await new Promise<void>((done) => pageServer.listen(0, '127.0.0.1', done));
  const address = pageServer.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  pageUrl = `http://127.0.0.1:${port}/?service=${encodeURIComponent(service.url)}&relay=${encodeURIComponent(relay.url)}`;
});

test.afterAll(async () => {
  await new Promise<void>((done) => (pageServer ? pageServer.close(() => done()) : done()));
  await service?.stop();
  await relay?.stop();
  rmSync(dir, { recursive: true, force: true });
});

async function ok(result: Promise<ApiResult>, status = 200): Promise<any> {
  const r = await result;
  expect(r.status, r.text).toBe(status);
  return r.text ? r.json() : undefined;
}

const createFile = async (token: string, metadata: object): Promise<string> =>
  (await ok(service.api('POST', '/store/v3/files', { token, body: metadata }))).id as string;

async function openPage(page: Page): Promise<void> {
  page.on('pageerror', (error) => console.error('page error:', error));
  await page.goto(pageUrl);
  await expect(page.locator('body')).toHaveAttribute('data-ready', 'yes');
}

const watch = (page: Page, name: string, token: string, fileId: string | null, relayUrl?: string): Promise<Channel> =>
  page.evaluate(([n, t, f, r]) => (window as any).kit.watch(n, t, f, r ?? undefined) as Promise<Channel>, [
    name,
    token,
    fileId,
    relayUrl ?? null,
  ] as const);

/** Waits until the watch `name` heard `count` events and returns them all. */
async function heard(page: Page, name: string, count: number): Promise<Received[]> {
  await page.waitForFunction(([n, c]) => ((window as any).kit.events[n]?.length ?? 0) >= c, [name, count] as const);
  return page.evaluate((n) => (window as any).kit.events[n] as Received[], name);
}

const raw = (page: Page, name: string): Promise<Received[]> =>
  page.evaluate((n) => (window as any).kit.raw[n] as Received[], name);

/** Every event belongs to `channel`, and message numbers start at 1 (sync) and rise. */
function expectChannelMessages(events: Received[], channel: Channel): void {
  for (const e of events) {
    expect(e.channelId).toBe(channel.id);
    expect(e.resourceId).toBe(channel.resourceId);
    expect(e.resourceUri).toBe(channel.resourceUri);
    expect(e.expiration).toBe(new Date(channel.expiration).toUTCString());
  }
  expect(events[0].messageNumber).toBe(1);
  for (let i = 1; i < events.length; i++) expect(events[i].messageNumber).toBeGreaterThan(events[i - 1].messageNumber);
}

test('every event kind reaches the page through the relay', async ({ page }) => {
  await openPage(page);
  const folderId = await createFile(ALICE, { name: 'watched-folder', mimeType: FOLDER });
  const fileId = await createFile(ALICE, { name: 'watched.txt', mimeType: 'text/plain' });
  const sharedId = await createFile(ALICE, { name: 'shared-with-bob.txt' });
  const bobsGrant = await ok(
    service.api('POST', `/store/v3/files/${sharedId}/permissions?fields=id`, {
      body: { type: 'user', role: 'reader', emailAddress: 'bob@example.com' },
    }),
  );

  const fileChannel = await watch(page, 'file', ALICE, fileId);
  const folderChannel = await watch(page, 'folder', ALICE, folderId);
  const changesChannel = await watch(page, 'changes', ALICE, null);
  const bobsChannel = await watch(page, 'bob', BOB, sharedId);
  for (const name of ['file', 'folder', 'changes', 'bob']) expect((await heard(page, name, 1))[0].state).toBe('sync');

  // File: content, properties, parents (and the folder's children), permissions, trash, untrash, remove.
  await ok(
    service.api('PUT', `/upload/store/v3/files/${fileId}?uploadType=media`, {
      headers: { 'content-type': 'text/plain' },
      body: 'new content',
    }),
  );
  await ok(service.api('PATCH', `/store/v3/files/${fileId}`, { body: { name: 'renamed.txt' } }));
  await ok(service.api('PATCH', `/store/v3/files/${fileId}?addParents=${folderId}`, { body: {} }));
  await ok(
    service.api('POST', `/store/v3/files/${fileId}/permissions`, {
      body: { type: 'user', role: 'reader', emailAddress: 'bob@example.com' },
    }),
  );
  await ok(service.api('PATCH', `/store/v3/files/${fileId}`, { body: { trashed: true } }));
  await ok(service.api('PATCH', `/store/v3/files/${fileId}`, { body: { trashed: false } }));
  await ok(service.api('DELETE', `/store/v3/files/${fileId}`), 204);
  // Sharing: Bob's watch of a shared file hears `remove` when it is unshared and `add` when shared again.
  await ok(service.api('DELETE', `/store/v3/files/${sharedId}/permissions/${bobsGrant.id}`), 204);
  await ok(
    service.api('POST', `/store/v3/files/${sharedId}/permissions`, {
      body: { type: 'user', role: 'writer', emailAddress: 'bob@example.com' },
    }),
  );

  const file = await heard(page, 'file', 8);
  expect(file.map((e) => [e.state, e.changed])).toEqual([
    ['sync', []],
    ['update', ['content']],
    ['update', ['properties']],
    ['update', ['parents']],
    ['update', ['permissions']],
    ['trash', []],
    ['untrash', []],
    ['remove', []],
  ]);
  expectChannelMessages(file, fileChannel);
  for (const e of file) expect(e.body).toBeNull();

  const folder = await heard(page, 'folder', 5);
  expect(folder.map((e) => [e.state, e.changed])).toEqual([
    ['sync', []],
    ['update', ['children']], // moved in
    ['update', ['children']], // trashed
    ['update', ['children']], // untrashed
    ['update', ['children']], // deleted
  ]);
  expectChannelMessages(folder, folderChannel);

  const bob = await heard(page, 'bob', 3);
  expect(bob.map((e) => e.state)).toEqual(['sync', 'remove', 'add']);
  expectChannelMessages(bob, bobsChannel);

  // Change log: one `change` per mutation Alice can see (7 of the file, 2 permission changes of the shared one).
  const changes = await heard(page, 'changes', 10);
  expect(changes.map((e) => e.state)).toEqual(['sync', ...Array(9).fill('change')]);
  for (const e of changes) expect(e.body).toEqual({ kind: 'store#changes' });
  expectChannelMessages(changes, changesChannel);
  expect(changesChannel.resourceUri).toMatch(/\/store\/v3\/changes\?alt=json&pageToken=\d+$/);

  // Nothing was heard twice on the wire either.
  for (const name of ['file', 'folder', 'changes', 'bob'])
    expect((await raw(page, name)).length).toBe(
      (await page.evaluate((n) => (window as any).kit.events[n].length, name)) as number,
    );
});

test('a page whose stream was cut gets what it missed on reconnect (Last-Event-ID), once', async ({ page }) => {
  await openPage(page);
  const fileId = await createFile(ALICE, { name: 'reconnect.txt' });
  const cutter = await startCutter(Number(new URL(relay.url).port));
  try {
    const channel = await watch(page, 'r', ALICE, fileId, cutter.url);
    await heard(page, 'r', 1);
    await ok(service.api('PATCH', `/store/v3/files/${fileId}`, { body: { name: 'r1.txt' } }));
    await heard(page, 'r', 2);

    cutter.cut();
    await ok(service.api('PATCH', `/store/v3/files/${fileId}`, { body: { name: 'r2.txt' } }));
    await ok(service.api('PATCH', `/store/v3/files/${fileId}`, { body: { description: 'while away' } }));
    // The relay has both while the page is away: read them from its stream, after the two the page already has.
    const streamUrl = (await page.evaluate(() => (window as any).kit.streams.r)) as string;
    const direct = new URL(streamUrl);
    direct.host = new URL(relay.url).host;
    direct.searchParams.set('lastEventId', '2');
    const missed = await readRelayStream(direct.href, caPem, 2);
    expect(missed.map((e) => e.sequence)).toEqual([3, 4]);
    expect(await raw(page, 'r')).toHaveLength(2);

    cutter.resume();
    const events = await heard(page, 'r', 4);
    expect(events.map((e) => [e.state, e.changed])).toEqual([
      ['sync', []],
      ['update', ['properties']],
      ['update', ['properties']],
      ['update', ['properties']],
    ]);
    expectChannelMessages(events, channel);
    // The reconnect asked from event 2 on: without Last-Event-ID the relay would have replayed 1 and 2 again.
    expect((await raw(page, 'r')).map((e) => e.sequence)).toEqual([1, 2, 3, 4]);
  } finally {
    await cutter.close();
  }
});

test('when the last listener leaves, the channel is stopped and nothing more arrives', async ({ page }) => {
  await openPage(page);
  const fileId = await createFile(ALICE, { name: 'stop.txt' });
  const stopped = await watch(page, 'leaving', ALICE, fileId);
  await heard(page, 'leaving', 1);
  const marker = await watch(page, 'marker', ALICE, fileId);
  await heard(page, 'marker', 1);

  await page.evaluate(() => (window as any).kit.unwatch('leaving'));
  // The service no longer knows the channel: stopping it again is the spec's 404.
  const again = await service.api('POST', '/store/v3/channels/stop', {
    body: { id: stopped.id, resourceId: stopped.resourceId },
  });
  expect(again.status).toBe(404);
  expect(again.json().error.message).toBe(`Channel '${stopped.id}' not found for project 'dev-client'`);

  await ok(service.api('PATCH', `/store/v3/files/${fileId}`, { body: { name: 'after-stop.txt' } }));
  const markerEvents = await heard(page, 'marker', 2);
  expect(markerEvents.map((e) => e.state)).toEqual(['sync', 'update']);
  expectChannelMessages(markerEvents, marker);
  // The leaving watch's stream is still open, yet its relay subscription got nothing after the sync.
  expect((await raw(page, 'leaving')).map((e) => [e.channelId, e.state])).toEqual([[stopped.id, 'sync']]);
  expect((await page.evaluate(() => (window as any).kit.events.leaving.length)) as number).toBe(1);
});
