/**
 * Issue 22, "every bad request answered", from a raw socket: a body over a limit gets its 413 and the connection
 * lingers (the rest is read and discarded, within `lingerMs` / `lingerBytes`) so a client that sends all before
 * it reads still reads it; a chunked body with a malformed chunk size gets a 400, after which the connection closes.
 * Every wait is for bytes or a close, bounded only to fail instead of hanging.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { startService, type ServiceHandle } from './helpers/service.ts';
import { openRaw, requestHead, statuses, type RawConnection } from './helpers/raw-http.ts';

const AUTH = { Host: 'x', Authorization: 'Bearer dev-token-alice' };
const BLOCK = 256 * 1024;
/** Larger than what loopback socket buffers hold, so a server that stops reading stalls the sender. */
const BIG = 24 * 1024 * 1024;

/** Sends every part in order, each write waiting for the OS to take it (a client that sends all before it reads). */
async function sendAll(conn: RawConnection, parts: Iterable<string | Uint8Array>): Promise<void> {
  for (const p of parts) await conn.write(p);
}

/** `size` bytes as chunked transfer coding in 256 KiB chunks, with the last chunk. */
function* chunked(size: number, fill = 0x20): Generator<string | Buffer> {
  const chunk = Buffer.alloc(BLOCK, fill);
  for (let sent = 0; sent < size; sent += BLOCK) {
    const c = chunk.subarray(0, Math.min(BLOCK, size - sent));
    yield `${c.length.toString(16)}\r\n`;
    yield c;
    yield '\r\n';
  }
  yield '0\r\n\r\n';
}

function* fixed(size: number): Generator<Buffer> {
  const chunk = Buffer.alloc(BLOCK, 0x20);
  for (let sent = 0; sent < size; sent += BLOCK) yield chunk.subarray(0, Math.min(BLOCK, size - sent));
}

function headerOf(text: string, name: string): string | undefined {
  const head = text.slice(0, text.indexOf('\r\n\r\n'));
  return new RegExp(`^${name}: (.*)$`, 'im').exec(head)?.[1]?.trim();
}

function jsonOf(text: string): { error: { code: number; message: string } } {
  return JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4));
}

describe('a JSON body over maxJsonBytes', () => {
  let svc: ServiceHandle;
  before(async () => {
    svc = await startService({ config: { maxJsonBytes: 1024 } });
  });
  after(() => svc.stop());

  for (const framing of ['chunked', 'Content-Length'] as const) {
    test(
      `${framing}, 24 MiB sent in full before reading: every byte is taken, then the 413 is read and the connection closes`,
      { timeout: 60_000 },
      async () => {
        const conn = await openRaw(svc.url);
        const headers = {
          ...AUTH,
          'Content-Type': 'application/json',
          ...(framing === 'chunked' ? { 'Transfer-Encoding': 'chunked' } : { 'Content-Length': BIG }),
        };
        await sendAll(conn, [
          requestHead('POST', '/store/v3/files', headers),
          ...(framing === 'chunked' ? chunked(BIG) : fixed(BIG)),
        ]);
        const text = await conn.closed(30_000);
        assert.deepEqual(statuses(text), [413], text.slice(0, 300));
        assert.equal(headerOf(text, 'Connection'), 'close');
        assert.match(jsonOf(text).error.message, /larger than the limit of 1024 bytes/);
      },
    );
  }

  test('nothing of a refused body is stored', async () => {
    const list = await svc.api('GET', '/store/v3/files?fields=files(id)');
    assert.deepEqual(list.json().files, []);
  });
});

describe('lingering is bounded', () => {
  let svc: ServiceHandle;
  before(async () => {
    svc = await startService({ config: { maxJsonBytes: 1024, lingerBytes: 1024 * 1024, lingerMs: 200 } });
  });
  after(() => svc.stop());

  test(
    'a client that keeps sending past lingerBytes is cut off before its body ends',
    { timeout: 60_000 },
    async () => {
      const conn = await openRaw(svc.url);
      const head = requestHead('POST', '/store/v3/files', {
        ...AUTH,
        'Content-Type': 'application/json',
        'Transfer-Encoding': 'chunked',
      });
      const sending = sendAll(conn, [head, ...chunked(BIG)]);
      await assert.rejects(sending, 'the connection ends before 24 MiB are taken');
      await conn.closed(30_000);
      // One answer, a 413 (none at all would be a plain cut, not the early answer this is about).
      assert.deepEqual(statuses(conn.received().toString('latin1')), [413]);
    },
  );

  test(
    'a client that stops sending mid-body (without closing) is closed after lingerMs',
    { timeout: 60_000 },
    async () => {
      const conn = await openRaw(svc.url);
      await conn.write(
        requestHead('POST', '/store/v3/files', {
          ...AUTH,
          'Content-Type': 'application/json',
          'Content-Length': 100_000,
        }),
      );
      await conn.write(Buffer.alloc(2048, 0x20));
      const text = await conn.closed(30_000);
      assert.deepEqual(statuses(text), [413]);
    },
  );
});

