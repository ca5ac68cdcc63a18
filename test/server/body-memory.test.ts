// A streamed request body is not held in memory: the service's peak resident memory over a 160 MiB upload grows by
// far less than the body. Guards the fix of a reader that kept one promise reaction, and with it the chunk it
// resolved to, for every chunk of a body until its end (bench/README.md: a 1 GiB PUT peaked at 1,150 MiB).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, test } from 'node:test';
import { startService, type ServiceHandle } from './helpers/service.ts';

const MiB = 1024 * 1024;
const BODY = 160 * MiB;
/** Generous: the fixed reader's peak grows by tens of MiB, the leaking one by the whole body. */
const MARGIN = 100 * MiB;

let svc: ServiceHandle;
before(async () => {
  svc = await startService();
});
after(() => svc.stop());

/** The process's peak resident set so far (VmHWM), in bytes. */
function peakRss(pid: number): number {
  const m = /^VmHWM:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  assert.ok(m, 'no VmHWM line');
  return Number(m[1]) * 1024;
}

test('a 160 MiB media upload raises the service peak memory by far less than the body', async () => {
  // A first small upload: the peak then counts what any upload needs, not the service's own warm-up.
  const warm = await svc.api('POST', '/upload/store/v3/files?uploadType=media&fields=id', {
    headers: { 'Content-Type': 'application/octet-stream' },
    body: new Uint8Array(MiB),
  });
  assert.equal(warm.status, 200, warm.text);
  const before = peakRss(svc.pid);
  const piece = new Uint8Array(MiB).fill(7);
  async function* body() {
    for (let sent = 0; sent < BODY; sent += MiB) yield piece;
  }
  const up = await svc.api('POST', '/upload/store/v3/files?uploadType=media&fields=id,size', {
    headers: { 'Content-Type': 'application/octet-stream', 'Content-Length': String(BODY) },
    body: body(),
  });
  assert.equal(up.status, 200, up.text);
  assert.equal(up.json().size, String(BODY));
  const grown = peakRss(svc.pid) - before;
  assert.ok(grown < MARGIN, `the peak grew by ${(grown / MiB).toFixed(0)} MiB over a ${BODY / MiB} MiB body`);
});
