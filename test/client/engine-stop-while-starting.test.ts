// A task stopped while its resumable session is still being started — the service holds the start (an admin delay
// fault far longer than the test) — stops at once: a cancel ends it as cancelled, a pause as paused, without waiting
// for the start's answer or for the stall timeout. Real engine, real service over loopback.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startService, type ServiceHandle } from '../server/helpers/service.ts';
import { addFault, clearFaults, harness, randomFile } from './helpers/engine-harness.ts';

let service: ServiceHandle;
before(async () => {
  service = await startService();
});
after(async () => {
  await service.stop();
});

/** Holds the next session start for ten minutes; resolves once the service has it. */
async function holdNextStart(): Promise<void> {
  await clearFaults(service.url);
  await addFault(service.url, {
    match: { method: 'POST', pathPrefix: '/upload/store/v3/files', uploadType: 'resumable' },
    action: { type: 'delay', ms: 600_000 },
    times: 2, // kept listed, with its hit, after the one start it holds
  });
}

async function startHeld(): Promise<void> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const { faults } = (await (await fetch(`${service.url}/__admin/faults`)).json()) as { faults: { hits: number }[] };
    if (faults[0]?.hits === 1) return;
    assert.ok(Date.now() < deadline, 'the session start never reached the service');
    await new Promise((resolve) => setImmediate(resolve));
  }
}

for (const stop of ['cancel', 'pause'] as const) {
  test(`a ${stop} while the session start is held ends the wait at once`, { timeout: 30_000 }, async () => {
    await holdNextStart();
    // A stall limit far past the test's own: only the stop itself can end the wait in time.
    const h = harness(service.url, { resumableThreshold: 0, stallTimeoutMs: 120_000 });
    await h.engine.add('held', randomFile(300 * 1024));
    await startHeld();
    const state = stop === 'cancel' ? 'cancelled' : 'paused';
    const stopped = h.when((_e, s) => s.state === state);
    if (stop === 'cancel') await h.engine.cancel('held');
    else h.engine.pause('held');
    const snapshot = await stopped;
    assert.equal(snapshot.bytesAcknowledged, 0);
  });
}
