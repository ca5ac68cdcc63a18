import type { ClockPort } from './ports.ts';

/**
 * Settles as `work` does, or rejects with `timedOut()` once `ms` have passed: every wait of the uploader on something
 * with no limit of its own (another thread's answer, a page's token, IndexedDB, reading the file) has one, so nothing
 * waits forever on a thread, a database or a file that stopped answering. The engine passes its `clock` (tests drive
 * time through it); the page and the hub use the platform's timers.
 */
export async function withTimeout<T>(
  work: Promise<T>,
  ms: number,
  timedOut: () => Error,
  clock?: Pick<ClockPort, 'sleep'>,
): Promise<T> {
  const stop = new AbortController();
  const sleep =
    clock?.sleep(ms, stop.signal) ??
    new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      stop.signal.addEventListener('abort', () => clearTimeout(timer));
    });
  const expired = sleep.then(() => Promise.reject(timedOut()));
  expired.catch(() => undefined); // settled by `work` first: the abort below ends the sleep, unheard
  try {
    return await Promise.race([work, expired]);
  } finally {
    stop.abort();
  }
}
