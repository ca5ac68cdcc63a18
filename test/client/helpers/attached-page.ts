// A page attached to a worker's `EngineHubs` as `createUploader` attaches one, for Node tests of the shared engine:
// its own `UploadWorkerService`, the events it hears in order, its list as those events build it, and a way to wait
// for an event. The engine runs against the real reference service at `baseUrl`.
import { MemoryLocks } from '../../../src/uploader/adapters/memory-locks.ts';
import { MemorySessionStore } from '../../../src/uploader/adapters/memory-session-store.ts';
import { systemClock } from '../../../src/uploader/adapters/system-clock.ts';
import { EngineHubs, UploadWorkerService } from '../../../src/uploader/worker/worker-service.ts';
import type { UploaderOptions } from '../../../src/uploader/contract/options.ts';
import { resolveSettings } from '../../../src/uploader/contract/settings.ts';
import type { TaskSnapshot } from '../../../src/uploader/contract/types.ts';
import type { PageEvent, PageState } from '../../../src/uploader/contract/worker-contract.ts';
import { nodeHttp } from './node-http-port.ts';

const KiB = 1024;

/** The engines of one site's shared worker, over one session store (returned, for tests that read it). */
export function sharedWorker(store = new MemorySessionStore()): { store: MemorySessionStore; hubs: EngineHubs } {
  const locks = new MemoryLocks();
  return { store, hubs: new EngineHubs(() => ({ http: nodeHttp, store, clock: systemClock, locks }), 'shared') };
}

/** Attaches a page: resumable 256 KiB chunks and a short backoff unless `options` say otherwise. */
export async function attachedPage(
  hubs: EngineHubs,
  options: Partial<UploaderOptions> & { baseUrl: string },
  getAccessToken: () => string | Promise<string>,
  state: PageState = {},
) {
  const events: [PageEvent, TaskSnapshot][] = [];
  const listed = new Map<string, TaskSnapshot>();
  const waiters: { test: (e: PageEvent, s: TaskSnapshot) => boolean; resolve: (s: TaskSnapshot) => void }[] = [];
  const settings = resolveSettings({
    getAccessToken,
    chunkSize: 256 * KiB,
    resumableThreshold: 0,
    backoff: { baseMs: 20, capMs: 200 },
    ...options,
  });
  const connection = new UploadWorkerService(hubs);
  const attachment = await connection.init(
    settings,
    getAccessToken,
    (event, snapshot) => {
      events.push([event, snapshot]);
      if (event === 'left' || event === 'removed') listed.delete(snapshot.id);
      else listed.set(snapshot.id, snapshot);
      for (const w of [...waiters])
        if (w.test(event, snapshot)) {
          waiters.splice(waiters.indexOf(w), 1);
          w.resolve(snapshot);
        }
    },
    undefined,
    state,
  );
  for (const task of attachment.tasks) listed.set(task.id, task);
  const when = (test: (e: PageEvent, s: TaskSnapshot) => boolean) =>
    new Promise<TaskSnapshot>((resolve) => waiters.push({ test, resolve }));
  return { connection, attachment, events, listed, when, settings };
}
