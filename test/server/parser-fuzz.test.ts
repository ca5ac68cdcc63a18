/**
 * Property-based fuzzing (fast-check) of every parser the service exposes, against the real service process:
 * Content-Range, multipart/related, batch multipart/mixed, `fields`, JSON bodies and query strings. Whatever the
 * input: a success or a 4xx that carries a message (503 only for the spec's resumable offset gap) — never a 5xx,
 * a crash (the helper's process guard), a hang (every call has a timeout) or a change to a stored file.
 * Seeded: a fixed seed, or `FC_SEED=<n>` for another (printed at the start and in every failure); `FC_RUNS` scales
 * the run count (default modest).
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import fc from 'fast-check';
import { startService, type ApiOptions, type ApiResult, type ServiceHandle } from './helpers/service.ts';

// A fixed seed: a run that fails fails again the same way. Another seed is one environment variable away.
const SEED = Number(process.env.FC_SEED ?? 3_902_117);
const RUNS = Number(process.env.FC_RUNS ?? 40);
console.log(`parser fuzz: fast-check seed ${SEED} (FC_SEED=${SEED} replays it), ${RUNS} runs per property`);

const BLOCK = 256 * 1024;
let svc: ServiceHandle;
/** A file whose bytes and metadata no fuzz input may change. */
let guarded: { id: string; content: Buffer; meta: string };

before(async () => {
  svc = await startService();
  const content = Buffer.from('guarded bytes \r\n-- not to be changed');
  const r = await svc.api('POST', '/upload/store/v3/files?uploadType=media', {
    body: content,
    headers: { 'Content-Type': 'text/plain' },
  });
  assert.equal(r.status, 200);
  guarded = { id: r.json().id, content, meta: await guardedMeta(r.json().id) };
});
after(() => svc.stop());

async function guardedMeta(id: string): Promise<string> {
  return (
    await svc.api(
      'GET',
      `/store/v3/files/${id}?fields=name,size,md5Checksum,version,parents,mimeType,permissions(id,role)`,
    )
  ).text;
}

