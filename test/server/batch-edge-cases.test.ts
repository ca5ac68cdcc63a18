/**
 * Checks of `POST /batch/store/v3` (spec §4.11, §8; supplement §6) against the real service: the rules
 * `batch.test.ts` leaves open — LF-only bodies, inheritance that must not leak (Content-*, `alt=media`), HEAD and
 * 204 parts, ids with odd characters, quota counted per inner call, sloppy envelopes and parts.
 */
import assert from 'node:assert/strict';
import { gunzipSync } from 'node:zlib';
import { after, before, test } from 'node:test';
import { parseBatchResponse, type ParsedBatchResponse } from '../../src/protocol/batch-codec.ts';
import { multipartBoundary } from '../../src/protocol/multipart.ts';
import { startService, type ApiResult, type ServiceHandle } from './helpers/service.ts';

const ALICE = 'dev-token-alice';
const BOB = 'dev-token-bob';
const DOC = 'application/vnd.svc-apps.document';

let svc: ServiceHandle;
let fileId: string; // alice's text file "audit.txt", content "hello"
before(async () => {
  svc = await startService();
  const up = await svc.api('POST', '/upload/store/v3/files?uploadType=media&fields=id', {
    headers: { 'Content-Type': 'text/plain' },
    body: 'hello',
  });
  assert.equal(up.status, 200, up.text);
  fileId = up.json().id;
  const named = await svc.api('PATCH', `/store/v3/files/${fileId}?fields=id`, { body: { name: 'audit.txt' } });
  assert.equal(named.status, 200, named.text);
});
after(() => svc.stop());

/** One raw part: `application/http` part headers, then the inner message as given. */
function part(message: string, partHeaders = ''): string {
  return `--b\r\nContent-Type: application/http\r\n${partHeaders}\r\n${message}\r\n`;
}

/** Posts a raw batch body with boundary `b` (or the given content type). */
function post(
  body: string,
  options: { token?: string | null; query?: string; contentType?: string; headers?: Record<string, string> } = {},
): Promise<ApiResult> {
  return svc.api('POST', `/batch/store/v3${options.query ?? ''}`, {
    token: options.token === undefined ? ALICE : options.token,
    headers: { 'Content-Type': options.contentType ?? 'multipart/mixed; boundary=b', ...options.headers },
    body,
  });
}

/** Posts and decodes a batch that must succeed as a whole. */
async function batch(body: string, options: Parameters<typeof post>[1] = {}): Promise<ParsedBatchResponse[]> {
  const r = await post(body, options);
  assert.equal(r.status, 200, r.text);
  return parseBatchResponse(r.body, multipartBoundary(r.headers['content-type'] as string, 'mixed'));
}

function json(p: ParsedBatchResponse): any {
  return JSON.parse(Buffer.from(p.body).toString('utf8'));
}

function errorOf(message: string, reason = 'badRequest'): object {
  return { error: { code: 400, message, errors: [{ message, domain: 'global', reason }] } };
}

function outerError(r: ApiResult, message: string): void {
  assert.equal(r.status, 400, r.text);
  assert.equal(r.headers['content-type'], 'application/json; charset=UTF-8');
  assert.deepEqual(r.json(), errorOf(message));
}

test('LF-only line breaks throughout; bodies without Content-Length; the answer is exact and uses CRLF', async () => {
  const body =
    '--b\nContent-Type: application/http\nContent-ID: <lf1>\n\n' +
    `GET /store/v3/files/${fileId}?fields=name HTTP/1.1\n\n` +
    '--b\ncontent-type: application/http\ncontent-id: lf2\ncontent-transfer-encoding: binary\n\n' +
    'PATCH /store/v3/about\ncontent-type: application/json\n\n{}\n' +
    '--b--\n';
  const r = await post(body);
  assert.equal(r.status, 200, r.text);
  const b = /^multipart\/mixed; boundary=(batch_[0-9a-f]{32})$/.exec(r.headers['content-type'] as string)?.[1];
  assert.ok(b, String(r.headers['content-type']));
  const first = JSON.stringify({ name: 'audit.txt' });
  const second = JSON.stringify({
    error: {
      code: 405,
      message: 'Method PATCH is not allowed on /store/v3/about; allowed: GET.',
      errors: [
        {
          message: 'Method PATCH is not allowed on /store/v3/about; allowed: GET.',
          domain: 'global',
          reason: 'methodNotAllowed',
        },
      ],
    },
  });
  assert.equal(
    r.text,
    `--${b}\r\nContent-Type: application/http\r\nContent-ID: <response-lf1>\r\n\r\n` +
      `HTTP/1.1 200 OK\r\nContent-Type: application/json; charset=UTF-8\r\nContent-Length: ${first.length}\r\n\r\n${first}\r\n` +
      `--${b}\r\nContent-Type: application/http\r\nContent-ID: response-lf2\r\n\r\n` +
      `HTTP/1.1 405 Method Not Allowed\r\nContent-Type: application/json; charset=UTF-8\r\nAllow: GET\r\nContent-Length: ${second.length}\r\n\r\n${second}\r\n` +
      `--${b}--\r\n`,
  );
});

