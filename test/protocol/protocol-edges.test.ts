/** Edges of the protocol helpers no other check drives: random hex without a platform CSPRNG, repeated batch-part
 * headers, bad header names, an over-long part header block and a bad `\u` escape before a lone surrogate. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loneSurrogateAt } from '../../src/protocol/json-text.ts';
import { formatHttpMessage, parseHttpMessage } from '../../src/protocol/multipart-http-message.ts';
import { MultipartError } from '../../src/protocol/multipart-error.ts';
import { MultipartReader } from '../../src/protocol/multipart-reader.ts';
import { randomHex } from '../../src/protocol/random-hex.ts';

const bytes = (text: string) => new TextEncoder().encode(text);

test('randomHex without globalThis.crypto still gives random, full-length hex digits', () => {
  const original = Object.getOwnPropertyDescriptor(globalThis, 'crypto');
  assert.ok(original?.configurable, 'the platform lets a test hide crypto');
  Object.defineProperty(globalThis, 'crypto', { value: undefined, configurable: true, writable: true });
  let samples: string[];
  try {
    samples = Array.from({ length: 4 }, () => randomHex(32));
  } finally {
    Object.defineProperty(globalThis, 'crypto', original);
  }
  for (const hex of samples) {
    assert.match(hex, /^[0-9a-f]{64}$/);
    // 32 random bytes that are all zero would be a 2^-256 event: the fallback filled the buffer.
    assert.notEqual(hex, '0'.repeat(64));
  }
  assert.equal(new Set(samples).size, samples.length, 'every call gives new digits');
  // Each byte position gets a random value, not just the first: across the samples most bytes are non-zero.
  const zeroBytes = samples
    .join('')
    .match(/../g)!
    .filter((b) => b === '00').length;
  assert.ok(zeroBytes < 16, `${zeroBytes} zero bytes of 128`);
});

test('a batch part repeating a header has both values joined with ", "', () => {
  const message = parseHttpMessage(bytes('GET /files HTTP/1.1\r\nAccept: a/b\r\nX-Tag: one\r\nx-tag: two\r\n\r\n'), 1);
  assert.equal(message.startLine, 'GET /files HTTP/1.1');
  assert.equal(message.headers['x-tag'], 'one, two');
  assert.equal(message.headers['accept'], 'a/b');
});

test('formatHttpMessage refuses a header name that is not a token, naming it', () => {
  assert.throws(() => formatHttpMessage('GET / HTTP/1.1', { 'bad name': 'v' }, new Uint8Array()), {
    name: 'TypeError',
    message: 'invalid header name "bad name"',
  });
});

test('a part whose header block exceeds maxHeaderBytes is malformedPartHeaders, naming the part and the limit', () => {
  const reader = new MultipartReader('b0undary', { maxHeaderBytes: 20 });
  let thrown: unknown;
  try {
    reader.push(bytes('--b0undary\r\nX-Long: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\r\n\r\nbody\r\n--b0undary--\r\n'));
  } catch (error) {
    thrown = error;
  }
  assert.ok(thrown instanceof MultipartError, String(thrown));
  assert.equal(thrown.code, 'malformedPartHeaders');
  assert.equal(thrown.message, 'The headers of part 1 exceed 20 bytes.');
  // Under the limit the same part reads.
  const events = new MultipartReader('b0undary', { maxHeaderBytes: 64 }).push(
    bytes('--b0undary\r\nX-Long: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\r\n\r\nbody\r\n--b0undary--\r\n'),
  );
  assert.deepEqual(
    events.map((e) => e.type),
    ['part', 'data', 'partEnd', 'end'],
  );
});

test('an escape "\\u" without four hex digits skips one character only: a lone surrogate after it is still found', () => {
  // `"\u"` is a string holding a bad escape; the next string holds an escaped high surrogate with no low one.
  const text = '"\\u" "\\ud800"';
  assert.equal(loneSurrogateAt(text), 6);
});
