// The HTTP messages inside batch parts, read the way the part headers around them are: a header name is read
// without the white space a client may leave before its colon (as `MultipartReader` reads a part's own headers).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseBatchRequest, parseBatchResponse } from '../../src/protocol/batch-codec.ts';
import { MultipartReader } from '../../src/protocol/multipart.ts';

const enc = new TextEncoder();
const dec = new TextDecoder();

test('an inner header with white space before its colon is read under its name, its Content-Length honoured', () => {
  const body =
    '--b\r\n\r\nPOST /a HTTP/1.1\r\nContent-Type : application/json\r\nContent-Length\t: 2\r\n\r\n{}xx\r\n--b--';
  const [request] = parseBatchRequest(enc.encode(body), 'b');
  assert.deepEqual(request!.headers, { 'content-type': 'application/json', 'content-length': '2' });
  assert.equal(dec.decode(request!.body), '{}', 'the body is cut to the declared length');

  const answer = '--b\r\nContent-ID: <response-1>\r\n\r\nHTTP/1.1 200 OK\r\nETag  : "x"\r\n\r\n--b--';
  const [response] = parseBatchResponse(enc.encode(answer), 'b');
  assert.deepEqual(response!.headers, { etag: '"x"' });
});

test('the part headers and the inner message read a name before white space and a colon alike', () => {
  const reader = new MultipartReader('b');
  const events = [
    ...reader.push(enc.encode('--b\r\nContent-ID : <1>\r\n\r\nGET /a\r\nX-Tag : one\r\n\r\n--b--')),
    ...reader.end(),
  ];
  const part = events.find((e) => e.type === 'part');
  assert.deepEqual(part && part.type === 'part' && part.headers, { 'content-id': '<1>' });
  const [request] = parseBatchRequest(
    enc.encode('--b\r\nContent-ID : <1>\r\n\r\nGET /a\r\nX-Tag : one\r\n\r\n--b--'),
    'b',
  );
  assert.equal(request!.contentId, '<1>');
  assert.deepEqual(request!.headers, { 'x-tag': 'one' });
});
