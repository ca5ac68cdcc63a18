/**
 * Every file the service opens has an owner that closes it (house rules): after thirty of each kind of request that
 * touches the disk — media uploads, uploads whose write fails, downloads whole and by range, resumable chunks, status
 * queries and cancels — the service holds no more open descriptors than before, give or take a few sockets still
 * closing. The count is the service's own (`/proc/<pid>/fd`, Linux); a handle left to the garbage collector also
 * fails `stop()` (helpers/service.ts), but only if a collection runs, which this count does not wait for.
 */
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { bytesOf } from './helpers/bytes.ts';
import { type ServiceHandle, startService } from './helpers/service.ts';

const ROUNDS = 30;
const SLACK = 10;
const BLOCK = 256 * 1024;

let svc: ServiceHandle;
before(async () => {
  svc = await startService();
});
after(() => svc.stop());

const openFiles = () => readdirSync(`/proc/${svc.pid}/fd`).length;

/** Runs `round` ROUNDS times and asserts the service's open descriptors grew by less than SLACK. */
async function leavesNothingOpen(what: string, round: (i: number) => Promise<void>): Promise<void> {
  await round(-1); // the first of a kind may open what the service keeps for its life (a database statement, a log)
  const before = openFiles();
  for (let i = 0; i < ROUNDS; i++) await round(i);
  const grown = openFiles() - before;
  assert.ok(grown < SLACK, `${grown} more descriptors open after ${ROUNDS} ${what}`);
}

describe('open files', () => {
  it('media uploads', async () => {
    await leavesNothingOpen('media uploads', async (i) => {
      const r = await svc.api('POST', '/upload/store/v3/files?uploadType=media&fields=id', {
        body: `media ${i} `.repeat(200),
        headers: { 'Content-Type': 'text/plain' },
      });
      assert.equal(r.status, 200, r.text);
    });
  });

  it('media uploads whose disk write fails', async () => {
    const r = await svc.api('POST', '/__admin/faults', {
      token: null,
      body: { match: { uploadType: 'media' }, action: { type: 'disk', error: 'EIO', afterBytes: 100 }, times: 1000 },
    });
    assert.equal(r.status, 200, r.text);
    try {
      await leavesNothingOpen('failed media uploads', async () => {
        const failed = await svc.api('POST', '/upload/store/v3/files?uploadType=media', {
          body: 'x'.repeat(5000),
          headers: { 'Content-Type': 'text/plain' },
        });
        assert.equal(failed.status, 503, failed.text);
      });
    } finally {
      assert.equal((await svc.api('DELETE', '/__admin/faults', { token: null })).status, 204);
    }
  });

  it('downloads, whole and by range', async () => {
    const made = await svc.api('POST', '/upload/store/v3/files?uploadType=media&fields=id', {
      body: bytesOf(100_000),
      headers: { 'Content-Type': 'application/octet-stream' },
    });
    const id = (made.json() as { id: string }).id;
    await leavesNothingOpen('downloads', async (i) => {
      const whole = await svc.api('GET', `/store/v3/files/${id}?alt=media`);
      assert.equal(whole.body.length, 100_000);
      const part = await svc.api('GET', `/store/v3/files/${id}?alt=media`, { headers: { Range: `bytes=${i + 1}-99` } });
      assert.equal(part.status, 206, part.text);
    });
  });

  it('resumable chunks, status queries and cancels', async () => {
    await leavesNothingOpen('resumable sessions', async () => {
      const started = await svc.api('POST', '/upload/store/v3/files?uploadType=resumable', {
        body: { name: 'chunks.bin' },
        headers: { 'X-Upload-Content-Length': String(2 * BLOCK) },
      });
      const uri = started.headers.location as string;
      const chunk = await svc.api('PUT', uri, {
        token: null,
        body: bytesOf(BLOCK + 1),
        headers: { 'Content-Range': `bytes 0-${BLOCK}/${2 * BLOCK}` },
      });
      assert.equal(chunk.status, 308, chunk.text);
      const query = await svc.api('PUT', uri, { token: null, body: '', headers: { 'Content-Range': 'bytes */*' } });
      assert.equal(query.status, 308, query.text);
      assert.equal((await svc.api('DELETE', uri, { token: null })).status, 499);
    });
  });

  it('resumable uploads finished in two chunks', async () => {
    const bytes = bytesOf(2 * BLOCK + 10);
    await leavesNothingOpen('finished resumable uploads', async () => {
      const started = await svc.api('POST', '/upload/store/v3/files?uploadType=resumable', {
        body: { name: 'finished.bin' },
      });
      const uri = started.headers.location as string;
      const first = await svc.api('PUT', uri, {
        token: null,
        body: bytes.subarray(0, BLOCK),
        headers: { 'Content-Range': `bytes 0-${BLOCK - 1}/*` },
      });
      assert.equal(first.status, 308, first.text);
      const last = await svc.api('PUT', uri, {
        token: null,
        body: bytes.subarray(BLOCK),
        headers: { 'Content-Range': `bytes ${BLOCK}-${bytes.length - 1}/${bytes.length}` },
      });
      assert.equal(last.status, 200, last.text);
    });
  });
});
