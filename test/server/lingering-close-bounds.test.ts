/**
 * The lingering close after an early answer (`server/http/lingering-close.ts`): the rest of a refused body is read
 * only up to `lingerBytes`, even when `lingerMs` would leave time to read it all; and a body whose framing breaks
 * after the answer was written ends the connection then, without waiting out `lingerMs`. Each check failed once
 * against a planted mutant of the line it guards (issue 39). Every wait is for bytes or a close, bounded only to
 * fail instead of hanging.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { openRaw, requestHead, statuses, type RawConnection } from './helpers/raw-http.ts';
import { startService, type ServiceHandle } from './helpers/service.ts';

const AUTH = { Host: 'x', Authorization: 'Bearer dev-token-alice' };
const BLOCK = 256 * 1024;
/** Larger than what loopback socket buffers hold, so a server that stops reading stalls the sender. */
const BIG = 24 * 1024 * 1024;

/** `size` bytes as chunked transfer coding in 256 KiB chunks, with the last chunk. */
function* chunked(size: number): Generator<string | Buffer> {
  const chunk = Buffer.alloc(BLOCK, 0x20);
  for (let sent = 0; sent < size; sent += BLOCK) {
    const c = chunk.subarray(0, Math.min(BLOCK, size - sent));
    yield `${c.length.toString(16)}\r\n`;
    yield c;
    yield '\r\n';
  }
  yield '0\r\n\r\n';
}

async function sendAll(conn: RawConnection, parts: Iterable<string | Uint8Array>): Promise<void> {
  for (const p of parts) await conn.write(p);
}

const jsonHead = requestHead('POST', '/store/v3/files', {
  ...AUTH,
  'Content-Type': 'application/json',
  'Transfer-Encoding': 'chunked',
});

describe('lingerBytes bounds the reading even when lingerMs leaves time for all of it', () => {
  let svc: ServiceHandle;
  before(async () => {
    // 5 s of lingering: ample for 24 MiB over loopback, were they read.
    svc = await startService({ config: { maxJsonBytes: 1024, lingerBytes: 1024 * 1024, lingerMs: 5_000 } });
  });
  after(() => svc.stop());

  test(
    'a client sending 24 MiB after its 413 is stalled past lingerBytes and cut off, its body never taken whole',
    {
      timeout: 120_000,
    },
    async () => {
      const conn = await openRaw(svc.url);
      const sending = sendAll(conn, [jsonHead, ...chunked(BIG)]);
      await assert.rejects(sending, 'the connection ends before 24 MiB are taken');
      await conn.closed(60_000);
      assert.deepEqual(statuses(conn.received().toString('latin1')), [413]);
    },
  );
});

describe('a body whose framing breaks after the early answer', () => {
  let svc: ServiceHandle;
  before(async () => {
    // Lingering far longer than the test waits: only the broken framing can end the connection in time.
    svc = await startService({ config: { maxJsonBytes: 1024, lingerMs: 600_000 } });
  });
  after(() => svc.stop());

  test('ends the connection at the broken chunk, not after lingerMs', { timeout: 120_000 }, async () => {
    const conn = await openRaw(svc.url);
    const over = Buffer.alloc(4096, 0x20);
    await conn.write(jsonHead + `${over.length.toString(16)}\r\n`);
    await conn.write(over);
    await conn.write('\r\n');
    const answered = await conn.waitFor((t) => /\r\n\r\n[\s\S]*\}/.test(t), 30_000, 'the 413');
    assert.deepEqual(statuses(answered), [413]);
    assert.match(answered, /^Connection: close/im);
    // The answer is out and the connection lingers, reading the body's rest; now its framing breaks.
    await conn.write('zz\r\n');
    const text = await conn.closed(60_000);
    assert.deepEqual(statuses(text), [413], 'one answer, then the close');
  });
});
