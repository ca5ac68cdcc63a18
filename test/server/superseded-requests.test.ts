/**
 * Issue 22: the newest request on a resumable session wins. A client sends one request at a time per session, so
 * a newer one means it gave up on the older: an older holder still receiving is ended at once (its whole blocks
 * kept), and an older request that reaches the session later — held up before its handler — writes nothing. The
 * newer request is answered from what is on disk, and the upload finishes byte for byte.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { startService, type ServiceHandle } from './helpers/service.ts';
import { openRaw, requestHead, statuses } from './helpers/raw-http.ts';

const BLOCK = 256 * 1024;
const TOTAL = 4 * BLOCK;
/** The file: every byte known, so a misplaced or foreign byte shows in the digest. */
const CONTENT = Buffer.from(Array.from({ length: TOTAL }, (_, i) => (i * 31 + (i >> 12)) & 0xff));
const md5 = (b: Uint8Array) => createHash('md5').update(b).digest('hex');

let svc: ServiceHandle;
before(async () => {
  svc = await startService();
});
after(() => svc.stop());

async function startSession(): Promise<URL> {
  const r = await svc.api('POST', '/upload/store/v3/files?uploadType=resumable', { body: { name: 'newest-wins.bin' } });
  assert.equal(r.status, 200, r.text);
  return new URL(r.headers.location as string);
}

function statusQuery(session: URL) {
  return svc.api('PUT', session.href, {
    token: null,
    headers: { 'Content-Range': `bytes */${TOTAL}`, 'Content-Length': '0' },
  });
}

function storedOf(range: string | string[] | undefined): number {
  return range === undefined ? 0 : Number(/^bytes=0-(\d+)$/.exec(String(range))?.[1]) + 1;
}

test(
  'a status query ends an older chunk PUT that is still receiving, at once; the upload finishes from its answer',
  { timeout: 60_000 },
  async () => {
    const session = await startSession();
    const older = await openRaw(svc.url);
    await older.write(
      requestHead('PUT', session.pathname + session.search, {
        Host: 'x',
        'Content-Length': TOTAL,
        'Content-Range': `bytes 0-${TOTAL - 1}/${TOTAL}`,
      }),
    );
    await older.write(CONTENT.subarray(0, BLOCK + 100));
    // Once its bytes reach the part file, the older request holds the session (and arrived first).
    const part = join(svc.dataDir, 'sessions', `${session.searchParams.get('upload_id')}.part`);
    while (!existsSync(part) || statSync(part).size < BLOCK) await new Promise((r) => setImmediate(r));
    // It keeps trickling, so it is never idle: only a newer request can end it.
    let at = BLOCK + 100;
    const trickle = setInterval(() => {
      if (at < TOTAL - 1 && !older.socket.destroyed) older.socket.write(CONTENT.subarray(at, ++at));
    }, 20);
    try {
      const q = await statusQuery(session);
      assert.equal(q.status, 308, q.text);
      const kept = storedOf(q.headers.range);
      assert.ok(kept % BLOCK === 0 && kept <= 2 * BLOCK, `kept ${kept}`);
      // Answered while it still sends (the rest of its body is read and discarded); it closes once the client stops.
      const text = await older.waitFor((t) => t.includes('resume from the range'), 10_000, 'the older answer');
      assert.deepEqual(statuses(text), [503], 'the older request is answered');
      assert.match(text, /connection: close/i);
      assert.match(text, /content-type: text\/plain/i, 'an upload-protocol error is plain text');
      const rest = await svc.api('PUT', session.href, {
        token: null,
        headers: { 'Content-Range': `bytes ${kept}-${TOTAL - 1}/${TOTAL}` },
        body: CONTENT.subarray(kept),
      });
      assert.equal(rest.status, 200, rest.text);
      assert.equal(rest.json().md5Checksum, md5(CONTENT));
    } finally {
      clearInterval(trickle);
      older.drop();
    }
  },
);

test(
  'an older request held up before its handler (admin delay) is ended when it reaches the session: it writes nothing',
  { timeout: 60_000 },
  async () => {
    const session = await startSession();
    // The older request carries a foreign third block; had it written, the stored size and the digest would show it.
    await svc.api('POST', '/__admin/faults', {
      token: null,
      body: { match: { method: 'PUT', uploadType: 'resumable' }, action: { type: 'delay', ms: 3000 }, times: 1 },
    });
    const older = await openRaw(svc.url);
    const foreign = Buffer.concat([CONTENT.subarray(0, 2 * BLOCK), Buffer.alloc(BLOCK, 0xee)]);
    await older.write(
      requestHead('PUT', session.pathname + session.search, {
        Host: 'x',
        'Content-Length': 3 * BLOCK,
        'Content-Range': `bytes 0-${3 * BLOCK - 1}/${TOTAL}`,
      }),
    );
    await older.write(foreign);
    // The fault is used up once the service has the older request's head: from then on it is the older one.
    for (;;) {
      const left = await svc.api('GET', '/__admin/faults', { token: null });
      if (left.json().faults.length === 0) break;
      await new Promise((r) => setImmediate(r));
    }
    const newer = await svc.api('PUT', session.href, {
      token: null,
      headers: { 'Content-Range': `bytes 0-${2 * BLOCK - 1}/${TOTAL}` },
      body: CONTENT.subarray(0, 2 * BLOCK),
    });
    assert.equal(newer.status, 308, newer.text);
    assert.equal(storedOf(newer.headers.range), 2 * BLOCK);
    // Whether it wakes while the newer one holds the session or after, the older request is answered 503.
    const text = await older.closed(15_000);
    assert.deepEqual(statuses(text), [503]);
    const q = await statusQuery(session);
    assert.equal(storedOf(q.headers.range), 2 * BLOCK);
    const rest = await svc.api('PUT', session.href, {
      token: null,
      headers: { 'Content-Range': `bytes ${2 * BLOCK}-${TOTAL - 1}/${TOTAL}` },
      body: CONTENT.subarray(2 * BLOCK),
    });
    assert.equal(rest.status, 200, rest.text);
    assert.equal(rest.json().md5Checksum, md5(CONTENT));
  },
);
