// The service inside an app's own server (`createStoreHandler`): the same conformance basics as the standalone
// service, answered through its Node form in a plain node:http server and through its Fetch form in a Fetch host (a
// node:http server that converts to `Request` and back, as Next.js and Hono's node server do), below a base path,
// with the app's own sign-in (a cookie its `authenticate` reads).
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import {
  createServer,
  request as httpRequest,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { after, before, describe, test } from 'node:test';
import { encodeBatchRequest, parseBatchResponse } from 'store-upload-kit/protocol';
import { createStoreHandler, type StoreHandler, type StoreHandlerOptions } from '../../server/handler/index.ts';
import { bytesOf as seededBytes } from './helpers/bytes.ts';

const MiB = 1024 * 1024;
const BLOCK = 256 * 1024;
const BASE = '/api/store';
const ALICE = 'session=alice@example.com';

/** The app's sign-in: a `session` cookie naming the user (a real app would look its session up). */
const cookieSignIn: StoreHandlerOptions['authenticate'] = ({ headers }) => {
  const session = /(?:^|;\s*)session=([^;]+)/.exec(headers.get('cookie') ?? '')?.[1];
  return session ? { email: decodeURIComponent(session), name: 'Alice' } : undefined;
};

/**
 * A Fetch host: what Next.js and Hono's node server do, a `Request` in, a streamed `Response` out. `ownName` builds
 * the URL from the server's own name instead of the client's `Host`, as `next start` does (keeping the header).
 */
function fetchHost(handler: (request: Request) => Promise<Response>, ownName?: string) {
  return (req: IncomingMessage, res: ServerResponse) => {
    void (async () => {
      const hasBody = req.method !== 'GET' && req.method !== 'HEAD';
      const headers = new Headers();
      for (const [name, value] of Object.entries(req.headers))
        if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
      const host = ownName ? `${ownName}:${req.socket.localPort}` : req.headers.host;
      const request = new Request(`http://${host}${req.url}`, {
        method: req.method,
        headers,
        ...(hasBody ? { body: Readable.toWeb(req) as ReadableStream<Uint8Array>, duplex: 'half' } : {}),
      } as RequestInit);
      const response = await handler(request);
      res.writeHead(response.status, Object.fromEntries(response.headers));
      if (response.body) await pipeline(Readable.fromWeb(response.body as never), res);
      else res.end();
    })().catch((e: unknown) => res.destroy(e as Error));
  };
}

interface Host {
  readonly url: string;
  readonly store: StoreHandler;
  stop(): Promise<void>;
}

async function startHost(
  form: 'node' | 'fetch' | 'fetch named localhost',
  options: Partial<StoreHandlerOptions> = {},
  before?: (req: IncomingMessage) => Promise<void>,
): Promise<Host> {
  const dataDir = mkdtempSync(join(tmpdir(), 'store-handler-'));
  const store = await createStoreHandler({ dataDir, basePath: BASE, authenticate: cookieSignIn, ...options });
  const server: Server = createServer((req, res) => {
    if (form !== 'node') return fetchHost((r) => store.fetch(r), form === 'fetch' ? undefined : 'localhost')(req, res);
    // The app's own routes answer what is not the service's (`next`).
    const next = () => res.writeHead(200, { 'Content-Type': 'text/plain' }).end('the app');
    if (!before) return store.node(req, res, next);
    void before(req).then(() => store.node(req, res, next));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    store,
    async stop() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await store.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

const md5 = (bytes: Uint8Array) => createHash('md5').update(bytes).digest('hex');

for (const form of ['node', 'fetch'] as const) {
  describe(`the handler's ${form} form below ${BASE}`, () => {
    let host: Host;
    before(async () => {
      host = await startHost(form);
    });
    after(() => host.stop());
    const call = (method: string, path: string, init: RequestInit = {}, cookie: string | null = ALICE) =>
      fetch(`${host.url}${BASE}${path}`, {
        ...init,
        method,
        headers: { ...(cookie ? { cookie } : {}), ...(init.headers as Record<string, string>) },
      });

    test('a call without the app’s sign-in is 401, as the service answers it; a bearer token does not replace it', async () => {
      for (const headers of [{}, { authorization: 'Bearer dev-token-alice' }] as Record<string, string>[]) {
        const r = await call('GET', '/store/v3/files', { headers }, null);
        assert.equal(r.status, 401);
        const body = (await r.json()) as { error: { errors: { reason: string }[] } };
        assert.equal(body.error.errors[0]?.reason, 'required');
        assert.equal(r.headers.get('www-authenticate'), 'Bearer realm="store"');
      }
    });

    test('a resumable upload in chunks: 308 with Range, then 200; the Location carries the origin and base path', async () => {
      const bytes = seededBytes(3 * BLOCK + 1234, 37);
      const start = await call('POST', '/upload/store/v3/files?uploadType=resumable', {
        headers: { 'content-type': 'application/json', 'x-upload-content-length': String(bytes.length) },
        body: JSON.stringify({ name: 'chunks.bin' }),
      });
      assert.equal(start.status, 200);
      const location = start.headers.get('location') ?? '';
      assert.ok(location.startsWith(`${host.url}${BASE}/upload/store/v3/files?`), location);
      // The session URI is a capability: no sign-in needed on it.
      const first = await fetch(location, {
        method: 'PUT',
        headers: { 'content-range': `bytes 0-${2 * BLOCK - 1}/${bytes.length}` },
        body: bytes.subarray(0, 2 * BLOCK),
      });
      assert.equal(first.status, 308);
      assert.equal(first.headers.get('range'), `bytes=0-${2 * BLOCK - 1}`);
      const last = await fetch(location, {
        method: 'PUT',
        headers: { 'content-range': `bytes ${2 * BLOCK}-${bytes.length - 1}/${bytes.length}` },
        body: bytes.subarray(2 * BLOCK),
      });
      assert.equal(last.status, 200);
      const file = (await last.json()) as { id: string; md5Checksum: string; size: string; owners?: unknown };
      assert.equal(file.md5Checksum, md5(bytes));
      const stored = await call('GET', `/store/v3/files/${file.id}?alt=media`);
      assert.equal(stored.status, 200);
      assert.equal(md5(new Uint8Array(await stored.arrayBuffer())), md5(bytes));
      // Gzipped for a client that asks (the stored bytes come as a stream), and fetch undoes it.
      const gzipped = await call('GET', `/store/v3/files/${file.id}?alt=media`, {
        headers: { 'accept-encoding': 'gzip', 'user-agent': 'a client (gzip)' },
      });
      assert.equal(gzipped.status, 200);
      assert.equal(gzipped.headers.get('content-encoding'), 'gzip');
      assert.equal(md5(new Uint8Array(await gzipped.arrayBuffer())), md5(bytes));
      // HEAD answers with the length the GET would send.
      const got = await call('GET', `/store/v3/files/${file.id}?fields=id,name`);
      const head = await call('HEAD', `/store/v3/files/${file.id}?fields=id,name`);
      assert.equal(head.status, 200);
      assert.equal(head.headers.get('content-length'), String((await got.arrayBuffer()).byteLength));
      // `fields`, and the app's user as the owner.
      const meta = await call('GET', `/store/v3/files/${file.id}?fields=id,owners(emailAddress)`);
      assert.deepEqual(await meta.json(), { id: file.id, owners: [{ emailAddress: 'alice@example.com' }] });
      const about = await call('GET', '/store/v3/about?fields=user(displayName,emailAddress)');
      assert.deepEqual(await about.json(), { user: { displayName: 'Alice', emailAddress: 'alice@example.com' } });
      // Another user of the app does not see it.
      const bob = await call('GET', `/store/v3/files/${file.id}`, {}, 'session=bob@example.com');
      assert.equal(bob.status, 404);
    });

    test('a multipart upload and a batch of two calls answer as the service does', async () => {
      const boundary = 'b0undary';
      const created = await call('POST', '/upload/store/v3/files?uploadType=multipart&fields=id,name', {
        headers: { 'content-type': `multipart/related; boundary=${boundary}` },
        body:
          `--${boundary}\r\nContent-Type: application/json\r\n\r\n{"name":"m.txt"}\r\n` +
          `--${boundary}\r\nContent-Type: text/plain\r\n\r\nhello\r\n--${boundary}--`,
      });
      assert.equal(created.status, 200);
      const { id } = (await created.json()) as { id: string };
      const batch = encodeBatchRequest([
        { method: 'GET', path: `/store/v3/files/${id}?fields=name`, contentId: 'a' },
        { method: 'GET', path: '/store/v3/files/nope', contentId: 'b' },
      ]);
      const r = await call('POST', '/batch/store/v3', {
        headers: { 'content-type': batch.contentType },
        body: batch.body,
      });
      assert.equal(r.status, 200);
      const boundaryOut = /boundary=([^;]+)/.exec(r.headers.get('content-type') ?? '')?.[1] ?? '';
      const parts = parseBatchResponse(new Uint8Array(await r.arrayBuffer()), boundaryOut);
      assert.deepEqual(
        parts.map((p) => p.status),
        [200, 404],
      );
      assert.deepEqual(JSON.parse(new TextDecoder().decode(parts[0]!.body)), { name: 'm.txt' });
    });

    test('a path outside the base path is not the service’s', async () => {
      // Beside it, and sharing its first characters, without being below it.
      for (const path of ['/store/v3/files', `${BASE}x/store/v3/files`]) {
        const r = await fetch(`${host.url}${path}`, { headers: { cookie: ALICE } });
        if (form === 'node') assert.equal(await r.text(), 'the app', path);
        else assert.equal(r.status, 404, path);
      }
    });
  });
}

test('X-Forwarded-Proto and -Host make the Location only when trustProxy says so, in both forms', async () => {
  for (const [form, trustProxy] of [
    ['node', false],
    ['node', true],
    ['fetch', true],
  ] as const) {
    const host = await startHost(form, { trustProxy });
    try {
      const r = await fetch(`${host.url}${BASE}/upload/store/v3/files?uploadType=resumable`, {
        method: 'POST',
        headers: { cookie: ALICE, 'x-forwarded-proto': 'https', 'x-forwarded-host': 'app.example, proxy.internal' },
      });
      assert.equal(r.status, 200);
      const origin = trustProxy ? 'https://app.example' : host.url;
      assert.ok(r.headers.get('location')?.startsWith(`${origin}${BASE}/upload/`), r.headers.get('location') ?? '');
      // A proxy that names the host and not the scheme: the app's own scheme, and no 500.
      const hostOnly = await fetch(`${host.url}${BASE}/upload/store/v3/files?uploadType=resumable`, {
        method: 'POST',
        headers: { cookie: ALICE, 'x-forwarded-host': 'app.example' },
      });
      assert.equal(hostOnly.status, 200);
      const named = trustProxy ? 'http://app.example' : host.url;
      const at = hostOnly.headers.get('location') ?? '';
      assert.ok(at.startsWith(`${named}${BASE}/upload/`), at);
      // An empty X-Forwarded-Host names no host: the request's own stays.
      const empty = await fetch(`${host.url}${BASE}/upload/store/v3/files?uploadType=resumable`, {
        method: 'POST',
        headers: { cookie: ALICE, 'x-forwarded-proto': 'https', 'x-forwarded-host': ' , b' },
      });
      assert.equal(empty.status, 200);
      const own = trustProxy ? `https://${new URL(host.url).host}` : host.url;
      assert.ok(
        (empty.headers.get('location') ?? '').startsWith(`${own}${BASE}/upload/`),
        empty.headers.get('location') ?? '',
      );
    } finally {
      await host.stop();
    }
  }
});

test('the Fetch form’s Location is at the origin the client named in Host, not the one the host built the URL from', async () => {
  // `next start` builds request.url as http://localhost:PORT/… whatever the browser asked for: a Location there
  // would be another origin to a page at 127.0.0.1, which its cookie does not go to.
  const host = await startHost('fetch named localhost');
  try {
    const r = await fetch(`${host.url}${BASE}/upload/store/v3/files?uploadType=resumable`, {
      method: 'POST',
      headers: { cookie: ALICE },
    });
    assert.equal(r.status, 200);
    const location = r.headers.get('location') ?? '';
    assert.ok(location.startsWith(`${host.url}${BASE}/upload/store/v3/files?`), location);
  } finally {
    await host.stop();
  }
});

test('a Host header that is no host (a space, a path, credentials) neither throws nor moves the Location: the service keeps answering', async () => {
  const host = await startHost('node');
  try {
    const { port } = new URL(host.url);
    for (const name of ['a b', 'evil.example/path', 'user@evil.example', 'a:b:c', `127.0.0.1:${port}`]) {
      const { status, location } = await new Promise<{ status?: number; location?: string }>((resolve, reject) => {
        const req = httpRequest(
          {
            host: '127.0.0.1',
            port,
            method: 'POST',
            path: `${BASE}/upload/store/v3/files?uploadType=resumable`,
            headers: { host: name, cookie: ALICE },
          },
          (res) => {
            res.resume();
            res.on('end', () => resolve({ status: res.statusCode, location: res.headers.location }));
          },
        );
        req.on('error', reject);
        req.end();
      });
      assert.equal(status, 200, name);
      const origin = name.startsWith('127.0.0.1') ? host.url : 'http://localhost';
      assert.ok(location?.startsWith(`${origin}${BASE}/upload/store/v3/files?`), `${name}: ${location}`);
    }
  } finally {
    await host.stop();
  }
});

test('a body a body parser read first is answered 500, saying to mount the handler before it', async () => {
  // What express.json() does: reads the whole body before the next handler.
  const host = await startHost('node', {}, async (req) => {
    for await (const _ of req);
  });
  try {
    const r = await fetch(`${host.url}${BASE}/store/v3/files`, {
      method: 'POST',
      headers: { cookie: ALICE, 'content-type': 'application/json' },
      body: '{"name":"x"}',
    });
    assert.equal(r.status, 500);
    const body = (await r.json()) as { error: { message: string } };
    assert.match(body.error.message, /mount the handler before any body parser/);
  } finally {
    await host.stop();
  }
});

test('an empty body a body parser took first is answered 500 too: express.json() marks it read without a byte', async () => {
  // What body-parser's read() does before it reads: `req._body = true`; an empty body then emits no 'data'.
  const host = await startHost('node', {}, async (req) => {
    (req as IncomingMessage & { _body?: boolean })._body = true;
    for await (const _ of req);
  });
  try {
    const r = await fetch(`${host.url}${BASE}/store/v3/files`, {
      method: 'POST',
      headers: { cookie: ALICE, 'content-type': 'application/json', 'content-length': '0' },
      body: '',
    });
    assert.equal(r.status, 500);
    const body = (await r.json()) as { error: { message: string } };
    assert.match(body.error.message, /mount the handler before any body parser/);
  } finally {
    await host.stop();
  }
});

/** The process's peak resident set since the last reset, in bytes. */
function peakRss(): number {
  const m = /^VmHWM:\s+(\d+) kB$/m.exec(readFileSync('/proc/self/status', 'utf8'));
  assert.ok(m, 'no VmHWM line');
  return Number(m[1]) * 1024;
}

test('the Fetch form streams a 96 MiB body: the peak memory grows by far less than the body', async () => {
  const host = await startHost('fetch');
  try {
    const size = 96 * MiB;
    const chunk = seededBytes(MiB, 7);
    // Written by the client one chunk at a time, never whole.
    const body = Readable.from(
      (function* () {
        for (let i = 0; i < size / MiB; i++) yield chunk;
      })(),
    );
    // Reset the peak (Linux: clear_refs 5), so it counts this upload only.
    writeFileSync('/proc/self/clear_refs', '5');
    const before = peakRss();
    const r = await fetch(`${host.url}${BASE}/upload/store/v3/files?uploadType=media&fields=size`, {
      method: 'POST',
      headers: { cookie: ALICE, 'content-type': 'application/octet-stream', 'content-length': String(size) },
      body: Readable.toWeb(body) as ReadableStream<Uint8Array>,
      duplex: 'half',
    } as RequestInit);
    assert.equal(r.status, 200);
    assert.deepEqual(await r.json(), { size: String(size) });
    const grown = peakRss() - before;
    assert.ok(grown < 48 * MiB, `the peak grew by ${Math.round(grown / MiB)} MiB for a ${size / MiB} MiB body`);
  } finally {
    await host.stop();
  }
});

test('a user without an e-mail address from the app’s authenticate is a 500, never a signed-in call', async () => {
  const host = await startHost('node', { authenticate: () => ({ email: 'nobody', name: 'N' }) });
  try {
    const r = await fetch(`${host.url}${BASE}/store/v3/files`);
    assert.equal(r.status, 500);
  } finally {
    await host.stop();
  }
});

test('a header the app cleared before the handler (set to undefined) is absent for its authenticate, not the text "undefined"', async () => {
  const seen: (string | null)[] = [];
  const host = await startHost(
    'node',
    {
      authenticate: ({ headers }) => {
        seen.push(headers.get('x-app-session'));
        return headers.has('x-app-session') ? undefined : { email: 'alice@example.com', name: 'Alice' };
      },
    },
    // An app middleware that took the header for itself and cleared it, as Node's header type allows.
    async (req) => {
      req.headers['x-app-session'] = undefined;
    },
  );
  try {
    const r = await fetch(`${host.url}${BASE}/store/v3/about?fields=user(emailAddress)`, {
      headers: { 'x-app-session': 'abc' },
    });
    assert.equal(r.status, 200, await r.clone().text());
    assert.deepEqual(await r.json(), { user: { emailAddress: 'alice@example.com' } });
    assert.deepEqual(seen, [null]);
  } finally {
    await host.stop();
  }
});

test('the Fetch form reads a path without a query as no parameters, and ends a stalled body after bodyIdleTimeoutMs', async () => {
  const host = await startHost('fetch', { config: { bodyIdleTimeoutMs: 300 } });
  try {
    const made = await fetch(`${host.url}${BASE}/store/v3/files`, {
      method: 'POST',
      headers: { cookie: ALICE, 'content-type': 'application/json' },
      body: '{"name":"q.txt"}',
    });
    const { id } = (await made.json()) as { id: string };
    const got = await fetch(`${host.url}${BASE}/store/v3/files/${id}`, { headers: { cookie: ALICE } });
    assert.equal(got.status, 200, await got.clone().text());
    assert.equal(((await got.json()) as { name: string }).name, 'q.txt');
    // Without a '?', nothing of the path is a parameter: an id holding '&fields=' is just an id no file has.
    const odd = await fetch(`${host.url}${BASE}/store/v3/files/${id}&fields=nonsense((`, {
      headers: { cookie: ALICE },
    });
    assert.equal(odd.status, 404, await odd.text());
    const { port } = new URL(host.url);
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(port), '127.0.0.1', () =>
        socket.write(
          `POST ${BASE}/store/v3/files HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: ${ALICE}\r\n` +
            'Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{"name":',
        ),
      );
      let text = '';
      const timer = setTimeout(() => reject(new Error(`no answer to a stalled body: ${text}`)), 30_000);
      socket.on('data', (c: Buffer) => {
        text += c.toString('latin1');
        if (/\r\n\r\n[\s\S]*\}/.test(text)) {
          clearTimeout(timer);
          socket.destroy();
          resolve(text);
        }
      });
      socket.on('error', () => undefined);
    });
    assert.match(answer, /^HTTP\/1\.1 400 /);
    assert.match(answer, /The request body was cut off\./);
  } finally {
    await host.stop();
  }
});

