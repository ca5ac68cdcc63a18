/**
 * What the disk session content (`server/content/disk-session-content.ts`, `file-writer.ts`) keeps of a chunk whose
 * client went away mid-body (the whole blocks that reached the disk, block by block when the client sends one at a
 * time), and the MD5 it reports when the upload finishes after a restart, its running hash rebuilt from the part
 * file. It failed once against a planted mutant of the writer's progress (issue 39).
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { openRaw, requestHead } from './helpers/raw-http.ts';
import { type ServiceHandle, startService } from './helpers/service.ts';
import { bytesOf } from './helpers/bytes.ts';

const BLOCK = 256 * 1024;
const TOTAL = 3 * BLOCK + 500;
const CONTENT = bytesOf(TOTAL, 39);

let svc: ServiceHandle;
before(async () => {
  svc = await startService();
});
after(() => svc.stop());

async function cutThenFinish(name: string): Promise<void> {
  const start = await svc.api('POST', '/upload/store/v3/files?uploadType=resumable', {
    body: { name },
  });
  assert.equal(start.status, 200, start.text);
  const session = new URL(start.headers.location as string);
  const part = join(svc.dataDir, 'sessions', `${session.searchParams.get('upload_id')}.part`);
  const cut = await openRaw(svc.url);
  await cut.write(
    requestHead('PUT', session.pathname + session.search, {
      Host: 'x',
      'Content-Length': TOTAL,
      'Content-Range': `bytes 0-${TOTAL - 1}/${TOTAL}`,
    }),
  );
  await cut.write(CONTENT.subarray(0, 2 * BLOCK + 100));
  // Drop the client once the bytes past the second block are on disk.
  const until = Date.now() + 20_000;
  while ((!existsSync(part) || statSync(part).size < 2 * BLOCK + 100) && Date.now() < until)
    await new Promise((r) => setImmediate(r));
  assert.equal(statSync(part).size, 2 * BLOCK + 100, 'the cut request wrote past its second block');
  cut.drop();

  const query = () => svc.api('PUT', session.href, { token: null, headers: { 'Content-Range': `bytes */${TOTAL}` } });
  const kept = await query();
  assert.equal(kept.status, 308, kept.text);
  assert.equal(kept.headers.range, `bytes=0-${2 * BLOCK - 1}`);

  await svc.restart();
  const again = await query();
  assert.equal(again.headers.range, `bytes=0-${2 * BLOCK - 1}`, 'the kept blocks survive the restart');
  const rest = await svc.api('PUT', session.href, {
    token: null,
    headers: { 'Content-Range': `bytes ${2 * BLOCK}-${TOTAL - 1}/${TOTAL}` },
    body: CONTENT.subarray(2 * BLOCK),
  });
  assert.equal(rest.status, 200, rest.text);
  const file = rest.json<{ md5Checksum: string; size: string }>();
  assert.deepEqual(
    { md5Checksum: file.md5Checksum, size: file.size },
    { md5Checksum: createHash('md5').update(CONTENT).digest('hex'), size: String(TOTAL) },
  );
}

test('a chunk whose client drops after two blocks and a bit keeps the two blocks; after a restart the upload finishes with the right MD5', () =>
  cutThenFinish('dropped.bin'));

test('a chunk whose client sends a block at a time and waits reaches the disk block by block, and a cut keeps them all', async () => {
  const total = 4 * BLOCK + 500;
  const content = bytesOf(total, 44);
  const start = await svc.api('POST', '/upload/store/v3/files?uploadType=resumable', {
    body: { name: 'block-by-block.bin' },
  });
  assert.equal(start.status, 200, start.text);
  const session = new URL(start.headers.location as string);
  const part = join(svc.dataDir, 'sessions', `${session.searchParams.get('upload_id')}.part`);
  const conn = await openRaw(svc.url);
  await conn.write(
    requestHead('PUT', session.pathname + session.search, {
      Host: 'x',
      'Content-Length': total,
      'Content-Range': `bytes 0-${total - 1}/${total}`,
    }),
  );
  // Each block is sent once the one before it is on disk: every block is written while no other write is under way.
  for (let block = 1; block <= 3; block++) {
    await conn.write(content.subarray((block - 1) * BLOCK, block * BLOCK));
    const until = Date.now() + 20_000;
    while ((!existsSync(part) || statSync(part).size < block * BLOCK) && Date.now() < until)
      await new Promise((r) => setImmediate(r));
    assert.equal(existsSync(part) ? statSync(part).size : 0, block * BLOCK, `block ${block} reached the disk`);
  }
  conn.drop();
  const kept = await svc.api('PUT', session.href, { token: null, headers: { 'Content-Range': `bytes */${total}` } });
  assert.equal(kept.status, 308, kept.text);
  assert.equal(kept.headers.range, `bytes=0-${3 * BLOCK - 1}`);
  const rest = await svc.api('PUT', session.href, {
    token: null,
    headers: { 'Content-Range': `bytes ${3 * BLOCK}-${total - 1}/${total}` },
    body: content.subarray(3 * BLOCK),
  });
  assert.equal(rest.status, 200, rest.text);
  assert.equal(rest.json<{ md5Checksum: string }>().md5Checksum, createHash('md5').update(content).digest('hex'));
});
