import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  encodeMultipartRelated,
  parseMultipartRelated,
  parseContentType,
  multipartBoundary,
  MultipartError,
  MultipartReader,
  type MultipartEvent,
  type MultipartRelatedUpload,
} from '../../src/protocol/multipart.ts';
import { utf8Decode } from '../../src/protocol/multipart-text.ts';

const enc = new TextEncoder();
const dec = new TextDecoder();
const B = 'b0undary';

/** Yields `body` in chunks of `size` bytes. */
async function* chunked(body: Uint8Array | string, size = 1 << 30): AsyncGenerator<Uint8Array> {
  const bytes = typeof body === 'string' ? enc.encode(body) : body;
  for (let i = 0; i < bytes.length; i += size) yield bytes.subarray(i, i + size);
}

async function collect(media: AsyncIterable<Uint8Array>): Promise<Uint8Array> {
  const parts: Uint8Array[] = [];
  for await (const c of media) parts.push(c);
  return Buffer.concat(parts);
}

async function parseAll(
  body: string | Uint8Array,
  size?: number,
  boundary = B,
): Promise<{ up: MultipartRelatedUpload; media: string }> {
  const up = await parseMultipartRelated(chunked(body, size), boundary);
  return { up, media: dec.decode(await collect(up.media)) };
}

/** Resolves to the MultipartError a parse (including draining the media) fails with. */
async function parseError(body: string, boundary = B): Promise<MultipartError> {
  try {
    await parseAll(body, undefined, boundary);
  } catch (err) {
    assert.ok(err instanceof MultipartError, `expected MultipartError, got ${String(err)}`);
    return err;
  }
  assert.fail('expected the parse to fail');
}

test('encodeMultipartRelated writes the exact two-part body and header', () => {
  const media = { blob: true }; // stands in for a Blob: must pass through untouched
  const out = encodeMultipartRelated({ name: 'a.txt' }, media, 'text/plain', 'XYZ');
  assert.equal(out.contentType, 'multipart/related; boundary=XYZ');
  assert.equal(out.boundary, 'XYZ');
  assert.deepEqual(out.body, [
    '--XYZ\r\nContent-Type: application/json; charset=UTF-8\r\n\r\n{"name":"a.txt"}\r\n--XYZ\r\nContent-Type: text/plain\r\n\r\n',
    media,
    '\r\n--XYZ--\r\n',
  ]);
  assert.equal(out.body[1], media);
});

test('encodeMultipartRelated picks a fresh random boundary and defaults the media type', () => {
  const a = encodeMultipartRelated({}, 'x', '');
  const b = encodeMultipartRelated({}, 'x', '');
  assert.match(a.boundary, /^store_[0-9a-f]{32}$/);
  assert.notEqual(a.boundary, b.boundary);
  // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-conversion -- the part body is typed as text; String() keeps the match safe if it is bytes.
  assert.match(String(a.body[0]), /Content-Type: application\/octet-stream\r\n\r\n$/);
  assert.throws(() => encodeMultipartRelated({}, 'x', 'text/plain\r\nX-Evil: 1'), TypeError);
});

test('round trip at every chunk size keeps metadata and media bytes exact', async () => {
  // Media full of near-delimiters: CRLF--, LF--boundary-prefix, trailing CR.
  const tricky = new Uint8Array([...enc.encode('\r\n--\r\n--b0und\n--b0undar\r\r\n-'), 0, 255, 13, 10, 13]);
  const out = encodeMultipartRelated({ name: 'n', parents: ['p'] }, tricky, 'application/octet-stream', B);
  const body = Buffer.concat(out.body.map((p) => (typeof p === 'string' ? enc.encode(p) : p)));
  for (const size of [1, 2, 3, 5, 7, 11, 64, body.length]) {
    const up = await parseMultipartRelated(chunked(body, size), B);
    assert.deepEqual(up.metadata, { name: 'n', parents: ['p'] }, `size ${size}`);
    assert.equal(up.mediaType, 'application/octet-stream');
    assert.deepEqual(new Uint8Array(await collect(up.media)), tricky, `size ${size}`);
  }
});

