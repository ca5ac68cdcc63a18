/**
 * Issue 10, failures 1 and 2: a body that ends early (client drop) or is malformed while its bytes are being
 * written never takes the service down, and leaves no temp file behind. The helper's process guard fails the
 * test if the service logs an uncaught error or exits.
 */
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { startService, type ServiceHandle } from './helpers/service.ts';
import { openRaw, requestHead } from './helpers/raw-http.ts';

let svc: ServiceHandle;
before(async () => {
  svc = await startService();
});
after(() => svc.stop());

/** Waits until the temp dir is empty (a cut body's temp file is removed once its request is over). */
async function tmpEmpty(timeoutMs = 10_000): Promise<void> {
  const dir = join(svc.dataDir, 'tmp');
  const until = Date.now() + timeoutMs;
  for (;;) {
    const left = readdirSync(dir);
    if (left.length === 0) return;
    if (Date.now() > until) assert.fail(`temp files left behind: ${left.join(', ')}`);
    await new Promise((r) => setImmediate(r));
  }
}

test('a 50 MB media upload dropped part-way, 40 times, leaves the service up and no temp file', async () => {
  const chunk = Buffer.alloc(256 * 1024, 7);
  for (let i = 0; i < 40; i++) {
    const conn = await openRaw(svc.url);
    await conn.write(
      requestHead('POST', '/upload/store/v3/files?uploadType=media', {
        Host: 'x',
        Authorization: 'Bearer dev-token-alice',
        'Content-Type': 'application/octet-stream',
        'Content-Length': 50_000_000,
      }),
    );
    // 1–3 MiB, then gone: drops land while a block write is in flight.
    for (let k = 0; k < 4 + (i % 9); k++) await conn.write(chunk);
    conn.drop();
  }
  await tmpEmpty();
  const alive = await svc.api('GET', '/store/v3/files?fields=files(id)');
  assert.equal(alive.status, 200);
  assert.deepEqual(alive.json().files, [], 'no cut upload became a file');
});

function multipart(boundary: string, media: Buffer, tail: string): Buffer {
  return Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Type: application/json; charset=UTF-8\r\n\r\n{"name":"m.bin"}\r\n--${boundary}\r\nContent-Type: application/octet-stream\r\n\r\n`,
    ),
    media,
    Buffer.from(tail),
  ]);
}

for (const [what, size, tail, message] of [
  ['a ~700 KB media part with no closing delimiter', 700_000, '', /closing|delimiter|end/i],
  [
    'a third part after a ~1 MB media part',
    1_000_000,
    '\r\n--b\r\nContent-Type: text/plain\r\n\r\nthird\r\n--b--',
    /part/i,
  ],
] as const) {
  test(`a multipart upload with ${what} → 400 saying so, service up, nothing stored`, async () => {
    for (let i = 0; i < 10; i++) {
      const r = await svc.api('POST', '/upload/store/v3/files?uploadType=multipart', {
        headers: { 'Content-Type': 'multipart/related; boundary=b' },
        body: multipart('b', Buffer.alloc(size, i), tail),
      });
      assert.equal(r.status, 400, r.text);
      assert.match(r.json().error.message, message);
    }
    await tmpEmpty();
    const list = await svc.api('GET', '/store/v3/files?fields=files(id)');
    assert.deepEqual(list.json().files, []);
  });
}

test('a multipart body dropped part-way through its media, 20 times, leaves the service up', async () => {
  for (let i = 0; i < 20; i++) {
    const conn = await openRaw(svc.url);
    const body = multipart('b', Buffer.alloc(3_000_000, 1), '\r\n--b--');
    await conn.write(
      requestHead('POST', '/upload/store/v3/files?uploadType=multipart', {
        Host: 'x',
        Authorization: 'Bearer dev-token-alice',
        'Content-Type': 'multipart/related; boundary=b',
        'Content-Length': body.length,
      }),
    );
    await conn.write(body.subarray(0, 500_000 + i * 60_000));
    conn.drop();
  }
  await tmpEmpty();
  const r = await svc.api('GET', '/store/v3/about?fields=kind');
  assert.equal(r.status, 200);
});

test('startup sweeps orphans: temp files, unreferenced content and part files of sessions that are not open', async () => {
  const { writeFileSync } = await import('node:fs');
  const start = await svc.api('POST', '/upload/store/v3/files?uploadType=resumable', { body: { name: 'open' } });
  const session = start.headers.location as string;
  const keep = await svc.api('PUT', session, {
    token: null,
    body: Buffer.alloc(256 * 1024, 3),
    headers: { 'Content-Range': 'bytes 0-262143/*' },
  });
  assert.equal(keep.status, 308);
  const kept = await svc.api('POST', '/upload/store/v3/files?uploadType=media', {
    body: 'kept',
    headers: { 'Content-Type': 'text/plain' },
  });
  writeFileSync(join(svc.dataDir, 'tmp', 'b-left.tmp'), 'x');
  writeFileSync(join(svc.dataDir, 'content', 'c-orphan'), 'x');
  writeFileSync(join(svc.dataDir, 'sessions', 'no-such-session.part'), 'x');
  await svc.restart();
  assert.deepEqual(readdirSync(join(svc.dataDir, 'tmp')), []);
  assert.ok(!readdirSync(join(svc.dataDir, 'content')).includes('c-orphan'));
  assert.deepEqual(readdirSync(join(svc.dataDir, 'sessions')).length, 1, 'only the open session keeps its part');
  assert.equal((await svc.api('GET', `/store/v3/files/${kept.json().id}?alt=media`)).text, 'kept');
  const q = await svc.api('PUT', session, {
    token: null,
    headers: { 'Content-Range': 'bytes */*', 'Content-Length': '0' },
  });
  assert.equal(q.headers.range, 'bytes=0-262143');
});