describe('a chunked body with a malformed chunk size', () => {
  let svc: ServiceHandle;
  before(async () => {
    svc = await startService();
  });
  after(() => svc.stop());

  test('a metadata create: 400 naming the chunk size, then the connection closes; nothing is created', async () => {
    const conn = await openRaw(svc.url);
    await conn.write(
      requestHead('POST', '/store/v3/files', {
        ...AUTH,
        'Content-Type': 'application/json',
        'Transfer-Encoding': 'chunked',
      }) + 'zz\r\n{}\r\n0\r\n\r\n',
    );
    const text = await conn.closed(10_000);
    assert.deepEqual(statuses(text), [400], text);
    assert.equal(headerOf(text, 'Connection'), 'close');
    assert.match(jsonOf(text).error.message, /not valid HTTP: .*chunk size.*HPE_INVALID_CHUNK_SIZE/);
    const list = await svc.api('GET', '/store/v3/files?fields=files(id)');
    assert.deepEqual(list.json().files, []);
  });

  test('after a chunk that was fine: a media upload stores nothing', async () => {
    const conn = await openRaw(svc.url);
    await conn.write(
      requestHead('POST', '/upload/store/v3/files?uploadType=media', {
        ...AUTH,
        'Content-Type': 'text/plain',
        'Transfer-Encoding': 'chunked',
      }) + '5\r\nhello\r\nxyz\r\nabc\r\n0\r\n\r\n',
    );
    const text = await conn.closed(10_000);
    assert.deepEqual(statuses(text), [400], text);
    assert.match(jsonOf(text).error.message, /HPE_INVALID_CHUNK_SIZE/);
    const list = await svc.api('GET', '/store/v3/files?fields=files(id)');
    assert.deepEqual(list.json().files, []);
  });

  test('a request already answered (no upload_id) gets that one answer only, then the close', async () => {
    const conn = await openRaw(svc.url);
    await conn.write(
      requestHead('PUT', '/upload/store/v3/files?uploadType=media', { ...AUTH, 'Transfer-Encoding': 'chunked' }) +
        '5\r\nhello\r\nxyz\r\n',
    );
    const text = await conn.closed(10_000);
    assert.deepEqual(statuses(text), [400], text);
    assert.match(jsonOf(text).error.message, /needs a session URI/);
  });

  test('a resumable chunk: the whole blocks parsed before the bad size are kept, the session is free, and the upload finishes', async () => {
    const total = 4 * BLOCK;
    const content = Buffer.alloc(total);
    for (let i = 0; i < total; i++) content[i] = (i * 7 + (i >> 9)) & 0xff;
    const start = await svc.api('POST', '/upload/store/v3/files?uploadType=resumable', {
      body: { name: 'bad-chunk.bin' },
    });
    assert.equal(start.status, 200, start.text);
    const session = new URL(start.headers.location as string);
    const conn = await openRaw(svc.url);
    const sent = 2 * BLOCK + 1000;
    await conn.write(
      requestHead('PUT', session.pathname + session.search, {
        Host: 'x',
        'Transfer-Encoding': 'chunked',
        'Content-Range': `bytes 0-${total - 1}/${total}`,
      }) + `${sent.toString(16)}\r\n`,
    );
    await conn.write(content.subarray(0, sent));
    await conn.write('\r\nnot-a-size\r\n');
    const text = await conn.closed(10_000);
    assert.deepEqual(statuses(text), [400], text);
    assert.match(text, /HPE_INVALID_CHUNK_SIZE/);
    const q = await svc.api('PUT', session.href, {
      token: null,
      headers: { 'Content-Range': `bytes */${total}`, 'Content-Length': '0' },
    });
    assert.equal(q.status, 308, q.text);
    assert.equal(q.headers.range, `bytes=0-${2 * BLOCK - 1}`);
    const rest = await svc.api('PUT', session.href, {
      token: null,
      headers: { 'Content-Range': `bytes ${2 * BLOCK}-${total - 1}/${total}` },
      body: content.subarray(2 * BLOCK),
    });
    assert.equal(rest.status, 200, rest.text);
    assert.equal(rest.json().md5Checksum, createHash('md5').update(content).digest('hex'));
  });
});