/** One call with a deadline: a hang fails the property. */
async function call(method: string, path: string, options: ApiOptions = {}): Promise<ApiResult> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${method} ${path} got no answer within 10 s`)), 10_000);
  });
  try {
    return await Promise.race([svc.api(method, path, options), deadline]);
  } finally {
    clearTimeout(timer);
  }
}

/** The answer is a success or a 4xx with a message; `allow503` for the resumable offset gap. */
function assertSane(r: ApiResult, what: string, allow503 = false): void {
  const ctx = `${what} → ${r.status} ${r.text.slice(0, 300)}`;
  if (r.status < 400) return;
  assert.ok(r.status < 500 || (allow503 && r.status === 503 && /exceeds already uploaded size/.test(r.text)), ctx);
  const type = String(r.headers['content-type'] ?? '');
  const message = type.startsWith('application/json') ? r.json().error?.message : r.text;
  assert.ok(typeof message === 'string' && message.length > 0, `no message: ${ctx}`);
}

async function assertGuardedUnchanged(): Promise<void> {
  const media = await call('GET', `/store/v3/files/${guarded.id}?alt=media`);
  assert.ok(media.body.equals(guarded.content), 'the guarded file content changed');
  assert.equal(await guardedMeta(guarded.id), guarded.meta, 'the guarded file metadata changed');
}

const params = { seed: SEED, numRuns: RUNS, endOnFailure: true, includeErrorInReport: true } as const;
/** Printable ASCII (what an HTTP client may put in a header or a request target). */
const printable = (maxLength: number) =>
  fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)), maxLength });
const fragments = <T extends string>(pieces: T[], maxLength = 14) =>
  fc.array(fc.oneof(fc.constantFrom(...pieces), printable(12)), { maxLength }).map((a) => a.join(''));

test('Content-Range: any header and body on a session → 308/200/4xx (503 only for an offset gap); stored blocks never shrink', async () => {
  const start = await call('POST', '/upload/store/v3/files?uploadType=resumable', { body: { name: 'fuzz-session' } });
  const session = start.headers.location as string;
  const first = await call('PUT', session, {
    token: null,
    body: Buffer.alloc(BLOCK, 1),
    headers: { 'Content-Range': 'bytes 0-262143/*' },
  });
  assert.equal(first.status, 308);
  let stored = BLOCK;
  let grew = 0;
  // A header is an append from what the service holds (or overlapping its last block), or any other. The appends
  // reach past a block (the total is `*`: never the last chunk), so they add blocks and the property compares more
  // than one block; one under a block is refused whole.
  const header = fc.oneof(
    fc.record({
      from: fc.constantFrom('stored', 'overlap'),
      size: fc.oneof(
        fc.integer({ min: 1, max: 2 }).map((blocks) => blocks * BLOCK),
        fc.nat(2 * BLOCK + 1000),
      ),
    }),
    fc
      .tuple(fc.nat(3 * BLOCK), fc.nat(3 * BLOCK), fc.oneof(fc.nat(4 * BLOCK).map(String), fc.constant('*')))
      .map(([a, b, t]) => `bytes ${a}-${b}/${t}`),
    fc.oneof(fc.nat(4 * BLOCK).map(String), fc.constant('*')).map((t) => `bytes */${t}`),
    fragments(['bytes ', '*', '/', '-', '0', '262144', '524287', ' ', ',', '=', 'bytes=']),
  );
  const bodySize = fc.oneof(fc.nat(600), fc.integer({ min: BLOCK - 600, max: 2 * BLOCK + 600 }));
  await fc.assert(
    fc.asyncProperty(header, bodySize, async (choice, anySize) => {
      const append = typeof choice === 'string' ? undefined : choice;
      // An overlap starts a block back: the service skips the bytes it holds and keeps the rest.
      const from = append ? stored - (append.from === 'overlap' ? BLOCK : 0) : 0;
      const size = append ? Math.max(1, append.size) : anySize;
      const range = append ? `bytes ${from}-${from + size - 1}/*` : (choice as string);
      const r = await call('PUT', session, {
        token: null,
        body: Buffer.alloc(size, 2),
        headers: { 'Content-Range': range },
      });
      assertSane(r, `Content-Range "${range}" with ${size} bytes`, true);
      if (r.status === 200) return; // completed: every later PUT answers 200 with the same resource
      const q = await call('PUT', session, {
        token: null,
        headers: { 'Content-Range': 'bytes */*', 'Content-Length': '0' },
      });
      if (q.status === 200) return;
      assert.equal(q.status, 308, q.text);
      const now =
        q.headers.range === undefined ? 0 : Number(/^bytes=0-(\d+)$/.exec(q.headers.range as string)?.[1]) + 1;
      assert.ok(now >= stored && now % BLOCK === 0, `stored went from ${stored} to ${now} after "${range}"`);
      if (append) {
        // The supplement: a non-final chunk under a block is refused; a longer one keeps its whole blocks.
        const taken = size >= BLOCK;
        const what = `an append "${range}" of ${size} bytes from ${stored}`;
        assert.equal(r.status, taken ? 308 : 400, `${what}: ${r.status} ${r.text.slice(0, 200)}`);
        const kept = taken ? Math.max(stored, from + Math.floor(size / BLOCK) * BLOCK) : stored;
        assert.equal(now, kept, `${what} keeps exactly its whole blocks`);
      }
      if (now > stored) grew++;
      stored = now;
    }),
    { ...params, numRuns: Math.max(RUNS, 120) },
  );
  assert.ok(grew >= 10, `the session grew in only ${grew} cases (stored ${stored}): the property compared too little`);
  await assertGuardedUnchanged();
});