test('Content-IDs with colons and @ come back prefixed inside the brackets; parts without one get none', async () => {
  const parts = await batch(
    part('GET /store/v3/about?fields=kind', 'Content-ID: <item1:12930812@barnyard.example.com>\r\n') +
      part('GET /store/v3/about?fields=kind') +
      part('GET /store/v3/about?fields=kind', 'Content-ID: item3\r\n') +
      '--b--',
  );
  assert.deepEqual(
    parts.map((p) => [p.contentId, p.status]),
    [
      ['<response-item1:12930812@barnyard.example.com>', 200],
      [undefined, 200],
      ['response-item3', 200],
    ],
  );
});

test('an inner POST does not inherit the outer Content-Type (Content-* headers stay with the envelope)', async () => {
  const [p] = await batch(part('POST /store/v3/files?fields=id\r\n\r\n{"name":"x"}') + '--b--');
  assert.equal(p.status, 400);
  assert.equal(
    json(p).error.message,
    'The request body must be JSON with Content-Type application/json; got no Content-Type.',
  );
  const [ok] = await batch(
    part('POST /store/v3/files?fields=name\r\nContent-Type: application/json\r\n\r\n{"name":"made in batch"}') +
      '--b--',
  );
  assert.equal(ok.status, 200);
  assert.deepEqual(json(ok), { name: 'made in batch' });
});

test('an outer ?alt=media cannot turn parts into downloads; an export path with a trailing slash is refused too', async () => {
  const doc = await svc.api('POST', '/store/v3/files?fields=id', { body: { name: 'native', mimeType: DOC } });
  assert.equal(doc.status, 200, doc.text);
  const docId = doc.json().id as string;
  const parts = await batch(
    part(`GET /store/v3/files/${fileId}`) +
      part(`GET /store/v3/files/${docId}/export/?mimeType=text/plain`) +
      part(`GET /store/v3/files/${docId}//export?mimeType=text/plain`) +
      '--b--',
    { query: '?alt=media' },
  );
  const message = 'Media download is not supported in a batch request.';
  assert.equal(parts.length, 3);
  for (const p of parts) {
    assert.equal(p.status, 400);
    assert.deepEqual(json(p), errorOf(message));
  }
  // Without the outer alt=media the same metadata call works.
  const [meta] = await batch(part(`GET /store/v3/files/${fileId}?fields=id`) + '--b--');
  assert.deepEqual(json(meta), { id: fileId });
});

test('inner HEAD answers headers without a body; inner DELETE answers 204 No Content', async () => {
  const made = await svc.api('POST', '/store/v3/files?fields=id', { body: { name: 'to delete' } });
  const victim = made.json().id as string;
  const parts = await batch(
    part('HEAD /store/v3/about?fields=kind') + part(`DELETE /store/v3/files/${victim}`) + '--b--',
  );
  assert.equal(parts[0].status, 200);
  assert.equal(parts[0].statusText, 'OK');
  assert.equal(parts[0].headers['content-type'], 'application/json; charset=UTF-8');
  assert.equal(parts[0].body.length, 0);
  assert.equal(parts[1].status, 204);
  assert.equal(parts[1].statusText, 'No Content');
  assert.equal(parts[1].body.length, 0);
  assert.equal((await svc.api('GET', `/store/v3/files/${victim}`)).status, 404);
});

