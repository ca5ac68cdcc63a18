/**
 * `createStoreHandler` (`server/handler/`) at its edges: the default base path `/api/store`, the Node form used with
 * no `next` (what is not the service's gets the service's own JSON 404 naming the path), a Fetch `Request` whose
 * body the app already read (a 500 saying so), header values an app middleware left as arrays (joined as Node joins
 * them, for the app's `authenticate` and for a trusted proxy's `X-Forwarded-Host`), and the app's stable user id
 * becoming the user's permission id.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { createStoreHandler, type StoreHandler, type StoreHandlerOptions } from '../../server/handler/index.ts';
import { permissionIdFor } from '../../server/store/ids.ts';

const JSON_TYPE = /^application\/json; charset=UTF-8$/i;

interface Host {
  readonly url: string;
  readonly store: StoreHandler;
  stop(): Promise<void>;
}

/** A plain node:http server whose only listener is the handler's Node form (no `next`), after `before`. */
async function startHost(
  options: Omit<StoreHandlerOptions, 'dataDir'>,
  before?: (req: IncomingMessage) => void,
): Promise<Host> {
  const dataDir = mkdtempSync(join(tmpdir(), 'handler-edges-'));
  const store = await createStoreHandler({ dataDir, ...options });
  const server: Server = createServer((req, res) => {
    before?.(req);
    store.node(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    store,
    async stop() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await store.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

const alice: StoreHandlerOptions['authenticate'] = () => ({ email: 'alice@example.com', name: 'Alice' });

test('with no basePath the service answers below /api/store; the Node form with no next answers a JSON 404 for the rest', async () => {
  const host = await startHost({ authenticate: alice });
  try {
    const about = await fetch(`${host.url}/api/store/store/v3/about?fields=user(emailAddress)`);
    assert.equal(about.status, 200, await about.clone().text());
    assert.deepEqual(await about.json(), { user: { emailAddress: 'alice@example.com' } });
    for (const [path, named] of [
      ['/store/v3/about?fields=user', '/store/v3/about'],
      ['/elsewhere/page?x=1', '/elsewhere/page'],
    ]) {
      const r = await fetch(`${host.url}${path}`);
      assert.equal(r.status, 404, path);
      assert.match(r.headers.get('content-type') ?? '', JSON_TYPE);
      const body = (await r.json()) as { error: { code: number; message: string; errors: { reason: string }[] } };
      assert.equal(body.error.code, 404);
      assert.equal(body.error.message, `No API endpoint at ${named}.`);
      assert.equal(body.error.errors[0].reason, 'notFound');
    }
  } finally {
    await host.stop();
  }
});

test('a Fetch Request whose body the app already read is a JSON 500 saying to mount the handler before any body parser', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'handler-edges-'));
  const store = await createStoreHandler({ dataDir, authenticate: alice });
  try {
    const request = new Request('http://app.example/api/store/store/v3/files', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"name":"x"}',
    });
    assert.equal(await request.text(), '{"name":"x"}');
    const r = await store.fetch(request);
    assert.equal(r.status, 500);
    assert.match(r.headers.get('content-type') ?? '', JSON_TYPE);
    const body = (await r.json()) as { error: { code: number; message: string; errors: { reason: string }[] } };
    assert.equal(body.error.code, 500);
    assert.equal(body.error.errors[0].reason, 'backendError');
    assert.match(body.error.message, /^The request body was read before the store handler got it: mount the handler/);
    // Nothing was made.
    const list = await store.fetch(new Request('http://app.example/api/store/store/v3/files?fields=files(id)'));
    assert.deepEqual(await list.json(), { files: [] });
  } finally {
    await store.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
});

test('a header an app middleware left as an array reaches authenticate joined with ", "', async () => {
  const seen: (string | null)[] = [];
  const host = await startHost(
    {
      authenticate: ({ headers }) => {
        seen.push(headers.get('x-app-roles'));
        return { email: 'alice@example.com' };
      },
    },
    (req) => {
      req.headers['x-app-roles'] = ['editor', 'viewer'] as unknown as string;
    },
  );
  try {
    const r = await fetch(`${host.url}/api/store/store/v3/about?fields=user(emailAddress)`);
    assert.equal(r.status, 200, await r.clone().text());
    assert.deepEqual(seen, ['editor, viewer']);
  } finally {
    await host.stop();
  }
});

test('behind a trusted proxy, an X-Forwarded-Host left as an array names the session URI’s host by its first value', async () => {
  const host = await startHost({ authenticate: alice, trustProxy: true }, (req) => {
    req.headers['x-forwarded-host'] = ['files.example:8443', 'inner.example'] as unknown as string;
    req.headers['x-forwarded-proto'] = 'https';
  });
  try {
    const r = await fetch(`${host.url}/api/store/upload/store/v3/files?uploadType=resumable`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"name":"a.bin"}',
    });
    assert.equal(r.status, 200, await r.text());
    assert.match(
      r.headers.get('location') ?? '',
      /^https:\/\/files\.example:8443\/api\/store\/upload\/store\/v3\/files\?/,
    );
  } finally {
    await host.stop();
  }
});

test('the app’s stable user id makes the user’s permission id, whatever the address', async () => {
  let email = 'alice@example.com';
  const host = await startHost({ authenticate: () => ({ email, id: 'user-42' }) });
  try {
    const permissionId = async () => {
      const r = await fetch(`${host.url}/api/store/store/v3/about?fields=user(permissionId,emailAddress)`);
      assert.equal(r.status, 200);
      return ((await r.json()) as { user: { permissionId: string } }).user.permissionId;
    };
    const first = await permissionId();
    assert.equal(first, permissionIdFor('subject', 'app user-42'));
    assert.notEqual(first, permissionIdFor('user', email));
    email = 'alice.renamed@example.com';
    assert.equal(await permissionId(), first);
  } finally {
    await host.stop();
  }
});
