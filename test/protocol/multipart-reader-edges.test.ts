// The multipart reader hands a part's bytes on as they arrive, holding back only what may begin the next delimiter:
// in a CRLF-framed body a CR at the end of what has arrived, in an LF-framed body (supplement §2) nothing of it.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { MultipartReader, parseMultipartRelated } from '../../src/protocol/multipart.ts';

const enc = new TextEncoder();
const dec = new TextDecoder();
const B = 'b0undary';

test('in an LF-framed upload, media ending in a CR is handed on whole before the rest of the body arrives', async () => {
  let release!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  let sentTail = false;
  async function* source(): AsyncGenerator<Uint8Array> {
    yield enc.encode(`--${B}\nContent-Type: application/json\n\n{}\n--${B}\nContent-Type: text/plain\n\n`);
    yield enc.encode('first-line\r');
    await gate;
    sentTail = true;
    yield enc.encode(`more\n--${B}--`);
  }
  const up = await parseMultipartRelated(source(), B);
  const it = up.media[Symbol.asyncIterator]();
  const first = await it.next();
  assert.equal(first.done, false);
  assert.equal(dec.decode(first.value), 'first-line\r', 'the CR cannot begin an LF body’s delimiter: it is not held');
  assert.equal(sentTail, false);
  release();
  const rest: string[] = [];
  for (let r = await it.next(); !r.done; r = await it.next()) rest.push(dec.decode(r.value));
  assert.deepEqual(rest, ['more']);
});

test('the reader holds a chunk’s last CR only in a CRLF-framed body', () => {
  const data = (events: ReturnType<MultipartReader['push']>) =>
    events.flatMap((e) => (e.type === 'data' ? [dec.decode(e.bytes)] : [])).join('');

  const lf = new MultipartReader('q');
  assert.equal(data(lf.push(enc.encode('--q\n\nab\r'))), 'ab\r');
  assert.equal(data(lf.push(enc.encode('\r'))), '\r', 'a lone CR chunk too');
  assert.equal(data(lf.push(enc.encode('\n--q--'))), '');

  const crlf = new MultipartReader('q');
  assert.equal(data(crlf.push(enc.encode('--q\r\n\r\nab\r'))), 'ab', 'the CR may begin the delimiter’s CRLF');
  assert.equal(data(crlf.push(enc.encode('x\r\n--q--'))), '\rx');
});