test("an inner JSON body over the endpoint's cap is a 413 for that part, as it would be on its own", async () => {
  const big = JSON.stringify({ name: 'x'.repeat(1024 * 1024) });
  const direct = await svc.api('POST', '/store/v3/files?fields=id', {
    headers: { 'Content-Type': 'application/json' },
    body: big,
  });
  assert.equal(direct.status, 413, direct.text);
  const parts = await batch(
    part(`POST /store/v3/files?fields=id\r\nContent-Type: application/json\r\n\r\n${big}`) +
      part('GET /store/v3/about?fields=kind') +
      '--b--',
  );
  assert.equal(parts[0].status, 413);
  assert.deepEqual(json(parts[0]), direct.json());
  assert.deepEqual(json(parts[1]), { kind: 'store#about' });
});

test("an inner JSON body of exactly the endpoint's cap is taken, as it is on its own", async () => {
  const json0 = JSON.stringify({ name: 'at the cap' });
  const atCap = json0 + ' '.repeat(1024 * 1024 - json0.length);
  const direct = await svc.api('POST', '/store/v3/files?fields=name', {
    headers: { 'Content-Type': 'application/json' },
    body: atCap,
  });
  assert.equal(direct.status, 200, direct.text);
  const parts = await batch(
    part(`POST /store/v3/files?fields=name\r\nContent-Type: application/json\r\n\r\n${atCap}`) + '--b--',
  );
  assert.equal(parts[0].status, 200);
  assert.deepEqual(json(parts[0]), { name: 'at the cap' });
});

test('targets that are not a path: full URLs of any scheme and relative targets get their own 400', async () => {
  const parts = await batch(
    part(`GET https://127.0.0.1/store/v3/files/${fileId}`) +
      part('GET ?fields=kind') +
      part('GET store/v3/about') +
      part('GET /store/v3/about?fields=kind') +
      '--b--',
  );
  assert.deepEqual(
    json(parts[0]),
    errorOf(`Batch requests take a URL path with query, not a full URL: "https://127.0.0.1/store/v3/files/${fileId}".`),
  );
  assert.deepEqual(
    json(parts[1]),
    errorOf('The inner request target must be a URL path starting with "/"; got "?fields=kind".'),
  );
  assert.deepEqual(
    json(parts[2]),
    errorOf('The inner request target must be a URL path starting with "/"; got "store/v3/about".'),
  );
  assert.deepEqual(json(parts[3]), { kind: 'store#about' });
});

test('inner routing errors stay inside their part: unknown path 404, bad percent-encoding 400, unknown method 405', async () => {
  const parts = await batch(
    part('GET /store/v3/nothing') + part('GET /store/v3/files/%zz') + part('FROB /store/v3/about') + '--b--',
  );
  assert.deepEqual(
    parts.map((p) => [p.status, json(p).error.message]),
    [
      [404, 'No API endpoint at /store/v3/nothing.'],
      [400, 'The path segment "%zz" is not valid percent-encoding.'],
      [405, 'Method FROB is not allowed on /store/v3/about; allowed: GET.'],
    ],
  );
  assert.equal(parts[2].headers.allow, 'GET');
});

test('quota counts each inner call: a rate-limit fault for two calls hits the first two parts of a three-part batch', async () => {
  const f = await svc.api('POST', '/__admin/faults', {
    token: null,
    body: { match: { pathPrefix: '/store/v3/about' }, action: { type: 'status', status: 403 }, times: 2 },
  });
  assert.equal(f.status, 200, f.text);
  const call = part('GET /store/v3/about?fields=kind');
  const parts = await batch(call + call + call + '--b--');
  assert.deepEqual(
    parts.map((p) => p.status),
    [403, 403, 200],
  );
  const message = 'User rate limit exceeded.';
  assert.deepEqual(json(parts[0]), {
    error: { code: 403, message, errors: [{ message, domain: 'usageLimits', reason: 'userRateLimitExceeded' }] },
  });
  assert.deepEqual((await svc.api('GET', '/__admin/faults', { token: null })).json(), { faults: [] });
});

test('a cut fault on an inner call has no connection of its own to drop: that part alone says its body was cut', async () => {
  const f = await svc.api('POST', '/__admin/faults', {
    token: null,
    body: { match: { method: 'POST', pathPrefix: '/store/v3/files' }, action: { type: 'cut', afterBytes: 3 } },
  });
  assert.equal(f.status, 200, f.text);
  const parts = await batch(
    part('POST /store/v3/files?fields=name\r\nContent-Type: application/json\r\n\r\n{"name":"never"}') +
      part('GET /store/v3/about?fields=kind') +
      '--b--',
  );
  assert.deepEqual(
    parts.map((p) => p.status),
    [400, 200],
  );
  assert.equal(json(parts[0]).error.message, 'The request body was cut off.');
});