test('multipart/related: any body built from envelope pieces → 200 or 400 with a message', async () => {
  const body = fc.oneof(
    fragments(
      [
        '--b',
        '--b--',
        '\r\n',
        '\n',
        '\r',
        'Content-Type: application/json',
        'Content-Type: text/plain',
        'Content-Type: multipart/related',
        '{}',
        '{"name":"fz"}',
        '{"name":"\\ud800"}',
        '{"id":"nope"}',
        ': ',
        '--',
        'X: y',
      ],
      24,
    ),
    fc
      .tuple(
        fc.constantFrom('\r\n', '\n'),
        fc.uint8Array({ maxLength: 64 }),
        fc.constantFrom('', '--b--', '--b', '--b\r\nContent-Type: text/plain\r\n\r\nthird\r\n--b--'),
      )
      .map(([nl, media, tail]) =>
        Buffer.concat([
          Buffer.from(
            `--b${nl}Content-Type: application/json${nl}${nl}{"name":"fz"}${nl}--b${nl}Content-Type: application/octet-stream${nl}${nl}`,
          ),
          media,
          Buffer.from(`${nl}${tail}`),
        ]),
      ),
  );
  await fc.assert(
    fc.asyncProperty(
      body,
      fc.constantFrom(
        'multipart/related; boundary=b',
        'multipart/related; boundary="b"',
        'multipart/related',
        'multipart/related; boundary=',
      ),
      async (b, type) => {
        const r = await call('POST', '/upload/store/v3/files?uploadType=multipart', {
          body: b,
          headers: { 'Content-Type': type },
        });
        assertSane(r, `multipart ${JSON.stringify(String(b).slice(0, 200))}`);
        assert.ok(r.status === 200 || r.status === 400, `${r.status} ${r.text}`);
      },
    ),
    params,
  );
  await assertGuardedUnchanged();
});

test('batch multipart/mixed: any envelope → outer 200 or 400 with a message; inner answers sane', async () => {
  const inner = fc.constantFrom(
    'GET /store/v3/about?fields=kind',
    'GET /store/v3/files?fields=files(id)',
    'POST /store/v3/files\r\nContent-Type: application/json\r\n\r\n{"name":"from batch"}',
    'GET /upload/store/v3/files?uploadType=media',
    'GET http://evil.example/store/v3/about',
    'POST /batch/store/v3',
    'GARBAGE',
    '',
  );
  const envelope = fc
    .array(
      fc.tuple(
        inner,
        fc.constantFrom('\r\n', '\n'),
        fc.oneof(
          fc.constant(''),
          printable(10).map((id) => `Content-ID: <${id}>`),
        ),
        fragments(['Content-Type: application/http', 'Content-Type: text/plain', '\r\n', '--x', ' HTTP/1.1'], 4),
      ),
      { maxLength: 6 },
    )
    .map(
      (parts) =>
        parts
          .map(
            ([req, nl, id, noise]) =>
              `--x${nl}Content-Type: application/http${nl}${id}${id ? nl : ''}${noise}${nl}${req}${nl}`,
          )
          .join('') + '--x--',
    );
  await fc.assert(
    fc.asyncProperty(envelope, async (b) => {
      const r = await call('POST', '/batch/store/v3', {
        body: b,
        headers: { 'Content-Type': 'multipart/mixed; boundary=x' },
      });
      assertSane(r, `batch ${JSON.stringify(b.slice(0, 300))}`);
      if (r.status === 200) {
        for (const m of r.text.matchAll(/HTTP\/1\.1 (\d{3})/g))
          assert.ok(Number(m[1]) < 500, `inner ${m[0]} for ${JSON.stringify(b.slice(0, 300))}`);
      }
    }),
    params,
  );
  await assertGuardedUnchanged();
});

test('fields: any selection → 200 or 400 naming the problem, on reads and on a create', async () => {
  const selection = fragments(
    [
      'id',
      'name',
      'files',
      'kind',
      'permissions',
      'role',
      'owners',
      'size',
      '*',
      '/',
      ',',
      '(',
      ')',
      ' ',
      'data/',
      'nextPageToken',
      'emailAddress',
      'x',
    ],
    12,
  );
  await fc.assert(
    fc.asyncProperty(selection, fc.constantFrom('list', 'get', 'create', 'about'), async (sel, where) => {
      const q = `fields=${encodeURIComponent(sel)}`;
      const r =
        where === 'list'
          ? await call('GET', `/store/v3/files?${q}`)
          : where === 'get'
            ? await call('GET', `/store/v3/files/${guarded.id}?${q}`)
            : where === 'about'
              ? await call('GET', `/store/v3/about?${q}`)
              : await call('POST', `/store/v3/files?${q}`, { body: { name: 'fields fuzz' } });
      assertSane(r, `fields=${JSON.stringify(sel)} on ${where}`);
      if (r.status === 400) assert.equal(r.json().error.errors[0].location, 'fields');
    }),
    params,
  );
  await assertGuardedUnchanged();
});

