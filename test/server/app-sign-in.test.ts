/**
 * The app's own sign-in (`createStoreHandler({ authenticate })`, `server/handler/app-sign-in.ts`): a user the app
 * names without a client belongs to the client "app", the project its push channels are kept under (spec §5); the
 * app's `authenticate` is shown the headers HTTP/1.1 names them by when the app serves HTTP/2 (Fastify's `http2`
 * hands the compatibility request to the Node form); an `authenticate` that fails is a 500, whatever its message;
 * and the Fetch form says how long its answers are.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { connect, createServer as createH2Server, type Http2ServerRequest, type Http2ServerResponse } from 'node:http2';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createStoreHandler, type StoreHandler } from '../../server/handler/index.ts';

const BASE = '/api/store';

let url: string;
let store: StoreHandler;
let stop: () => Promise<void>;
before(async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'app-sign-in-'));
  store = await createStoreHandler({
    dataDir,
    basePath: BASE,
    authenticate: ({ headers }) => {
      const cookie = headers.get('cookie');
      // An app whose own session store fails with an Error that says nothing.
      if (cookie === 'session=broken') throw new Error();
      if (cookie === 'session=dave') return { email: `dave@${headers.get('host') ?? 'no-host'}.example` };
      return cookie === 'session=carol' ? { email: 'carol@example.com', name: 'Carol' } : undefined;
    },
  });
  const server = createServer((req, res) => store.node(req, res, () => res.writeHead(404).end()));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}${BASE}`;
  stop = async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    await store.close();
    rmSync(dataDir, { recursive: true, force: true });
  };
});
after(() => stop());

describe('the app’s sign-in', () => {
  it('a user named without a client is of the project "app": a channel it has not is not found there', async () => {
    const r = await fetch(`${url}/store/v3/channels/stop`, {
      method: 'POST',
      headers: { cookie: 'session=carol', 'content-type': 'application/json' },
      body: JSON.stringify({ id: 'no-such-channel', resourceId: 'no-such-resource' }),
    });
    assert.equal(r.status, 404);
    const body = (await r.json()) as { error: { message: string } };
    assert.equal(body.error.message, "Channel 'no-such-channel' not found for project 'app'");
  });
});

describe('the app’s authenticate', () => {
  it('that throws an Error without a message is a 500 Backend Error, never a cut-off body', async () => {
    const r = await fetch(`${url}/store/v3/about?fields=user`, { headers: { cookie: 'session=broken' } });
    assert.equal(r.status, 500);
    const body = (await r.json()) as { error: { message: string } };
    assert.equal(body.error.message, 'Backend Error');
  });

  it('is shown the headers by their HTTP/1.1 names when the app serves HTTP/2, Host among them', async () => {
    // The compatibility request of node:http2, as Fastify with `http2: true` hands its raw request to a Node handler.
    const h2 = createH2Server((req: Http2ServerRequest, res: Http2ServerResponse) =>
      store.node(req as unknown as IncomingMessage, res as unknown as ServerResponse),
    );
    await new Promise<void>((resolve) => h2.listen(0, '127.0.0.1', resolve));
    const port = (h2.address() as AddressInfo).port;
    const session = connect(`http://127.0.0.1:${port}`);
    try {
      const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
        const stream = session.request({
          ':path': `${BASE}/store/v3/about?fields=user(emailAddress)`,
          cookie: 'session=dave',
        });
        let status = 0;
        let body = '';
        stream.on('response', (h) => (status = Number(h[':status'])));
        stream.setEncoding('utf8');
        stream.on('data', (c: string) => (body += c));
        stream.on('end', () => resolve({ status, body }));
        stream.on('error', reject);
        stream.end();
      });
      assert.equal(answer.status, 200, answer.body);
      assert.deepEqual(JSON.parse(answer.body), { user: { emailAddress: `dave@127.0.0.1:${port}.example` } });
    } finally {
      session.close();
      await new Promise((resolve) => h2.close(resolve));
    }
  });
});

describe('the Fetch form', () => {
  it('says the length of a JSON answer in Content-Length', async () => {
    const r = await store.fetch(
      new Request(`${url}/store/v3/about?fields=user(displayName)`, { headers: { cookie: 'session=carol' } }),
    );
    assert.equal(r.status, 200);
    const bytes = new Uint8Array(await r.arrayBuffer());
    assert.deepEqual(JSON.parse(new TextDecoder().decode(bytes)), { user: { displayName: 'Carol' } });
    assert.equal(r.headers.get('content-length'), String(bytes.length));
  });
});
