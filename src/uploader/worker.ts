/**
 * The upload worker's composition root: the browser's adapters are chosen here, once the page's options arrive, and
 * one `UploadWorkerService` is exposed to the main thread (comlink).
 */
import { expose } from 'comlink';
import { broadcastChannel } from './adapters/broadcast-channel.ts';
import { IdbSessionStore } from './adapters/idb-session-store.ts';
import { MemorySessionStore } from './adapters/memory-session-store.ts';
import { systemClock } from './adapters/system-clock.ts';
import { webLocks } from './adapters/web-locks.ts';
import { workerHasher } from './adapters/worker-hasher.ts';
import { xhrHttp } from './adapters/xhr-http.ts';
import { lazyInThreadHasher } from './hashing/lazy-hasher.ts';
import { startWorker } from './trusted-worker.ts';
import { UploadWorkerService, type EnginePorts, type WorkerUploaderOptions } from './worker-service.ts';

async function browserPorts(options: WorkerUploaderOptions): Promise<EnginePorts> {
  const md5 = options.wasm === false ? 'js' : 'auto';
  // MD5 runs in a second worker where workers can start workers, so it never holds up the requests' thread.
  const hasher =
    typeof Worker === 'function'
      ? workerHasher(() => startWorker(() => new Worker(new URL('./hashing/hash-worker.js', import.meta.url), { type: 'module' })), md5)
      : lazyInThreadHasher(md5);
  return {
    http: xhrHttp,
    // Persistent storage is asked for by the facade: `navigator.storage.persist()` exists only in windows.
    store: (options.persist ?? true) ? new IdbSessionStore() : new MemorySessionStore(),
    clock: systemClock,
    // Without Web Locks (old browsers) each tab locks alone; that fallback is loaded only there.
    locks: navigator.locks ? webLocks(navigator.locks) : new (await import('./adapters/memory-locks.ts')).MemoryLocks(),
    ...(typeof BroadcastChannel === 'function' && { channel: broadcastChannel() }),
    ...((options.verify ?? true) && { hasher }),
  };
}

expose(new UploadWorkerService(browserPorts));
