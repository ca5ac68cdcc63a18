/** `POST /batch/store/v3` against the real service: wire format, inheritance, limits, bad parts, bad envelopes. */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  encodeBatchRequest,
  parseBatchResponse,
  type BatchRequestInit,
  type ParsedBatchResponse,
} from '../../src/protocol/batch-codec.ts';
import { multipartBoundary } from '../../src/protocol/multipart.ts';
import { startService, type ApiResult, type ServiceHandle } from './helpers/service.ts';

const ALICE = 'dev-token-alice';
const BOB = 'dev-token-bob';

let svc: ServiceHandle;
let fileId: string; // alice's private file "batch.txt"
before(async () => {
  svc = await startService();
  const r = await svc.api('POST', '/store/v3/files?fields=id', {
    token: ALICE,
    body: { name: 'batch.txt', mimeType: 'text/plain' },
  });
  assert.equal(r.status, 200, r.text);
  fileId = r.json().id;
});
after(() => svc.stop());

/** Sends a raw batch body. */
function postBatch(
  body: string | Uint8Array,
  contentType: string | undefined,
  token: string | null = ALICE,
  query = '',
): Promise<ApiResult> {
  const headers: Record<string, string> = {};
  if (contentType !== undefined) headers['Content-Type'] = contentType;
  return svc.api('POST', `/batch/store/v3${query}`, { token, headers, body });
}

/** Encodes, sends and decodes a batch; checks the outer envelope. */
async function batch(
  requests: BatchRequestInit[],
  token: string | null = ALICE,
  query = '',
): Promise<ParsedBatchResponse[]> {
  const enc = encodeBatchRequest(requests);
  const r = await postBatch(enc.body, enc.contentType, token, query);
  assert.equal(r.status, 200, r.text);
  const boundary = multipartBoundary(r.headers['content-type'] as string, 'mixed');
  assert.match(boundary, /^batch_[0-9a-f]{32}$/);
  return parseBatchResponse(r.body, boundary);
}

function json(part: ParsedBatchResponse): any {
  return JSON.parse(Buffer.from(part.body).toString('utf8'));
}

test('exact wire format: one part per call in request order, response- Content-IDs, status lines, bodies', async () => {
  const body =
    '--xyz\r\nContent-Type: application/http\r\nContent-ID: <a1>\r\n\r\n' +
    `GET /store/v3/files/${fileId}?fields=id,name HTTP/1.1\r\n\r\n\r\n` +
    '--xyz\r\nContent-Type: application/http\r\nContent-ID: plain\r\nContent-Transfer-Encoding: binary\r\n\r\n' +
    `POST /store/v3/files/${fileId}/permissions?fields=role\r\nContent-Type: application/json\r\n\r\n{"type":"user","role":"reader","emailAddress":"bob@example.com"}\r\n` +
    '--xyz\r\nContent-Type: application/http\r\n\r\n' +
    'GET /store/v3/files/missing-id?fields=id HTTP/1.1\r\n\r\n\r\n' +
    '--xyz--\r\n';
  const r = await postBatch(body, 'multipart/mixed; boundary=xyz');
  assert.equal(r.status, 200, r.text);
  const contentType = r.headers['content-type'] as string;
  const m = /^multipart\/mixed; boundary=(batch_[0-9a-f]{32})$/.exec(contentType);
  assert.ok(m, contentType);
  const b = m[1];
  const notFound = JSON.stringify({
    error: {
      code: 404,
      message: 'File not found: missing-id.',
      errors: [
        {
          message: 'File not found: missing-id.',
          domain: 'global',
          reason: 'notFound',
          location: 'fileId',
          locationType: 'parameter',
        },
      ],
    },
  });
  const first = JSON.stringify({ id: fileId, name: 'batch.txt' });
  const second = JSON.stringify({ role: 'reader' });
  assert.equal(
    r.text,
    `--${b}\r\nContent-Type: application/http\r\nContent-ID: <response-a1>\r\n\r\n` +
      `HTTP/1.1 200 OK\r\nContent-Type: application/json; charset=UTF-8\r\nContent-Length: ${first.length}\r\n\r\n${first}\r\n` +
      `--${b}\r\nContent-Type: application/http\r\nContent-ID: response-plain\r\n\r\n` +
      `HTTP/1.1 200 OK\r\nContent-Type: application/json; charset=UTF-8\r\nContent-Length: ${second.length}\r\n\r\n${second}\r\n` +
      `--${b}\r\nContent-Type: application/http\r\n\r\n` +
      `HTTP/1.1 404 Not Found\r\nContent-Type: application/json; charset=UTF-8\r\nContent-Length: ${notFound.length}\r\n\r\n${notFound}\r\n` +
      `--${b}--\r\n`,
  );
  // The in-batch grant is real: Bob now sees the file.
  const bob = await svc.api('GET', `/store/v3/files/${fileId}?fields=id`, { token: BOB });
  assert.equal(bob.status, 200);
  const revoke = await batch([
    { method: 'GET', path: `/store/v3/files/${fileId}/permissions?fields=permissions(id,role)` },
  ]);
  const readerId = json(revoke[0]).permissions.find((p: { role: string }) => p.role === 'reader').id;
  const del = await svc.api('DELETE', `/store/v3/files/${fileId}/permissions/${readerId}`, { token: ALICE });
  assert.equal(del.status, 204);
});

