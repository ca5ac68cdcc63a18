/**
 * Edges of the wire codecs that the round-trip suites pass over: runs of white space in a request line, bodies given
 * as bytes, Content-IDs without the `response-` prefix, blank-line bodies, the metadata size cap, and parameter
 * parsing that must start after the media type. Each check here failed once against a planted mutant of the line
 * it names (mutation survivors of issue 39).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  encodeBatchRequest,
  encodeBatchResponse,
  parseBatchRequest,
  parseBatchResponse,
} from '../../src/protocol/batch-codec.ts';
import { multipartBoundary, parseContentType } from '../../src/protocol/multipart-content-type.ts';
import { parseHttpMessage } from '../../src/protocol/multipart-http-message.ts';
import { MultipartError, parseMultipartRelated } from '../../src/protocol/multipart.ts';

const enc = new TextEncoder();
const dec = new TextDecoder();

test('a batch request line may separate its words by runs of white space', () => {
  const body = '--b\r\nContent-Type: application/http\r\n\r\nGET   /store/v3/about \t HTTP/1.1\r\n\r\n\r\n--b--\r\n';
  const [part] = parseBatchRequest(enc.encode(body), 'b');
  assert.equal(part.method, 'GET');
  assert.equal(part.target, '/store/v3/about');
  assert.equal(part.httpVersion, 'HTTP/1.1');
});

test('a batch body given as bytes is written as those bytes, not as their decimal text', () => {
  const bytes = Uint8Array.of(0, 1, 2, 250, 255);
  const request = encodeBatchRequest([{ method: 'PUT', path: '/a', body: bytes }], 'b');
  const [inner] = parseBatchRequest(request.body, 'b');
  assert.deepEqual([...inner.body], [...bytes]);
  assert.equal(inner.headers['content-length'], '5');
  const response = encodeBatchResponse([{ status: 200, headers: {}, body: bytes }], 'b');
  const [answer] = parseBatchResponse(response.body, 'b');
  assert.deepEqual([...answer.body], [...bytes]);
});

test('a response Content-ID without the response- prefix is its request id unchanged', () => {
  const body =
    '--b\r\nContent-Type: application/http\r\nContent-ID: <item7>\r\n\r\nHTTP/1.1 204 No Content\r\n\r\n\r\n' +
    '--b\r\nContent-Type: application/http\r\nContent-ID: <response-item8>\r\n\r\nHTTP/1.1 204 No Content\r\n\r\n\r\n' +
    '--b--\r\n';
  const parts = parseBatchResponse(enc.encode(body), 'b');
  assert.deepEqual(
    parts.map((p) => p.requestContentId),
    ['item7', 'item8'],
  );
});

test('a batch answer’s status line is read without the white space around it', () => {
  const body =
    '--b\r\nContent-Type: application/http\r\nContent-ID: <response-x>\r\n\r\nHTTP/1.1 204 No Content  \r\n\r\n\r\n' +
    '--b--\r\n';
  const [part] = parseBatchResponse(enc.encode(body), 'b');
  assert.equal(part?.status, 204);
  assert.equal(part?.statusText, 'No Content');
});

test('a contentId with a line break is refused, saying so', () => {
  assert.throws(() => encodeBatchRequest([{ method: 'GET', path: '/a', contentId: 'a\nb' }], 'b'), {
    name: 'TypeError',
    message: 'contentId must not contain line breaks',
  });
});

test('an inner message without Content-Length whose body is only line breaks has an empty body', () => {
  const msg = parseHttpMessage(enc.encode('GET /a HTTP/1.1\r\nX-A: 1\r\n\r\n\r\n\n'), 1);
  assert.equal(msg.body.length, 0);
  const kept = parseHttpMessage(enc.encode('POST /a HTTP/1.1\r\n\r\n\r\nx\r\n'), 1);
  assert.equal(dec.decode(kept.body), '\r\nx\r\n');
});

test('a broken inner message is a MultipartError with code malformedHttpMessage', () => {
  assert.throws(
    () => parseHttpMessage(enc.encode('GET /a\r\nno colon here\r\n\r\n'), 3),
    (err: unknown) => {
      assert.ok(err instanceof MultipartError);
      assert.equal(err.code, 'malformedHttpMessage');
      assert.match(err.message, /^Batch part 3 is not a valid HTTP message: header line "no colon here"/);
      return true;
    },
  );
});

test('metadata over maxMetadataBytes is refused as metadataTooLarge before it is parsed', async () => {
  const meta = JSON.stringify({ name: 'x'.repeat(100) });
  const body = `--b\r\nContent-Type: application/json\r\n\r\n${meta}\r\n--b\r\nContent-Type: text/plain\r\n\r\nhi\r\n--b--\r\n`;
  async function* once(): AsyncGenerator<Uint8Array> {
    yield enc.encode(body);
  }
  await assert.rejects(parseMultipartRelated(once(), 'b', { maxMetadataBytes: 50 }), (err: unknown) => {
    assert.ok(err instanceof MultipartError);
    assert.equal(err.code, 'metadataTooLarge');
    assert.equal(err.message, 'The metadata part exceeds 50 bytes.');
    return true;
  });
  const fits = await parseMultipartRelated(once(), 'b', { maxMetadataBytes: meta.length });
  assert.deepEqual(fits.metadata, { name: 'x'.repeat(100) });
});

test('Content-Type parameters are read after the media type, never from inside it', () => {
  assert.deepEqual(parseContentType('ab=c/d; boundary=x'), { type: 'ab=c/d', params: { boundary: 'x' } });
  assert.deepEqual(parseContentType('ab=c/d'), { type: 'ab=c/d', params: {} });
});

test('a Content-Type parameter without a value is skipped, at the end as in the middle', () => {
  assert.deepEqual(parseContentType('multipart/related; boundary=abc; flag'), {
    type: 'multipart/related',
    params: { boundary: 'abc' },
  });
  assert.deepEqual(parseContentType('multipart/related; flag; boundary="a;b"; other'), {
    type: 'multipart/related',
    params: { boundary: 'a;b' },
  });
});

test('a Content-Type parameter value may follow white space after its =, quoted or not', () => {
  assert.deepEqual(parseContentType('multipart/related; boundary= "a b";  type =\tapplication/json'), {
    type: 'multipart/related',
    params: { boundary: 'a b', type: 'application/json' },
  });
  // An escaped quote does not close the value; the header's end does.
  assert.deepEqual(parseContentType('text/plain;\tcharset="x\\"'), { type: 'text/plain', params: { charset: 'x"' } });
  assert.deepEqual(
    parseContentType('text/plain; a="b\\'),
    { type: 'text/plain', params: { a: 'b\\' } },
    'a last backslash',
  );
  assert.deepEqual(parseContentType('text/plain; a="unterminated'), {
    type: 'text/plain',
    params: { a: 'unterminated' },
  });
  assert.deepEqual(parseContentType('text/plain; a=\t"x y"'), { type: 'text/plain', params: { a: 'x y' } }, 'a tab');
  assert.deepEqual(parseContentType('text/plain; =x; b=1'), { type: 'text/plain', params: { b: '1' } }, 'no name');
  assert.equal(parseContentType('text /plain'), undefined, 'white space inside the type');
  assert.equal(parseContentType('text/plain/x'), undefined);
  assert.equal(parseContentType('x text/plain'), undefined);
});

test('a boundary of 70 characters is taken, one of 71 refused as RFC 2046 says, naming its length', () => {
  const b70 = 'b'.repeat(70);
  assert.equal(multipartBoundary(`multipart/mixed; boundary=${b70}`, 'mixed'), b70);
  assert.throws(
    () => multipartBoundary(`multipart/mixed; boundary=${b70}x`, 'mixed'),
    (e: unknown) =>
      e instanceof MultipartError &&
      e.code === 'missingBoundary' &&
      e.message === 'Boundary parameter is longer than 70 characters (71).',
  );
  assert.throws(
    () => multipartBoundary('multipart/mixed; charset=x', 'mixed'),
    (e: unknown) =>
      e instanceof MultipartError &&
      e.code === 'missingBoundary' &&
      e.message === 'Missing boundary parameter in Content-Type "multipart/mixed; charset=x".',
  );
  assert.throws(
    () => multipartBoundary('multipart/related; boundary=x', 'mixed'),
    (e: unknown) =>
      e instanceof MultipartError &&
      e.code === 'wrongContentType' &&
      e.message ===
        'Content-Type must be multipart/mixed with a boundary parameter; got "multipart/related; boundary=x".',
  );
});