test('the Fetch form answers a CORS preflight itself', async () => {
  const host = await startHost('fetch');
  try {
    const r = await fetch(`${host.url}${BASE}/store/v3/files`, {
      method: 'OPTIONS',
      headers: { origin: 'http://localhost:5173', 'access-control-request-method': 'PATCH' },
    });
    assert.equal(r.status, 204);
    assert.equal(r.headers.get('access-control-allow-origin'), 'http://localhost:5173');
  } finally {
    await host.stop();
  }
});

test('a HEAD through the Fetch form tells the length its GET sends', async () => {
  const host = await startHost('fetch');
  try {
    const made = await fetch(`${host.url}${BASE}/store/v3/files`, {
      method: 'POST',
      headers: { cookie: ALICE, 'content-type': 'application/json' },
      body: '{"name":"head.txt"}',
    });
    const { id } = (await made.json()) as { id: string };
    const get = await fetch(`${host.url}${BASE}/store/v3/files/${id}`, { headers: { cookie: ALICE } });
    const length = (await get.arrayBuffer()).byteLength;
    const head = await fetch(`${host.url}${BASE}/store/v3/files/${id}`, { method: 'HEAD', headers: { cookie: ALICE } });
    assert.equal(head.status, 200);
    assert.equal(head.headers.get('content-length'), String(length));
  } finally {
    await host.stop();
  }
});
