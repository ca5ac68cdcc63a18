import { wrap, type Remote } from 'comlink';
import type { HashWorkerService } from './hash-worker/hash-worker-service.ts';
import type { Md5Preference } from '../engine/hashing/md5-engine.ts';
import type { HasherPort, HashTracker } from '../contract/ports.ts';

/**
 * The hasher port over a second worker: MD5 runs beside the requests instead of in the thread that sends them and
 * reports their progress. The worker starts on the first `open`, so an uploader that never verifies never starts it.
 */
export function workerHasher(start: () => Worker, preference: Md5Preference): HasherPort {
  let remote: Remote<HashWorkerService> | undefined;
  let next = 0;
  return {
    async open(saved, offset, readLimitMs): Promise<HashTracker> {
      remote ??= wrap<HashWorkerService>(start());
      const service = remote;
      const id = next++;
      await service.open(id, preference, saved, offset, readLimitMs);
      return {
        hashTo: (file, end) => service.hashTo(id, file, end),
        stateAt: (file, at) => service.stateAt(id, file, at),
        digest: (file, at) => service.digest(id, file, at),
        abort: () => void service.abort(id),
        close: () => void service.close(id),
      };
    },
  };
}
