/**
 * Storage faults of the `--admin` fault injection, scoped to one request: its file writes fail after N bytes with a
 * given errno (a short write first, as a filling disk does), go at a given rate (a slow disk), or its SQLite
 * transactions fail as on a full database. The request's handler runs inside the scope (AsyncLocalStorage), so the
 * writes its body causes, even those a background write carries on, meet the fault; other requests do not.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { setTimeout as sleep } from 'node:timers/promises';

/** errno codes a disk fault can fail a write with. */
export const DISK_ERRORS = ['ENOSPC', 'EDQUOT', 'EFBIG', 'EIO'] as const;
/** SQLite result codes a database fault can fail a transaction with. */
export const SQLITE_ERRORS = ['SQLITE_FULL', 'SQLITE_IOERR_WRITE'] as const;

/** What one request's storage does. */
export interface StorageFaultPlan {
  /** Writes fail with this errno once `afterBytes` bytes have been written. */
  readonly disk?: { readonly error: (typeof DISK_ERRORS)[number]; readonly afterBytes: number };
  /** Writes go at most this fast. */
  readonly bytesPerSecond?: number;
  /** Every SQLite transaction fails with this code. */
  readonly sqlite?: (typeof SQLITE_ERRORS)[number];
}

interface Scope {
  readonly plan: StorageFaultPlan;
  written: number;
}

const scope = new AsyncLocalStorage<Scope>();

/** Runs `fn` (a request's handler) with its storage under `plan`; at once without one. */
export function withStorageFaults<T>(plan: StorageFaultPlan | undefined, fn: () => Promise<T>): Promise<T> {
  return plan ? scope.run({ plan, written: 0 }, fn) : fn();
}

/**
 * Called before each file write of `length` bytes: waits as a slow disk would, and returns how many of them may be
 * written (fewer: a short write), or throws the disk fault's errno when none may.
 */
export async function allowWrite(length: number): Promise<number> {
  const current = scope.getStore();
  if (!current) return length;
  const { disk, bytesPerSecond } = current.plan;
  let allowed = length;
  if (disk) {
    allowed = Math.min(length, disk.afterBytes - current.written);
    if (allowed <= 0) {
      throw Object.assign(new Error(`${disk.error}: injected storage fault, write`), {
        code: disk.error,
        syscall: 'write',
      });
    }
  }
  // A slow disk takes time by definition.
  if (bytesPerSecond !== undefined) await sleep(Math.ceil((allowed * 1000) / bytesPerSecond));
  current.written += allowed;
  return allowed;
}

/**
 * Called as a metadata transaction starts (either backend): throws the database fault's error, as SQLite would on a
 * full disk (PostgreSQL's own disk-full error is answered the same way).
 */
export function checkDatabaseWrite(): void {
  const code = scope.getStore()?.plan.sqlite;
  if (code) throw Object.assign(new Error(`injected storage fault: ${code}`), { code });
}
