import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  encodeBatchRequest,
  parseBatchRequest,
  encodeBatchResponse,
  parseBatchResponse,
  batchResponsesById,
  responseContentId,
  reasonPhrase,
} from '../../src/protocol/batch-codec.ts';
import { MultipartError } from '../../src/protocol/multipart.ts';

const enc = new TextEncoder();
const dec = new TextDecoder();

function errorOf(fn: () => unknown): MultipartError {
  try {
    fn();
  } catch (err) {
    assert.ok(err instanceof MultipartError, `expected MultipartError, got ${String(err)}`);
    return err;
  }
  assert.fail('expected a MultipartError');
}

test('encodeBatchRequest writes exact parts: part headers, request line, headers, body, closing delimiter', () => {
  const out = encodeBatchRequest(
    [
      {
        method: 'POST',
        path: '/store/v3/files/f1/permissions?fields=id',
        headers: { 'Content-Type': 'application/json; charset=UTF-8' },
        body: '{"role":"reader"}',
        contentId: 'item1',
      },
      {
        method: 'GET',
        path: '/store/v3/files/f2?fields=id',
        headers: { Authorization: 'Bearer t' },
        contentId: '<x@y>',
      },
      { method: 'DELETE', path: '/store/v3/files/f3' },
    ],
    'batch_B',
  );
  assert.equal(out.contentType, 'multipart/mixed; boundary=batch_B');
  assert.equal(
    dec.decode(out.body),
    '--batch_B\r\nContent-Type: application/http\r\nContent-ID: <item1>\r\n\r\n' +
      'POST /store/v3/files/f1/permissions?fields=id HTTP/1.1\r\nContent-Type: application/json; charset=UTF-8\r\nContent-Length: 17\r\n\r\n{"role":"reader"}\r\n' +
      '--batch_B\r\nContent-Type: application/http\r\nContent-ID: <x@y>\r\n\r\n' +
      'GET /store/v3/files/f2?fields=id HTTP/1.1\r\nAuthorization: Bearer t\r\n\r\n\r\n' +
      '--batch_B\r\nContent-Type: application/http\r\n\r\n' +
      'DELETE /store/v3/files/f3 HTTP/1.1\r\n\r\n\r\n' +
      '--batch_B--\r\n',
  );
});

test('encodeBatchRequest uses a fresh batch_ boundary and rejects header injection', () => {
  const a = encodeBatchRequest([{ method: 'GET', path: '/a' }]);
  assert.match(a.boundary, /^batch_[0-9a-f]{32}$/);
  assert.notEqual(a.boundary, encodeBatchRequest([{ method: 'GET', path: '/a' }]).boundary);
  assert.throws(() => encodeBatchRequest([{ method: 'GET', path: '/a b' }]), TypeError);
  assert.throws(() => encodeBatchRequest([{ method: 'G T', path: '/a' }]), TypeError);
  assert.throws(() => encodeBatchRequest([{ method: 'GET', path: '/a', headers: { X: 'a\r\nY: b' } }]), TypeError);
});

test('encodeBatchRequest keeps a Content-Length the caller gave, in any case, and adds none beside it', () => {
  const out = encodeBatchRequest([{ method: 'PUT', path: '/a', headers: { 'content-length': '3' }, body: 'abc' }], 'b');
  const text = dec.decode(out.body);
  assert.equal(text.match(/^content-length:/gim)?.length, 1, text);
  assert.match(text, /^content-length: 3\r$/m);
});

test('parseBatchRequest reads what encodeBatchRequest wrote', () => {
  const out = encodeBatchRequest(
    [
      {
        method: 'POST',
        path: '/store/v3/files/f1/permissions?fields=id',
        headers: { 'Content-Type': 'application/json' },
        body: '{"a":1}',
        contentId: 'item1',
      },
      { method: 'GET', path: '/store/v3/files/f2' },
    ],
    'batch_B',
  );
  const parts = parseBatchRequest(out.body, 'batch_B');
  assert.equal(parts.length, 2);
  assert.deepEqual(
    parts.map((p) => ({ ...p, body: dec.decode(p.body) })),
    [
      {
        method: 'POST',
        target: '/store/v3/files/f1/permissions?fields=id',
        httpVersion: 'HTTP/1.1',
        headers: { 'content-type': 'application/json', 'content-length': '7' },
        body: '{"a":1}',
        contentId: '<item1>',
      },
      {
        method: 'GET',
        target: '/store/v3/files/f2',
        httpVersion: 'HTTP/1.1',
        headers: {},
        body: '',
        contentId: undefined,
      },
    ],
  );
});