test('media bytes are handed on before the rest of the body has arrived', async () => {
  let release!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  let sentTail = false;
  async function* source(): AsyncGenerator<Uint8Array> {
    yield enc.encode(
      `--${B}\r\nContent-Type: application/json\r\n\r\n{}\r\n--${B}\r\nContent-Type: text/plain\r\n\r\n`,
    );
    yield enc.encode('first-bytes');
    await gate;
    sentTail = true;
    yield enc.encode(`more\r\n--${B}--`);
  }
  const up = await parseMultipartRelated(source(), B);
  const it = up.media[Symbol.asyncIterator]();
  const first = await it.next();
  assert.equal(first.done, false);
  assert.equal(dec.decode(first.value), 'first-bytes');
  assert.equal(sentTail, false);
  release();
  const rest: string[] = [];
  for (let r = await it.next(); !r.done; r = await it.next()) rest.push(dec.decode(r.value));
  assert.equal(rest.join(''), 'more');
  assert.equal(sentTail, true);
});

test('a large media part streams in bounded pieces', async () => {
  const size = 4 * 1024 * 1024;
  const media = new Uint8Array(size).map((_, i) => (i * 31) & 0xff);
  const out = encodeMultipartRelated({}, media, 'application/octet-stream', B);
  const body = Buffer.concat(out.body.map((p) => (typeof p === 'string' ? enc.encode(p) : p)));
  const up = await parseMultipartRelated(chunked(body, 65536), B);
  let total = 0;
  let largest = 0;
  let same = true;
  for await (const c of up.media) {
    for (let i = 0; i < c.length; i++) if (c[i] !== (((total + i) * 31) & 0xff)) same = false;
    total += c.length;
    largest = Math.max(largest, c.length);
  }
  assert.equal(total, size);
  assert.ok(same);
  assert.ok(largest <= 65536 + B.length + 4, `largest piece ${largest}`);
});

test('tolerated: leading CRLF, no CRLF after close, JSON without charset, LF-only, header case, unknown headers', async () => {
  const crlf = `\r\n--${B}\r\ncontent-type: application/json\r\nX-Whatever: 1\r\n\r\n{"a":1}\r\n--${B}\r\nCONTENT-TYPE: image/png\r\nContent-Transfer-Encoding: binary\r\n\r\nPNG\r\n--${B}--`;
  const r1 = await parseAll(crlf);
  assert.deepEqual(r1.up.metadata, { a: 1 });
  assert.equal(r1.up.mediaType, 'image/png');
  assert.equal(r1.up.mediaHeaders['content-transfer-encoding'], 'binary');
  assert.equal(r1.media, 'PNG');

  const lf = `--${B}\nContent-Type: Application/JSON; Charset="utf-8"\n\n{"b":2}\n--${B}\nContent-Type: text/plain\n\nline1\nline2\n--${B}--\n`;
  const r2 = await parseAll(lf, 3);
  assert.deepEqual(r2.up.metadata, { b: 2 });
  assert.equal(r2.media, 'line1\nline2');
});

test('transport padding after a delimiter and an epilogue are ignored; empty media is allowed', async () => {
  const body = `preamble\r\n--${B}  \r\nContent-Type: application/json\r\n\r\n{}\r\n--${B}\t\r\nContent-Type: text/plain\r\n\r\n\r\n--${B}--\r\nepilogue`;
  const r = await parseAll(body);
  assert.equal(r.media, '');
});

test('the source is read to its end, epilogue included, not closed early: the request is fully consumed', async () => {
  let readToEnd = false;
  async function* source(): AsyncGenerator<Uint8Array> {
    yield enc.encode(`--${B}\r\nContent-Type: application/json\r\n\r\n{}\r\n--${B}\r\n\r\nraw\r\n--${B}--\r\n`);
    yield enc.encode('an epilogue in a chunk of its own');
    readToEnd = true; // not reached when the parser closes the source (return) instead
  }
  const up = await parseMultipartRelated(source(), B);
  assert.equal(dec.decode(await collect(up.media)), 'raw');
  assert.equal(readToEnd, true);
});

test('a media part without Content-Type has mediaType undefined', async () => {
  const r = await parseAll(`--${B}\r\nContent-Type: application/json\r\n\r\n{}\r\n--${B}\r\n\r\nraw\r\n--${B}--`);
  assert.equal(r.up.mediaType, undefined);
  assert.equal(r.media, 'raw');
});

