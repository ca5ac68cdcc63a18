/**
 * The mounted service's Fetch form (`createStoreHandler(…).fetch`, called with a `Request` as Next.js route
 * handlers and Hono call it) judges a JSON body by its declared Content-Length before reading it: over
 * `maxJsonBytes` is a 413 whose stream is never read, whatever the body turns out to hold, and nothing is created;
 * it answers HEAD as the host must send it: no body, the length a GET would send; a newer request on a session ends
 * an older one still receiving (503, as the standalone service); and a base path written as an app might
 * (`api/store//`) mounts the service at `/api/store`.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { after, before, test } from 'node:test';
import { createStoreHandler, type StoreHandler } from '../../server/handler/index.ts';

const BASE = '/api/store';
const ORIGIN = 'http://app.example';
const dataDir = mkdtempSync(join(tmpdir(), 'mounted-fetch-form-'));
let store: StoreHandler;
before(async () => {
  store = await createStoreHandler({
    dataDir,
    basePath: 'api/store//',
    authenticate: () => ({ email: 'alice@example.com', name: 'Alice' }),
    config: { maxJsonBytes: 1024 },
  });
});
after(async () => {
  await store.close();
  rmSync(dataDir, { recursive: true, force: true });
});

test('a JSON body declared longer than maxJsonBytes is a 413 before a byte of it is read', async () => {
  let pulls = 0;
  const body = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        pulls++;
        controller.enqueue(new TextEncoder().encode('{"name":"small.txt"}'));
        controller.close();
      },
    },
    { highWaterMark: 0 },
  );
  const r = await store.fetch(
    new Request(`${ORIGIN}${BASE}/store/v3/files`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'Content-Length': '5000000' },
      body,
      duplex: 'half',
    } as RequestInit),
  );
  assert.equal(r.status, 413, await r.text());
  assert.equal(pulls, 0, 'the body was read');
  const list = await store.fetch(new Request(`${ORIGIN}${BASE}/store/v3/files?fields=files(name)`));
  assert.deepEqual(await list.json(), { files: [] });
});

test('a HEAD answer has no body, only the Content-Length the GET would send', async () => {
  const bytes = new Uint8Array(70_000).fill(0x61);
  const made = await store.fetch(
    new Request(`${ORIGIN}${BASE}/upload/store/v3/files?uploadType=media&fields=id`, {
      method: 'POST',
      headers: { 'Content-Type': 'text/plain' },
      body: bytes,
    }),
  );
  assert.equal(made.status, 200);
  const { id } = (await made.json()) as { id: string };
  for (const [path, length] of [
    [`/store/v3/files/${id}?alt=media`, bytes.length],
    [`/store/v3/files/${id}?fields=id`, JSON.stringify({ id }).length],
  ] as const) {
    const head = await store.fetch(new Request(`${ORIGIN}${BASE}${path}`, { method: 'HEAD' }));
    assert.equal(head.status, 200, path);
    assert.equal(head.headers.get('content-length'), String(length), path);
    assert.equal(head.body, null, `${path}: a HEAD answer with a body`);
  }
});

test('a base path given without its leading slash and with trailing slashes mounts the service at /api/store', async () => {
  const about = await store.fetch(new Request(`${ORIGIN}${BASE}/store/v3/about?fields=user(emailAddress)`));
  assert.equal(about.status, 200);
  assert.deepEqual(await about.json(), { user: { emailAddress: 'alice@example.com' } });
  const outside = await store.fetch(new Request(`${ORIGIN}/api/storex/store/v3/about`));
  assert.equal(outside.status, 404);
});

test('a status query ends an older chunk PUT still receiving: the older one is answered 503, the newer 308', async () => {
  const BLOCK = 256 * 1024;
  const TOTAL = 4 * BLOCK;
  const started = await store.fetch(
    new Request(`${ORIGIN}${BASE}/upload/store/v3/files?uploadType=resumable`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'superseded.bin' }),
    }),
  );
  assert.equal(started.status, 200, await started.text());
  const session = started.headers.get('location') as string;
  // The older PUT sends one block, then waits: its second pull says the service has read the first.
  let waiting!: () => void;
  const reading = new Promise<void>((resolve) => (waiting = resolve));
  let pulls = 0;
  const body = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        if (++pulls === 1) controller.enqueue(new Uint8Array(BLOCK).fill(7));
        else {
          waiting();
          return new Promise<void>(() => undefined);
        }
      },
    },
    { highWaterMark: 0 },
  );
  const older = store.fetch(
    new Request(session, {
      method: 'PUT',
      headers: { 'Content-Range': `bytes 0-${TOTAL - 1}/${TOTAL}`, 'Content-Length': String(TOTAL) },
      body,
      duplex: 'half',
    } as RequestInit),
  );
  await reading;
  const newer = await store.fetch(
    new Request(session, { method: 'PUT', headers: { 'Content-Range': `bytes */${TOTAL}` } }),
  );
  const first = await older;
  assert.equal(first.status, 503, await first.text());
  assert.match(String(first.headers.get('content-type')), /^text\/plain/);
  assert.equal(newer.status, 308);
});

test('a path beside the base path is not the service’s: the 404 names the whole path; below it the service answers', async () => {
  for (const path of ['/api/storefront/store/v3/about', '/api', '/other/api/store/store/v3/about']) {
    const r = await store.fetch(new Request(`${ORIGIN}${path}`));
    assert.equal(r.status, 404, path);
    assert.equal(((await r.json()) as { error: { message: string } }).error.message, `No API endpoint at ${path}.`);
  }
  // The base path itself is the service's root, where it serves nothing; with a query it is still the service's.
  for (const path of [BASE, `${BASE}/`]) {
    const r = await store.fetch(new Request(`${ORIGIN}${path}`));
    assert.equal(r.status, 404, path);
    assert.equal(((await r.json()) as { error: { message: string } }).error.message, 'No API endpoint at /.', path);
  }
  const query = await store.fetch(new Request(`${ORIGIN}${BASE}?fields=id`));
  assert.equal(query.status, 404);
  assert.doesNotMatch(((await query.json()) as { error: { message: string } }).error.message, /\/api\/store/);
});

test('behind a trusted proxy, its scheme (either, in any case) and first host make the Location; another scheme does not', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'mounted-fetch-proxy-'));
  const proxied = await createStoreHandler({
    dataDir: dir,
    basePath: '/files/',
    trustProxy: true,
    authenticate: () => ({ email: 'alice@example.com', name: 'Alice' }),
  });
  try {
    const cases: [string, Record<string, string>, string][] = [
      [
        'https://app.example',
        { 'x-forwarded-proto': 'http', 'x-forwarded-host': 'www.example, proxy.internal' },
        'http://www.example',
      ],
      ['http://app.example', { 'x-forwarded-proto': 'HTTPS' }, 'https://app.example'],
      ['https://app.example', { 'x-forwarded-proto': 'ftp', 'x-forwarded-host': 'www.example' }, 'https://www.example'],
      ['http://app.example', {}, 'http://app.example'],
      ['http://app.example', { 'x-forwarded-host': 'www.example , proxy.internal' }, 'http://www.example'],
      ['http://app.example', { 'x-forwarded-host': ' , proxy.internal' }, 'http://app.example'],
    ];
    for (const [own, headers, origin] of cases) {
      const r = await proxied.fetch(
        new Request(`${own}/files/upload/store/v3/files?uploadType=resumable`, { method: 'POST', headers }),
      );
      assert.equal(r.status, 200, await r.text());
      const location = r.headers.get('location') ?? '';
      assert.ok(
        location.startsWith(`${origin}/files/upload/store/v3/files?`),
        `${JSON.stringify(headers)}: ${location}`,
      );
    }
  } finally {
    await proxied.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a base path with a query or a fragment is refused, naming it; "/" mounts the service at the root', async () => {
  for (const basePath of ['/api?x=1', '/api#top']) {
    await assert.rejects(createStoreHandler({ dataDir: join(dataDir, 'never'), basePath }), {
      message: `basePath must be a path without a query or a fragment; got "${basePath}"`,
    });
  }
  const dir = mkdtempSync(join(tmpdir(), 'mounted-fetch-root-'));
  const atRoot = await createStoreHandler({
    dataDir: dir,
    basePath: ' / ',
    authenticate: () => ({ email: 'alice@example.com', name: 'Alice' }),
  });
  try {
    const about = await atRoot.fetch(new Request(`${ORIGIN}/store/v3/about?fields=user(emailAddress)`));
    assert.equal(about.status, 200);
    assert.deepEqual(await about.json(), { user: { emailAddress: 'alice@example.com' } });
  } finally {
    await atRoot.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

/** A request body that gives `chunks` one per pull, then ends (or fails, with `fail`). */
function streamOf(chunks: readonly Uint8Array[], fail?: Error): ReadableStream<Uint8Array> {
  let next = 0;
  return new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        const chunk = chunks[next++];
        if (chunk) controller.enqueue(chunk);
        else if (fail) controller.error(fail);
        else controller.close();
      },
    },
    { highWaterMark: 0 },
  );
}

const names = async (): Promise<string[]> => {
  const r = await store.fetch(new Request(`${ORIGIN}${BASE}/store/v3/files?fields=files(name)&pageSize=1000`));
  return ((await r.json()) as { files: { name: string }[] }).files.map((f) => f.name);
};

/** A multipart upload whose body is `body`, declared `length` bytes long. */
const multipartUpload = (body: ReadableStream<Uint8Array>, length: number) =>
  store.fetch(
    new Request(`${ORIGIN}${BASE}/upload/store/v3/files?uploadType=multipart&fields=id,size,md5Checksum`, {
      method: 'POST',
      headers: { 'Content-Type': 'multipart/related; boundary=cut', 'Content-Length': String(length) },
      body,
      duplex: 'half',
    } as RequestInit),
  );

function multipart(name: string, content: string): Uint8Array {
  return new TextEncoder().encode(
    `--cut\r\nContent-Type: application/json\r\n\r\n${JSON.stringify({ name })}\r\n` +
      `--cut\r\nContent-Type: text/plain\r\n\r\n${content}\r\n--cut--\r\n`,
  );
}

test('a streamed upload whose body arrives whole is stored byte for byte', async () => {
  const whole = multipart('streamed-whole.txt', 'abc'.repeat(3000));
  const r = await multipartUpload(streamOf([whole.subarray(0, 4000), whole.subarray(4000)]), whole.length);
  assert.equal(r.status, 200, await r.clone().text());
  assert.equal(((await r.json()) as { size: string }).size, '9000');
});

test('a streamed upload whose body ends short of its Content-Length, or fails, is cut off: a 400 and nothing stored', async () => {
  const whole = multipart('streamed-short.txt', 'x'.repeat(5000));
  const short = await multipartUpload(streamOf([whole]), whole.length + 100);
  assert.equal(short.status, 400, await short.clone().text());
  assert.equal(((await short.json()) as { error: { message: string } }).error.message, 'The request body was cut off.');
  const failing = multipart('streamed-failing.txt', 'y'.repeat(5000));
  const failed = await multipartUpload(
    streamOf([failing.subarray(0, 1000)], new Error('the client went away')),
    failing.length,
  );
  assert.equal(failed.status, 400, await failed.clone().text());
  assert.equal(
    ((await failed.json()) as { error: { message: string } }).error.message,
    'The request body was cut off.',
  );
  const stored = await names();
  assert.ok(!stored.includes('streamed-short.txt') && !stored.includes('streamed-failing.txt'), stored.join(', '));
});

test('a JSON body of exactly maxJsonBytes is read, one byte more is a 413, declared or not', async () => {
  const json = (size: number) => {
    const name = `limit-${size}-`;
    const text = JSON.stringify({ name: name.padEnd(size - '{"name":""}'.length, 'n') });
    assert.equal(text.length, size);
    return new TextEncoder().encode(text);
  };
  for (const declared of [true, false]) {
    for (const [size, status] of [
      [1024, 200],
      [1025, 413],
    ] as const) {
      const bytes = json(size);
      const r = await store.fetch(
        new Request(`${ORIGIN}${BASE}/store/v3/files?fields=name`, {
          method: 'POST',
          headers: {
            'Content-Type': 'application/json',
            ...(declared ? { 'Content-Length': String(size) } : {}),
          },
          body: streamOf([bytes.subarray(0, 512), bytes.subarray(512)]),
          duplex: 'half',
        } as RequestInit),
      );
      const text = await r.text();
      assert.equal(r.status, status, `${size} bytes, ${declared ? 'declared' : 'not declared'}: ${text}`);
      if (status === 200) assert.equal((JSON.parse(text) as { name: string }).name.length, size - 11);
      if (status === 413) {
        assert.equal(
          (JSON.parse(text) as { error: { message: string } }).error.message,
          'The request body is larger than the limit of 1024 bytes for this endpoint.',
        );
      }
    }
  }
});

test('the Fetch form gzips what the Node form gzips: a JSON answer and a streamed download, saying it varies', async () => {
  const text = 'fetch form gzip '.repeat(500);
  const made = await store.fetch(
    new Request(`${ORIGIN}${BASE}/upload/store/v3/files?uploadType=media&fields=id`, {
      method: 'POST',
      headers: { 'Content-Type': 'text/plain' },
      body: text,
    }),
  );
  const { id } = (await made.json()) as { id: string };
  const gz = { 'Accept-Encoding': 'gzip', 'User-Agent': 'app (gzip)', Origin: 'https://page.example' };
  const download = await store.fetch(new Request(`${ORIGIN}${BASE}/store/v3/files/${id}?alt=media`, { headers: gz }));
  assert.equal(download.status, 200);
  assert.equal(download.headers.get('content-encoding'), 'gzip');
  assert.equal(download.headers.get('content-length'), null, 'the plain length on a gzipped body');
  assert.equal(download.headers.get('vary'), 'Origin, Accept-Encoding, User-Agent');
  assert.equal(gunzipSync(Buffer.from(await download.arrayBuffer())).toString(), text);
  const json = await store.fetch(new Request(`${ORIGIN}${BASE}/store/v3/files/${id}?fields=id`, { headers: gz }));
  assert.equal(json.headers.get('content-encoding'), 'gzip');
  const zipped = Buffer.from(await json.arrayBuffer());
  assert.equal(json.headers.get('content-length'), String(zipped.length));
  assert.deepEqual(JSON.parse(gunzipSync(zipped).toString()), { id });
});

test('thirty HEADs of a download through the Fetch form leave no file open: the stream a HEAD does not send is closed', async () => {
  const made = await store.fetch(
    new Request(`${ORIGIN}${BASE}/upload/store/v3/files?uploadType=media&fields=id`, {
      method: 'POST',
      headers: { 'Content-Type': 'text/plain' },
      body: 'head '.repeat(1000),
    }),
  );
  const { id } = (await made.json()) as { id: string };
  // This process's open descriptors (Linux): the service runs in it.
  const open = () => readdirSync('/proc/self/fd').length;
  const before = open();
  for (let i = 0; i < 30; i++) {
    const head = await store.fetch(new Request(`${ORIGIN}${BASE}/store/v3/files/${id}?alt=media`, { method: 'HEAD' }));
    assert.equal(head.status, 200);
  }
  const grown = open() - before;
  assert.ok(grown < 10, `${grown} more descriptors open after 30 HEADs`);
});