test('per-part Authorization overrides the outer one; without any, the part gets 401', async () => {
  const path = `/store/v3/files/${fileId}?fields=id`;
  const parts = await batch([
    { method: 'GET', path, contentId: 'outer' },
    { method: 'GET', path, contentId: 'bob', headers: { Authorization: `Bearer ${BOB}` } },
    { method: 'GET', path, contentId: 'bad', headers: { Authorization: 'Bearer nope' } },
  ]);
  assert.deepEqual(
    parts.map((p) => [p.requestContentId, p.status]),
    [
      ['outer', 200],
      ['bob', 404],
      ['bad', 401],
    ],
  );
  assert.equal(json(parts[2]).error.errors[0].reason, 'authError');

  const anon = await batch(
    [
      { method: 'GET', path, contentId: 'none' },
      { method: 'GET', path, contentId: 'alice', headers: { Authorization: `Bearer ${ALICE}` } },
    ],
    null,
  );
  assert.deepEqual(
    anon.map((p) => [p.requestContentId, p.status]),
    [
      ['none', 401],
      ['alice', 200],
    ],
  );
  assert.equal(json(anon[0]).error.message, 'Login Required.');
});

test('outer query parameters apply to every part; inner ones win', async () => {
  const parts = await batch(
    [
      { method: 'GET', path: `/store/v3/files/${fileId}` },
      { method: 'GET', path: `/store/v3/files/${fileId}?fields=name` },
    ],
    ALICE,
    '?fields=id',
  );
  assert.deepEqual(json(parts[0]), { id: fileId });
  assert.deepEqual(json(parts[1]), { name: 'batch.txt' });
});

test('calls past the 100th are answered in the batch with 403 forbidden', async () => {
  const requests = Array.from({ length: 101 }, (_, i) => ({
    method: 'GET',
    path: `/store/v3/files/${fileId}?fields=id`,
    contentId: `c${i + 1}`,
  }));
  const parts = await batch(requests);
  assert.equal(parts.length, 101);
  assert.deepEqual(
    parts.map((p) => p.requestContentId),
    requests.map((r) => r.contentId),
  );
  assert.ok(parts.slice(0, 100).every((p) => p.status === 200 && json(p).id === fileId));
  const last = parts[100];
  assert.equal(last.status, 403);
  assert.equal(last.statusText, 'Forbidden');
  const message = 'Exceeds allowed inner batch requests soft limit. Please retry.';
  assert.deepEqual(json(last), {
    error: { code: 403, message, errors: [{ message, domain: 'global', reason: 'forbidden' }] },
  });
});