test('one batch shares a file and reads files; the grantee then lists it through a batch of its own', async () => {
  const made = await svc.api('POST', '/store/v3/files?fields=id', {
    body: { name: 'shared-in-batch.txt', mimeType: 'text/plain' },
  });
  const id = made.json().id as string;
  const parts = await batch(
    part(
      `POST /store/v3/files/${id}/permissions?fields=id&sendNotificationEmail=false\r\nContent-Type: application/json\r\n\r\n{"role":"reader","type":"user","emailAddress":"bob@example.com"}`,
      'Content-ID: <perm>\r\n',
    ) +
      part(`GET /store/v3/files/${fileId}?fields=id,name`, 'Content-ID: <get>\r\n') +
      '--b--',
  );
  assert.equal(parts[0].status, 200);
  assert.deepEqual(Object.keys(json(parts[0])), ['id']);
  assert.deepEqual(json(parts[1]), { id: fileId, name: 'audit.txt' });

  const bob = await batch(
    part(`GET /store/v3/files?q=${encodeURIComponent("name = 'shared-in-batch.txt'")}&fields=files(id,name)`) + '--b--',
    { token: null, headers: { Authorization: `Bearer ${BOB}` } },
  );
  assert.deepEqual(json(bob[0]), { files: [{ id, name: 'shared-in-batch.txt' }] });
  const perms = await svc.api('GET', `/store/v3/files/${id}?fields=permissions(id,role,emailAddress)`);
  assert.deepEqual(perms.json().permissions[1], {
    id: json(parts[0]).id,
    role: 'reader',
    emailAddress: 'bob@example.com',
  });
});

test('a quoted boundary and extra Content-Type parameters are accepted; an outer gzip answer wraps uncompressed parts', async () => {
  const body = part('GET /store/v3/about?fields=kind') + '--b--';
  const quoted = await batch(body, { contentType: 'Multipart/Mixed; charset=UTF-8; boundary="b"' });
  assert.deepEqual(json(quoted[0]), { kind: 'store#about' });
  const z = await post(body, { headers: { 'Accept-Encoding': 'gzip', 'User-Agent': 'audit (gzip)' } });
  assert.equal(z.status, 200);
  assert.equal(z.headers['content-encoding'], 'gzip');
  const inner = parseBatchResponse(gunzipSync(z.body), multipartBoundary(z.headers['content-type'] as string, 'mixed'));
  assert.equal(inner[0].headers['content-encoding'], undefined);
  assert.deepEqual(json(inner[0]), { kind: 'store#about' });
});

test('envelopes of the wrong type or shape are an outer 400 saying what is wrong', async () => {
  const body = part('GET /store/v3/about') + '--b--';
  outerError(
    await post(body, { contentType: 'application/json' }),
    'Content-Type must be multipart/mixed with a boundary parameter; got "application/json".',
  );
  outerError(
    await post(body, { contentType: 'multipart/related; boundary=b' }),
    'Content-Type must be multipart/mixed with a boundary parameter; got "multipart/related; boundary=b".',
  );
  outerError(
    await post(body, { contentType: 'multipart/mixed; boundary=' }),
    'Missing boundary parameter in Content-Type "multipart/mixed; boundary=".',
  );
  outerError(await post('', {}), 'The body does not contain the opening boundary delimiter "--b".');
  outerError(
    await post('\u0000\u00ff garbage \r\n\r\n', {}),
    'The body does not contain the opening boundary delimiter "--b".',
  );
  outerError(await post('--b--\r\n'), 'The batch body has no parts.');
});