test('errors: one part, three parts, no parts', async () => {
  const one = await parseError(`--${B}\r\nContent-Type: application/json\r\n\r\n{}\r\n--${B}--\r\n`);
  assert.equal(one.code, 'tooFewParts');
  assert.equal(one.message, 'The multipart body has only one part; expected exactly two: metadata JSON, then media.');

  const three = await parseError(
    `--${B}\r\nContent-Type: application/json\r\n\r\n{}\r\n--${B}\r\nContent-Type: text/plain\r\n\r\nx\r\n--${B}\r\nContent-Type: text/plain\r\n\r\ny\r\n--${B}--\r\n`,
  );
  assert.equal(three.code, 'tooManyParts');
  assert.equal(
    three.message,
    'The multipart body has more than two parts; expected exactly two: metadata JSON, then media.',
  );

  const none = await parseError(`--${B}--\r\n`);
  assert.equal(none.code, 'tooFewParts');
  assert.equal(none.message, 'The multipart body has no parts; expected exactly two: metadata JSON, then media.');
});

test('errors: non-JSON first part and invalid JSON', async () => {
  const notJson = await parseError(
    `--${B}\r\nContent-Type: text/plain\r\n\r\n{}\r\n--${B}\r\nContent-Type: text/plain\r\n\r\nx\r\n--${B}--`,
  );
  assert.equal(notJson.code, 'metadataNotJson');
  assert.equal(
    notJson.message,
    'The first part must be the metadata as application/json; its Content-Type is "text/plain".',
  );

  const missing = await parseError(`--${B}\r\n\r\n{}\r\n--${B}\r\nContent-Type: text/plain\r\n\r\nx\r\n--${B}--`);
  assert.equal(
    missing.message,
    'The first part must be the metadata as application/json; its Content-Type is missing.',
  );

  const bad = await parseError(
    `--${B}\r\nContent-Type: application/json\r\n\r\n{"a":\r\n--${B}\r\nContent-Type: text/plain\r\n\r\nx\r\n--${B}--`,
  );
  assert.equal(bad.code, 'metadataInvalidJson');
  assert.match(bad.message, /^The metadata part is not valid JSON: /);
});

test('errors: missing closing delimiter, missing opening delimiter, malformed delimiter', async () => {
  const cut = await parseError(
    `--${B}\r\nContent-Type: application/json\r\n\r\n{}\r\n--${B}\r\nContent-Type: text/plain\r\n\r\nxyz`,
  );
  assert.equal(cut.code, 'missingClosingDelimiter');
  assert.equal(cut.message, `Missing closing boundary delimiter "--${B}--" after part 2.`);

  const inHeaders = await parseError(
    `--${B}\r\nContent-Type: application/json\r\n\r\n{}\r\n--${B}\r\nContent-Type: tex`,
  );
  assert.equal(
    inHeaders.message,
    `Missing closing boundary delimiter "--${B}--": the body ended inside the headers of part 2.`,
  );

  const noOpen = await parseError('just some bytes');
  assert.equal(noOpen.code, 'missingOpeningDelimiter');
  assert.equal(noOpen.message, `The body does not contain the opening boundary delimiter "--${B}".`);

  const wrongBoundary = await parseError(`--other\r\nContent-Type: application/json\r\n\r\n{}\r\n--other--`);
  assert.equal(wrongBoundary.code, 'missingOpeningDelimiter');

  const garbage = await parseError(`--${B}x\r\nContent-Type: application/json\r\n\r\n{}`);
  assert.equal(garbage.code, 'malformedDelimiter');
  assert.match(garbage.message, /^Unexpected characters after boundary delimiter "--b0undary" \(part 1\)/);
});

test('errors: malformed part header line', async () => {
  const e = await parseError(`--${B}\r\nno colon here\r\n\r\n{}\r\n--${B}--`);
  assert.equal(e.code, 'malformedPartHeaders');
  assert.equal(e.message, 'Part 1 has a malformed header line "no colon here" (expected "Name: value").');
});

test('multipartBoundary: quoted, unquoted, missing, wrong type', () => {
  assert.equal(multipartBoundary('multipart/related; boundary="a b:c"', 'related'), 'a b:c');
  assert.equal(multipartBoundary('Multipart/Related;boundary=xyz;type=application/json', 'related'), 'xyz');
  const missing = catchSync(() => multipartBoundary('multipart/related', 'related'));
  assert.equal(missing.code, 'missingBoundary');
  assert.equal(missing.message, 'Missing boundary parameter in Content-Type "multipart/related".');
  assert.equal(catchSync(() => multipartBoundary('multipart/related; boundary=""', 'related')).code, 'missingBoundary');
  const wrong = catchSync(() => multipartBoundary('application/json', 'related'));
  assert.equal(wrong.code, 'wrongContentType');
  assert.equal(
    wrong.message,
    'Content-Type must be multipart/related with a boundary parameter; got "application/json".',
  );
  assert.equal(
    catchSync(() => multipartBoundary(undefined, 'mixed')).message,
    'Content-Type must be multipart/mixed with a boundary parameter; got none.',
  );
});