test('parseBatchRequest tolerates LF-only, no HTTP version, bare Content-ID, transfer-encoding, blank lines, extra body CRLF', () => {
  const body =
    '\n--zz\ncontent-type: application/http\ncontent-id: plain-id\ncontent-transfer-encoding: binary\n\n' +
    'get /store/v3/about\n\n\n' +
    '--zz\nContent-Type: application/http\n\n\n' +
    'PATCH /store/v3/files/x?fields=id HTTP/1.1\nContent-Type: application/json\n\n{"name":"n"}\n\n' +
    '--zz--';
  const parts = parseBatchRequest(enc.encode(body), 'zz');
  assert.equal(parts.length, 2);
  assert.equal(parts[0].method, 'GET');
  assert.equal(parts[0].target, '/store/v3/about');
  assert.equal(parts[0].httpVersion, undefined);
  assert.equal(parts[0].contentId, 'plain-id');
  assert.equal(parts[0].body.length, 0);
  assert.equal(parts[1].method, 'PATCH');
  assert.equal(dec.decode(parts[1].body), '{"name":"n"}\n');
});

test('parseBatchRequest keeps a full URL target for the service to reject per part', () => {
  const parts = parseBatchRequest(
    enc.encode(
      '--b\r\nContent-Type: application/http\r\n\r\nGET https://example.com/store/v3/about HTTP/1.1\r\n\r\n\r\n--b--',
    ),
    'b',
  );
  assert.equal(parts[0].target, 'https://example.com/store/v3/about');
});

test('parseBatchRequest errors: no parts, missing delimiters, wrong part type, bad request line, short body', () => {
  const none = errorOf(() => parseBatchRequest(enc.encode('--b--\r\n'), 'b'));
  assert.equal(none.code, 'tooFewParts');
  assert.equal(none.message, 'The batch body has no parts.');

  assert.equal(errorOf(() => parseBatchRequest(enc.encode('hello'), 'b')).code, 'missingOpeningDelimiter');
  assert.equal(
    errorOf(() => parseBatchRequest(enc.encode('--b\r\nContent-Type: application/http\r\n\r\nGET /a\r\n'), 'b')).code,
    'missingClosingDelimiter',
  );

  const wrongType = errorOf(() =>
    parseBatchRequest(enc.encode('--b\r\nContent-Type: text/plain\r\n\r\nGET /a\r\n--b--'), 'b'),
  );
  assert.equal(wrongType.code, 'malformedHttpMessage');
  assert.equal(wrongType.message, 'Batch part 1 has Content-Type "text/plain"; every part must be application/http.');

  const badLine = errorOf(() =>
    parseBatchRequest(
      enc.encode(
        '--b\r\nContent-Type: application/http\r\n\r\nGET /a\r\n--b\r\nContent-Type: application/http\r\n\r\nGET\r\n--b--',
      ),
      'b',
    ),
  );
  assert.equal(
    badLine.message,
    'Batch part 2 has an invalid request line "GET"; expected "VERB path?query [HTTP/1.1]".',
  );
  assert.equal(
    errorOf(() => parseBatchRequest(enc.encode('--b\r\n\r\nGET /a SPDY/9\r\n--b--'), 'b')).message,
    'Batch part 1 has an invalid request line "GET /a SPDY/9"; expected "VERB path?query [HTTP/1.1]".',
  );

  const short = errorOf(() =>
    parseBatchRequest(enc.encode('--b\r\n\r\nPOST /a\r\nContent-Length: 10\r\n\r\n{}\r\n--b--'), 'b'),
  );
  assert.equal(
    short.message,
    'Batch part 1 is not a valid HTTP message: its body has 2 bytes, fewer than its Content-Length of 10.',
  );

  const badHeader = errorOf(() =>
    parseBatchRequest(enc.encode('--b\r\n\r\nPOST /a\r\nnot a header\r\n\r\n--b--'), 'b'),
  );
  assert.equal(
    badHeader.message,
    'Batch part 1 is not a valid HTTP message: header line "not a header" is not "Name: value".',
  );

  const empty = errorOf(() => parseBatchRequest(enc.encode('--b\r\n\r\n\r\n--b--'), 'b'));
  assert.equal(empty.message, 'Batch part 1 is not a valid HTTP message: it is empty.');
});

