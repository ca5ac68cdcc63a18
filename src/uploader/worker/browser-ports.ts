/**
 * The browser's adapters for an engine, chosen in the worker that hosts it once its settings arrive: XHR, IndexedDB,
 * Web Locks, BroadcastChannel, and the MD5 hash worker where this worker can start workers.
 */
import { broadcastChannel } from '../adapters/broadcast-channel.ts';
import { IdbSessionStore } from '../adapters/idb-session-store.ts';
import { MemorySessionStore } from '../adapters/memory-session-store.ts';
import { systemClock } from '../adapters/system-clock.ts';
import { webLocks } from '../adapters/web-locks.ts';
import { workerHasher } from './worker-hasher.ts';
import { xhrHttp } from '../adapters/xhr-http.ts';
import type { EnginePorts } from './engine-hub.ts';
import { lazyInThreadHasher } from '../engine/hashing/lazy-hasher.ts';
import type { UploaderSettings } from '../contract/settings.ts';
import { startWorker } from '../contract/trusted-worker.ts';

/**
 * `nestedWorkers: false` keeps MD5 in the engine's thread even where `Worker` exists: a shared worker's. Chromium's
 * shared workers have none; WebKit's and Firefox's do, but in-thread MD5 is the setup the smoke suite passes there
 * (in Firefox ESR a shared worker's thread was seen hung for good right after it would have started one: issue 20).
 */
export async function browserPorts(
  settings: UploaderSettings,
  { nestedWorkers = true }: { nestedWorkers?: boolean } = {},
): Promise<EnginePorts> {
  const md5 = settings.wasm ? 'auto' : 'js';
  // MD5 runs in a second worker where a dedicated worker can start one, so it never holds up the requests' thread.
  const hasher =
    nestedWorkers && typeof Worker === 'function'
      ? workerHasher(
          () =>
            startWorker(() => new Worker(new URL('./hash-worker/hash-worker.js', import.meta.url), { type: 'module' })),
          md5,
        )
      : lazyInThreadHasher(md5);
  return {
    http: xhrHttp,
    // Persistent storage is asked for by the facade: `navigator.storage.persist()` exists only in windows.
    store: settings.persist ? new IdbSessionStore() : new MemorySessionStore(),
    clock: systemClock,
    // Without Web Locks (old browsers) each tab locks alone; that fallback is loaded only there.
    locks: navigator.locks
      ? webLocks(navigator.locks)
      : new (await import('../adapters/memory-locks.ts')).MemoryLocks(),
    ...(typeof BroadcastChannel === 'function' && { channel: broadcastChannel() }),
    ...(settings.verify && { hasher }),
  };
}
