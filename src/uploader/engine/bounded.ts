import type { ClockPort } from '../ports.ts';

/**
 * Settles as `work` does, or rejects with `timedOut()` once `ms` have passed on the engine's clock: every wait of the
 * engine on something outside it that has no limit of its own (IndexedDB, reading the file, a lock) gets one, so a
 * task never waits forever on a thread, a database or a file that stopped answering.
 */
export async function bounded<T>(work: Promise<T>, ms: number, clock: ClockPort, timedOut: () => Error): Promise<T> {
  const stop = new AbortController();
  const expired = clock.sleep(ms, stop.signal).then(() => Promise.reject(timedOut()));
  expired.catch(() => undefined);
  try {
    return await Promise.race([work, expired]);
  } finally {
    stop.abort();
  }
}