test('encodeBatchResponse writes exact parts: response- Content-IDs, status lines with reasons, Content-Length', () => {
  const out = encodeBatchResponse(
    [
      {
        status: 200,
        headers: { 'Content-Type': 'application/json; charset=UTF-8', 'content-length': '999' },
        body: '{"id":"p1"}',
        contentId: '<item1>',
      },
      { status: 204, headers: {}, contentId: 'bare' },
      { status: 308, headers: { Range: 'bytes=0-9' } },
      { status: 403, statusText: 'Nope', headers: {}, body: 'x', contentId: '<a>' },
    ],
    'batch_R',
  );
  assert.equal(out.contentType, 'multipart/mixed; boundary=batch_R');
  assert.equal(
    dec.decode(out.body),
    '--batch_R\r\nContent-Type: application/http\r\nContent-ID: <response-item1>\r\n\r\n' +
      'HTTP/1.1 200 OK\r\nContent-Type: application/json; charset=UTF-8\r\nContent-Length: 11\r\n\r\n{"id":"p1"}\r\n' +
      '--batch_R\r\nContent-Type: application/http\r\nContent-ID: response-bare\r\n\r\n' +
      'HTTP/1.1 204 No Content\r\nContent-Length: 0\r\n\r\n\r\n' +
      '--batch_R\r\nContent-Type: application/http\r\n\r\n' +
      'HTTP/1.1 308 Resume Incomplete\r\nRange: bytes=0-9\r\nContent-Length: 0\r\n\r\n\r\n' +
      '--batch_R\r\nContent-Type: application/http\r\nContent-ID: <response-a>\r\n\r\n' +
      'HTTP/1.1 403 Nope\r\nContent-Length: 1\r\n\r\nx\r\n' +
      '--batch_R--\r\n',
  );
});

test('parseBatchResponse reads responses in order and maps them by the request Content-ID', () => {
  const out = encodeBatchResponse([
    { status: 200, headers: { 'Content-Type': 'application/json' }, body: '{"id":"p1"}', contentId: '<item1>' },
    { status: 404, headers: {}, body: 'nf', contentId: '<item2>' },
    { status: 204, headers: {} },
  ]);
  const parts = parseBatchResponse(out.body, out.boundary);
  assert.deepEqual(
    parts.map((p) => [
      p.status,
      p.statusText,
      p.contentId,
      p.requestContentId,
      dec.decode(p.body),
      p.headers['content-length'],
    ]),
    [
      [200, 'OK', '<response-item1>', 'item1', '{"id":"p1"}', '11'],
      [404, 'Not Found', '<response-item2>', 'item2', 'nf', '2'],
      [204, 'No Content', undefined, undefined, '', '0'],
    ],
  );
  const byId = batchResponsesById(parts);
  assert.deepEqual([...byId.keys()], ['item1', 'item2']);
  assert.equal(byId.get('item2')!.status, 404);
});

test('parseBatchResponse tolerates a reason-less status line and rejects a bad one', () => {
  const ok = parseBatchResponse(enc.encode('--r\nContent-Type: application/http\n\nHTTP/1.1 201\n\n--r--'), 'r');
  assert.equal(ok[0].status, 201);
  assert.equal(ok[0].statusText, '');
  const bad = errorOf(() => parseBatchResponse(enc.encode('--r\r\n\r\nHTTP/1.1 OK\r\n\r\n--r--'), 'r'));
  assert.equal(bad.code, 'malformedHttpMessage');
  assert.equal(
    bad.message,
    'Batch part 1 has an invalid status line "HTTP/1.1 OK"; expected "HTTP/1.1 <code> <reason>".',
  );
});

test('responseContentId keeps the brackets when the request had them', () => {
  assert.equal(responseContentId('<item1>'), '<response-item1>');
  assert.equal(responseContentId('item1'), 'response-item1');
});

test('reasonPhrase covers the statuses the service sends', () => {
  assert.deepEqual([200, 201, 204, 308, 400, 401, 403, 404, 409, 499, 500, 503].map(reasonPhrase), [
    'OK',
    'Created',
    'No Content',
    'Resume Incomplete',
    'Bad Request',
    'Unauthorized',
    'Forbidden',
    'Not Found',
    'Conflict',
    'Client Closed Request',
    'Internal Server Error',
    'Service Unavailable',
  ]);
  assert.equal(reasonPhrase(418), 'Client Error');
  // The upload and body-limit answers a batch can carry inside it.
  assert.deepEqual([411, 412, 413, 415, 416, 429, 431].map(reasonPhrase), [
    'Length Required',
    'Precondition Failed',
    'Payload Too Large',
    'Unsupported Media Type',
    'Range Not Satisfiable',
    'Too Many Requests',
    'Request Header Fields Too Large',
  ]);
});
