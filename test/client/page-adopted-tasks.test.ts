// A page that attaches to a shared engine with a task under way (another page of the site added it) lists that task
// once, hears its end and shows it done, in Node against the real service: two page uploaders over one set of engine
// hubs, as two tabs over the site's shared worker (issue 39's mutant of page/task-table.ts `has`, which the adopting
// page's catch-up asks before listing a task).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { MemoryLocks } from '../../src/uploader/adapters/memory-locks.ts';
import { MemorySessionStore } from '../../src/uploader/adapters/memory-session-store.ts';
import { systemClock } from '../../src/uploader/adapters/system-clock.ts';
import { withTimeout } from '../../src/uploader/contract/with-timeout.ts';
import type { Uploader, UploaderSnapshot } from '../../src/uploader/contract/types.ts';
import { createUploader } from '../../src/uploader/page/create-uploader.ts';
import { EngineHubs } from '../../src/uploader/worker/worker-service.ts';
import { addFault, download, TOKEN } from './helpers/engine-harness.ts';
import { nodeHttp } from './helpers/node-http-port.ts';
import { PageService, pageSuite, seededFile } from './helpers/page-uploader.ts';

const KiB = 1024;
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
      new Promise<UploaderSnapshot>((resolve) => waiters.push({ test, resolve })),
      30_000,
      () => new Error(`no change with ${what} within 30 s`),
    );
  return { seen, when };
}

test('a page attaching while another page’s task uploads lists it once and shows it done', async () => {
  const store = new MemorySessionStore();
  const locks = new MemoryLocks();
  const hubs = new EngineHubs(() => ({ http: nodeHttp, store, clock: systemClock, locks }), 'shared');
  const page = () =>
    createUploader({
      baseUrl: suite.service.url,
      getAccessToken: () => TOKEN,
      service: new PageService(hubs),
      chunkSize: 256 * KiB,
      resumableThreshold: 0,
    });
  const a = page();
  const b: Uploader[] = [];
  try {
    await addFault(suite.service.url, {
      match: { method: 'PUT', uploadType: 'resumable' },
      action: { type: 'delay', ms: 150 },
      times: 6,
    });
    const file = seededFile(4 * 256 * KiB, 31, 'adopted.bin');
    const task = a.add(file);
    const fromA = changes(a);
    await fromA.when('bytes acknowledged', (s) => s.tasks.some((t) => t.bytesAcknowledged > 0));

    b.push(page());
    const fromB = changes(b[0]!);
    const listed = await fromB.when('the task listed', (s) => s.tasks.some((t) => t.id === task.id));
    assert.deepEqual(
      listed.tasks.map((t) => t.id),
      [task.id],
    );
    const stored = await task.done;
    const done = await fromB.when('the task done', (s) => s.tasks.some((t) => t.state === 'done'));
    assert.deepEqual(
      done.tasks.map((t) => [t.id, t.state]),
      [[task.id, 'done']],
    );
    for (const snapshot of fromB.seen)
      assert.equal(new Set(snapshot.tasks.map((t) => t.id)).size, snapshot.tasks.length, 'no task listed twice');
    assert.deepEqual(await download(suite.service.url, stored.id), Buffer.from(await file.arrayBuffer()));
  } finally {
    a.destroy();
    for (const u of b) u.destroy();
  }
});