test('each forbidden kind of part gets its own 400; the other parts still run', async () => {
  const long = `/store/v3/files/${fileId}?fields=id&pad=${'x'.repeat(8000)}`;
  const parts = await batch([
    {
      method: 'POST',
      path: '/upload/store/v3/files?uploadType=media',
      headers: { 'Content-Type': 'text/plain' },
      body: 'x',
    },
    { method: 'GET', path: `/store/v3/files/${fileId}?alt=media` },
    { method: 'GET', path: `/store/v3/files/${fileId}/export?mimeType=text/plain` },
    { method: 'POST', path: '/batch/store/v3' },
    { method: 'GET', path: '/other/v1/things' },
    { method: 'GET', path: `http://127.0.0.1/store/v3/files/${fileId}` },
    { method: 'GET', path: long },
    { method: 'GET', path: `/store/v3/files/${fileId}?fields=id` },
  ]);
  const messages = [
    'Media upload is not supported in a batch request.',
    'Media download is not supported in a batch request.',
    'Media download is not supported in a batch request.',
    'A batch request cannot contain another batch request.',
    'Every request in this batch must target the /store/v3 API; got the path "/other/v1/things".',
    `Batch requests take a URL path with query, not a full URL: "http://127.0.0.1/store/v3/files/${fileId}".`,
    `The inner request URL is ${long.length} characters long; the limit in a batch is 8000.`,
  ];
  assert.equal(parts.length, 8);
  messages.forEach((message, i) => {
    assert.equal(parts[i].status, 400, `part ${i + 1}`);
    assert.deepEqual(json(parts[i]), {
      error: { code: 400, message, errors: [{ message, domain: 'global', reason: 'badRequest' }] },
    });
  });
  assert.equal(parts[7].status, 200);
  assert.deepEqual(json(parts[7]), { id: fileId });
});

test('a URL of exactly 8000 characters is accepted', async () => {
  const base = `/store/v3/files/${fileId}?fields=id&pad=`;
  const path = base + 'x'.repeat(8000 - base.length);
  assert.equal(path.length, 8000);
  const [part] = await batch([{ method: 'GET', path }]);
  assert.equal(part.status, 200);
});

test('malformed envelopes are an outer 400 with a message', async () => {
  const cases: [string | undefined, string, string][] = [
    [
      undefined,
      '--b\r\n\r\nGET /store/v3/about\r\n--b--',
      'Content-Type must be multipart/mixed with a boundary parameter; got none.',
    ],
    [
      'multipart/mixed',
      '--b\r\n\r\nGET /store/v3/about\r\n--b--',
      'Missing boundary parameter in Content-Type "multipart/mixed".',
    ],
    [
      'multipart/mixed; boundary=b',
      'no delimiter at all',
      'The body does not contain the opening boundary delimiter "--b".',
    ],
    [
      'multipart/mixed; boundary=b',
      '--b\r\n\r\nGET /store/v3/about\r\n',
      'Missing closing boundary delimiter "--b--" after part 1.',
    ],
    ['multipart/mixed; boundary=b', '--b--', 'The batch body has no parts.'],
    [
      'multipart/mixed; boundary=b',
      '--b\r\n\r\nnot-a-request-line\r\n--b--',
      'Batch part 1 has an invalid request line "not-a-request-line"; expected "VERB path?query [HTTP/1.1]".',
    ],
    [
      'multipart/mixed; boundary=b',
      '--b\r\nContent-Type: text/plain\r\n\r\nGET /x\r\n--b--',
      'Batch part 1 has Content-Type "text/plain"; every part must be application/http.',
    ],
  ];
  for (const [type, body, message] of cases) {
    const r = await postBatch(body, type);
    assert.equal(r.status, 400, `${type} ${body}`);
    assert.equal(r.headers['content-type'], 'application/json; charset=UTF-8');
    assert.deepEqual(r.json(), {
      error: { code: 400, message, errors: [{ message, domain: 'global', reason: 'badRequest' }] },
    });
  }
  const get = await svc.api('GET', '/batch/store/v3', { token: ALICE });
  assert.equal(get.status, 405);
});
