// A page attaching to a shared engine that has run tasks for another page (src/uploader/page/main-thread-uploader.ts):
// its catch-up lists what still runs there, not what ended while the other page watched it; and when its account
// changes, the previous account's tasks leave its list — those it never listed included — and the call resolves.
// Two page uploaders over one set of engine hubs, as two tabs over the site's shared worker, against the real service.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { MemoryLocks } from '../../src/uploader/adapters/memory-locks.ts';
import { MemorySessionStore } from '../../src/uploader/adapters/memory-session-store.ts';
import { systemClock } from '../../src/uploader/adapters/system-clock.ts';
import { withTimeout } from '../../src/uploader/contract/with-timeout.ts';
import type { Uploader, UploaderSnapshot } from '../../src/uploader/contract/types.ts';
import { createUploader } from '../../src/uploader/page/create-uploader.ts';
import { EngineHubs } from '../../src/uploader/worker/worker-service.ts';
import { addFault, TOKEN } from './helpers/engine-harness.ts';
import { nodeHttp } from './helpers/node-http-port.ts';
import { PageService, pageSuite, seededFile } from './helpers/page-uploader.ts';

const KiB = 1024;
const BOB = 'dev-token-bob';
const suite = pageSuite();

/** Every snapshot a page's `change` events carried, and a wait for one that `test` picks. */
function changes(uploader: Uploader) {
  const seen: UploaderSnapshot[] = [];
  const waiters: { test: (s: UploaderSnapshot) => boolean; resolve: (s: UploaderSnapshot) => void }[] = [];
  uploader.addEventListener('change', (event) => {
    const snapshot = (event as CustomEvent<UploaderSnapshot>).detail;
    seen.push(snapshot);
    for (const w of [...waiters]) {
      if (!w.test(snapshot)) continue;
      waiters.splice(waiters.indexOf(w), 1);
      w.resolve(snapshot);
    }
  });
  const when = (what: string, test: (s: UploaderSnapshot) => boolean) =>
    withTimeout(
      new Promise<UploaderSnapshot>((resolve) => {
        if (seen.some(test)) resolve(seen.find(test)!);
        else waiters.push({ test, resolve });
      }),
      30_000,
      () => new Error(`no change with ${what} within 30 s`),
    );
  return { seen, when };
}

test('a page attaching lists the task still running, not the one that ended before it came; when its account changes, both leave and the call resolves', async () => {
  const store = new MemorySessionStore();
  const locks = new MemoryLocks();
  const hubs = new EngineHubs(() => ({ http: nodeHttp, store, clock: systemClock, locks }), 'shared');
  const signedIn = { token: TOKEN };
  const page = () =>
    createUploader({
      baseUrl: suite.service.url,
      getAccessToken: () => signedIn.token,
      service: new PageService(hubs),
      chunkSize: 256 * KiB,
      resumableThreshold: 0,
    });
  const a = page();
  const made: Uploader[] = [a];
  try {
    // Ended while page A watched it: the next page of the site does not start with it.
    const ended = a.add(seededFile(1000, 51, 'ended-before.bin'));
    await ended.done;
    await addFault(suite.service.url, {
      match: { method: 'PUT', uploadType: 'resumable' },
      action: { type: 'delay', ms: 150 },
      times: 6,
    });
    const running = a.add(seededFile(4 * 256 * KiB, 52, 'running.bin'));
    await changes(a).when('bytes acknowledged', (s) =>
      s.tasks.some((t) => t.id === running.id && t.bytesAcknowledged > 0),
    );

    const b = page();
    made.push(b);
    const fromB = changes(b);
    await fromB.when('the running task listed', (s) => s.tasks.some((t) => t.id === running.id));
    await running.done;
    const done = await fromB.when('the running task done', (s) =>
      s.tasks.some((t) => t.id === running.id && t.state === 'done'),
    );
    assert.deepEqual(
      done.tasks.map((t) => t.id),
      [running.id],
    );
    for (const snapshot of fromB.seen)
      assert.ok(!snapshot.tasks.some((t) => t.id === ended.id), 'the task that ended before page B came is not listed');
    assert.deepEqual(
      b.snapshot.tasks.map((t) => t.id),
      [running.id],
    );

    // Another account signs in on page B: Alice's tasks leave its list, the one it never listed included.
    signedIn.token = BOB;
    await withTimeout(b.accountChanged(), 30_000, () => new Error('accountChanged did not resolve'));
    assert.deepEqual(b.snapshot.tasks, []);
  } finally {
    for (const u of made) u.destroy();
  }
});
