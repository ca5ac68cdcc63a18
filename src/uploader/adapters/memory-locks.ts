import type { LockPort, ReleaseLock } from '../contract/ports.ts';

/**
 * Locks inside one JavaScript realm, with the Web Locks semantics the engine relies on (exclusive, FIFO waiters,
 * `ifAvailable`). For Node, where two engines sharing one instance play two tabs, and for browsers without Web Locks.
 */
export class MemoryLocks implements LockPort {
  private readonly holders = new Set<string>();
  private readonly waiters = new Map<string, (() => void)[]>();

  async tryAcquire(key: string): Promise<ReleaseLock | undefined> {
    if (this.holders.has(key)) return undefined;
    return this.grant(key);
  }

  acquire(key: string, signal: AbortSignal): Promise<ReleaseLock> {
    if (signal.aborted) return Promise.reject(signal.reason);
    if (!this.holders.has(key)) return Promise.resolve(this.grant(key));
    return new Promise((resolve, reject) => {
      const queue = this.waiters.get(key) ?? [];
      const wake = () => {
        signal.removeEventListener('abort', onAbort);
        resolve(this.grant(key));
      };
      const onAbort = () => {
        queue.splice(queue.indexOf(wake), 1);
        reject(signal.reason);
      };
      queue.push(wake);
      this.waiters.set(key, queue);
      signal.addEventListener('abort', onAbort, { once: true });
    });
  }

  async held(): Promise<Set<string>> {
    return new Set(this.holders);
  }

  private grant(key: string): ReleaseLock {
    this.holders.add(key);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.holders.delete(key);
      const next = this.waiters.get(key)?.shift();
      if (next) next();
    };
  }
}