test('JSON bodies: any text or bytes as metadata → 200 or 400 with a message (lone surrogates and bad UTF-8 refused)', async () => {
  const body = fc.oneof(
    fc.json(),
    fc.jsonValue().map((v) => JSON.stringify({ name: v })),
    fc.string({ unit: 'binary', maxLength: 40 }).map((s) => JSON.stringify({ name: s })),
    fc.string({ unit: 'binary', maxLength: 40 }),
    fc.uint8Array({ maxLength: 40 }).map((b) => Buffer.from(b)),
    fragments(
      [
        '{',
        '}',
        '"name"',
        ':',
        '"\\ud800"',
        '"\\udc00"',
        '"\\ud83d\\ude00"',
        ',',
        '[',
        ']',
        'null',
        '"parents"',
        '"trashed"',
        'true',
      ],
      12,
    ),
  );
  await fc.assert(
    fc.asyncProperty(body, async (b) => {
      const r = await call('POST', '/store/v3/files?fields=id,name', {
        body: typeof b === 'string' ? Buffer.from(b, 'utf8') : b,
        headers: { 'Content-Type': 'application/json' },
      });
      assertSane(r, `JSON ${JSON.stringify(String(b).slice(0, 200))}`);
      if (r.status === 200 && typeof b === 'string') {
        // What was stored is exactly what was sent: no U+FFFD substitution.
        const parsed = (() => {
          try {
            return JSON.parse(b) as { name?: unknown };
          } catch {
            return undefined;
          }
        })();
        if (parsed && typeof parsed.name === 'string') assert.equal(r.json().name, parsed.name);
      }
    }),
    params,
  );
  await assertGuardedUnchanged();
});

test('query strings: any parameters on list, get, changes, generateIds and uploads → success or 4xx with a message', async () => {
  const key = fc.constantFrom(
    'pageSize',
    'pageToken',
    'q',
    'fields',
    'uploadType',
    'upload_id',
    'alt',
    'count',
    'space',
    'type',
    'addParents',
    'removeParents',
    'ocrLanguage',
    'sendNotificationEmail',
    'mimeType',
    'x',
  );
  const value = fc.oneof(
    printable(16),
    fc.constantFrom(
      '-1',
      '0',
      '1001',
      '1e3',
      "name = 'a'",
      "'x' in parents",
      'trashed = false',
      'media',
      'resumable',
      'multipart',
      '%zz',
      '%',
      'files',
      'drive',
    ),
  );
  // Some values left raw (a stray `%` is invalid percent-encoding), some encoded.
  const query = fc
    .array(fc.tuple(key, value, fc.boolean()), { maxLength: 5 })
    .map((kv) =>
      kv
        .map(
          ([k, v, raw]) =>
            `${k}=${raw ? v.replace(/[^!-~]|[#&]/g, (c) => encodeURIComponent(c)) : encodeURIComponent(v)}`,
        )
        .join('&'),
    );
  const target = fc.constantFrom(
    'GET /store/v3/files',
    'GET /store/v3/files/ID',
    'GET /store/v3/changes',
    'GET /store/v3/files/generateIds',
    'POST /upload/store/v3/files',
    'GET /store/v3/changes/startPageToken',
  );
  await fc.assert(
    fc.asyncProperty(target, query, async (t, q) => {
      const [method, path] = t.replace('ID', guarded.id).split(' ') as [string, string];
      const r = await call(
        method,
        `${path}?${q}`,
        method === 'POST' ? { body: 'x', headers: { 'Content-Type': 'text/plain' } } : {},
      );
      assertSane(r, `${method} ${path}?${q}`);
    }),
    params,
  );
  await assertGuardedUnchanged();
});