test('parseContentType handles case, spaces, quoted values with escapes and junk', () => {
  assert.deepEqual(parseContentType('Application/JSON ; Charset = UTF-8'), {
    type: 'application/json',
    params: { charset: 'UTF-8' },
  });
  assert.deepEqual(parseContentType('text/plain; a="x;y \\"q\\""; b=2; flag; a=ignored'), {
    type: 'text/plain',
    params: { a: 'x;y "q"', b: '2' },
  });
  assert.equal(parseContentType(''), undefined);
  assert.equal(parseContentType(undefined), undefined);
  assert.equal(parseContentType('nonsense'), undefined);
});

test('MultipartReader emits part, data, partEnd and end events in order, with empty bodies', () => {
  const r = new MultipartReader('q');
  const events: MultipartEvent[] = [
    ...r.push(enc.encode('--q\r\nA: 1\r\nA: 2\r\n  folded\r\n\r\n--q\r\n\r\nbody\r\n--q--')),
    ...r.end(),
  ];
  assert.deepEqual(
    events.map((e) =>
      e.type === 'data'
        ? `data:${dec.decode(e.bytes)}`
        : e.type === 'part'
          ? `part:${JSON.stringify(e.headers)}`
          : e.type,
    ),
    ['part:{"a":"1, 2 folded"}', 'partEnd', 'part:{}', 'data:body', 'partEnd', 'end'],
  );
  assert.equal(r.partCount, 2);
});

function catchSync(fn: () => unknown): MultipartError {
  try {
    fn();
  } catch (err) {
    assert.ok(err instanceof MultipartError);
    return err;
  }
  assert.fail('expected a MultipartError');
}

test('seeded random payloads and random chunking always give back the exact bytes', async () => {
  let seed = 42;
  const rnd = (n: number): number => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed % n;
  };
  const alphabet = enc.encode(`\r\n-${B}x`);
  for (let round = 0; round < 200; round++) {
    // Payloads built from delimiter-ish bytes so partial matches are everywhere.
    const media = Uint8Array.from({ length: rnd(300) }, () => alphabet[rnd(alphabet.length)]);
    if (dec.decode(media).includes(`\n--${B}`) || dec.decode(media).startsWith(`--${B}`)) continue; // a real delimiter
    const out = encodeMultipartRelated({ round }, media, 'application/octet-stream', B);
    const body = Buffer.concat(out.body.map((p) => (typeof p === 'string' ? enc.encode(p) : p)));
    async function* randomChunks(): AsyncGenerator<Uint8Array> {
      for (let i = 0; i < body.length;) {
        const n = 1 + rnd(40);
        yield body.subarray(i, i + n);
        i += n;
      }
    }
    const up = await parseMultipartRelated(randomChunks(), B);
    assert.deepEqual(up.metadata, { round });
    assert.deepEqual(new Uint8Array(await collect(up.media)), media, `round ${round}`);
  }
});

test('utf8Decode: malformed bytes become U+FFFD unless strict, where they throw', () => {
  const malformed = new Uint8Array([0x61, 0xff, 0x62]);
  assert.equal(utf8Decode(malformed), 'a\uFFFDb');
  assert.throws(() => utf8Decode(malformed, true), TypeError);
});

test('MultipartReader: an indented first header line has nothing to continue and is read as a header of its own', () => {
  const r = new MultipartReader('q');
  const events = [...r.push(enc.encode('--q\r\n  A: 1\r\n\r\nbody\r\n--q--')), ...r.end()];
  assert.deepEqual(
    events.flatMap((e) => (e.type === 'part' ? [e.headers] : [])),
    [{ a: '1' }],
  );
});

test('MultipartReader: in a CRLF-framed body, a delimiter line after a bare LF is data, not the end of the part', () => {
  const r = new MultipartReader('q');
  const events = [...r.push(enc.encode('--q\r\n\r\nline\n--q\r\nstill data\r\n--q--')), ...r.end()];
  const parts = events.filter((e) => e.type === 'part').length;
  const data = events.flatMap((e) => (e.type === 'data' ? [dec.decode(e.bytes)] : [])).join('');
  assert.deepEqual([parts, data], [1, 'line\n--q\r\nstill data']);
});
