import type { LockPort, ReleaseLock } from '../contract/ports.ts';

/**
 * The lock port over the Web Locks API (`navigator.locks`, in windows and workers). A granted lock is held by a
 * promise that stays pending until `release` is called; the browser also releases it when the tab goes away.
 */
export function webLocks(locks: LockManager): LockPort {
  const request = (key: string, options: LockOptions): Promise<ReleaseLock | undefined> =>
    new Promise((resolve, reject) => {
      locks
        .request(key, options, (lock) => {
          if (!lock) return resolve(undefined);
          return new Promise<void>((release) => resolve(() => release()));
        })
        .catch(reject);
    });
  return {
    tryAcquire: (key) => request(key, { ifAvailable: true }),
    async acquire(key, signal) {
      if (signal.aborted) throw signal.reason;
      try {
        return (await request(key, { signal }))!;
      } catch (error) {
        // The API rejects with its own AbortError; the engine reads the reason it gave the signal.
        throw signal.aborted ? signal.reason : error;
      }
    },
    async held() {
      const state = await locks.query();
      return new Set((state.held ?? []).map((lock) => lock.name ?? ''));
    },
  };
}