test('broken inner messages are an outer 400 naming the part; nothing runs', async () => {
  const create = part(
    'POST /store/v3/files?fields=id\r\nContent-Type: application/json\r\n\r\n{"name":"must-not-exist"}',
  );
  const cases: [string, string][] = [
    [
      'GET /store/v3/about HTTP/1.1 extra',
      'Batch part 2 has an invalid request line "GET /store/v3/about HTTP/1.1 extra"; expected "VERB path?query [HTTP/1.1]".',
    ],
    [
      'GET /store/v3/about HTTP/one',
      'Batch part 2 has an invalid request line "GET /store/v3/about HTTP/one"; expected "VERB path?query [HTTP/1.1]".',
    ],
    [
      'GET /store/v3/about\r\nnot a header',
      'Batch part 2 is not a valid HTTP message: header line "not a header" is not "Name: value".',
    ],
    [
      'POST /store/v3/files\r\nContent-Length: 99\r\n\r\n{}',
      'Batch part 2 is not a valid HTTP message: its body has 2 bytes, fewer than its Content-Length of 99.',
    ],
    [
      'POST /store/v3/files\r\nContent-Length: -1\r\n\r\n{}',
      'Batch part 2 is not a valid HTTP message: Content-Length "-1" is not a number.',
    ],
  ];
  for (const [message, expected] of cases) outerError(await post(create + part(message) + '--b--'), expected);
  const list = await svc.api(
    'GET',
    `/store/v3/files?q=${encodeURIComponent("name = 'must-not-exist'")}&fields=files(id)`,
  );
  assert.deepEqual(list.json(), { files: [] });
});

test('every method but POST on the batch path is 405 with Allow: POST; a preflight is answered', async () => {
  for (const method of ['GET', 'HEAD', 'PUT', 'PATCH', 'DELETE']) {
    const r = await svc.api(method, '/batch/store/v3');
    assert.equal(r.status, 405, method);
    assert.equal(r.headers.allow, 'POST', method);
    if (method !== 'HEAD')
      assert.equal(r.json().error.message, `Method ${method} is not allowed on /batch/store/v3; allowed: POST.`);
  }
  const pre = await svc.api('OPTIONS', '/batch/store/v3', {
    token: null,
    headers: {
      Origin: 'https://app.example',
      'Access-Control-Request-Method': 'POST',
      'Access-Control-Request-Headers': 'authorization, content-type',
    },
  });
  assert.equal(pre.status, 204);
  assert.equal(pre.headers['access-control-allow-origin'], 'https://app.example');
});

test('bad UTF-8 in an inner JSON body is a 400 for that part, not a file named with U+FFFD', async () => {
  const bytes = Buffer.concat([
    Buffer.from(
      '--b\r\nContent-Type: application/http\r\n\r\nPOST /store/v3/files?fields=name\r\nContent-Type: application/json\r\n\r\n{"name":"',
    ),
    Buffer.from([0xff, 0xfe]),
    Buffer.from('"}\r\n--b--'),
  ]);
  const r = await svc.api('POST', '/batch/store/v3', {
    headers: { 'Content-Type': 'multipart/mixed; boundary=b' },
    body: bytes,
  });
  const [p] = parseBatchResponse(r.body, multipartBoundary(r.headers['content-type'] as string, 'mixed'));
  assert.equal(p.status, 400);
});

test('a part whose path only resembles an export is routed like any other: a 404, not the download refusal', async () => {
  const parts = await batch(
    part(`GET /store/v3/files/${fileId}/export/more?mimeType=text/plain`) +
      part(`GET /store/v3/changes/${fileId}/export?mimeType=text/plain`) +
      '--b--',
  );
  assert.deepEqual(
    parts.map((p) => [p.status, json(p).error?.errors?.[0]?.reason]),
    [
      [404, 'notFound'],
      [404, 'notFound'],
    ],
  );
});

test('a target in capitals or starting with // is a full URL; /batch itself is a nested batch; /store/v3 itself is routed', async () => {
  const parts = await batch(
    part('GET HTTPS://127.0.0.1/store/v3/about') +
      part('GET //127.0.0.1/store/v3/about') +
      part('GET /batch') +
      part('GET /store/v3') +
      '--b--',
  );
  assert.deepEqual(
    json(parts[0]),
    errorOf('Batch requests take a URL path with query, not a full URL: "HTTPS://127.0.0.1/store/v3/about".'),
  );
  assert.deepEqual(
    json(parts[1]),
    errorOf('Batch requests take a URL path with query, not a full URL: "//127.0.0.1/store/v3/about".'),
  );
  assert.deepEqual(json(parts[2]), errorOf('A batch request cannot contain another batch request.'));
  assert.equal(parts[3]?.status, 404);
  assert.equal(json(parts[3]).error.message, 'No API endpoint at /store/v3.');
});
