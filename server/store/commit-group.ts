/**
 * Group commit: the changes of many calls (the inner calls of a batch) share one SQLite transaction, so they cost one
 * WAL write instead of one each, and their push bookkeeping another one instead of one each. Only a backend that
 * offers it (`MetadataDb.group`: SQLite) groups; over PostgreSQL every call commits on its own and this is a no-op.
 *
 * How it keeps every guarantee of separate commits:
 * - Each call's own transaction (`MetadataDb.transaction`) runs as a savepoint inside the group, so a failing call (404, 403, 400)
 *   rolls back only its own changes, and access is still checked inside the (savepoint) transaction that commits.
 * - Nothing is answered before it is durable: `dispatch` waits for {@link CommitGroup.durable} before it returns an
 *   answer (the batch waits once, for the whole batch). A change is durable against `kill -9` once its COMMIT has
 *   written it to the WAL (`synchronous = NORMAL`, see `metadata/sqlite-metadata.ts`), exactly as for a single call.
 * - File events (push, change log) are held while the group is open and fired once it has committed, so no watcher
 *   hears of a change a crash could still undo; content removals after a commit wait the same way.
 * - A group never outlives the event-loop turn it opened in: whatever a call does after real I/O (a delay fault)
 *   runs after the group committed, as an ordinary transaction. Other requests whose code runs inside that turn join
 *   the group and, like the batch, answer only after it committed.
 * - If the group's COMMIT fails, everything in it is rolled back, its events are dropped and every answer waiting on
 *   it, or running while it failed, fails (500) instead of claiming a change that did not happen.
 */
import type { MetadataDb } from '../metadata/metadata-port.ts';
import type { FileEvents } from '../events.ts';

interface OpenGroup {
  readonly committed: Promise<void>;
  readonly resolve: () => void;
  readonly reject: (error: unknown) => void;
  /** Work to do once the group's changes are durable (removals of released content). */
  readonly after: (() => void)[];
}

const DURABLE = Promise.resolve();

/** The group commit of one database. */
export class CommitGroup {
  readonly #db: MetadataDb;
  readonly #events: FileEvents;
  #open: OpenGroup | undefined;
  #failures = 0;

  constructor(db: MetadataDb, events: FileEvents) {
    this.#db = db;
    this.#events = events;
  }

  /**
   * How many group commits failed so far. A call that was running while one failed may have had its change in it:
   * `dispatch` compares this count from before and after a call and answers 500 when it moved.
   */
  get failures(): number {
    return this.#failures;
  }

  /** True while a group is open. */
  get isOpen(): boolean {
    return this.#open !== undefined;
  }

  /**
   * Opens a group (or joins the open one): from now until {@link CommitGroup.close} or the end of this event-loop
   * turn, commits become savepoints of one transaction.
   */
  open(): void {
    const port = this.#db.group;
    if (!port || this.#open || port.busy) return;
    let resolve!: () => void;
    let reject!: (error: unknown) => void;
    const committed = new Promise<void>((res, rej) => {
      resolve = res;
      reject = rej;
    });
    // Whoever waits sees the failure; the promise itself must not count as an unhandled rejection.
    committed.catch(() => undefined);
    port.begin();
    this.#events.hold();
    const group: OpenGroup = { committed, resolve, reject, after: [] };
    this.#open = group;
    setImmediate(() => {
      if (this.#open === group) void this.close();
    });
  }

  /** Commits the open group now (nothing when none is open), then fires its events in one more transaction. */
  async close(): Promise<void> {
    const group = this.#open;
    const port = this.#db.group;
    if (!group || !port) return;
    this.#open = undefined;
    try {
      await port.commit();
    } catch (error) {
      port.rollback();
      this.#events.discard();
      this.#failures++;
      console.error('store-service: a group commit failed; its calls are answered 500:', error);
      group.reject(error);
      return;
    }
    // Taken before their transaction starts: when it cannot (a full disk), they are lost as a single call's would be,
    // and the emitter stops holding, so later changes are still heard.
    const held = this.#events.take();
    try {
      // Push bookkeeping of every change in the group: one transaction, as each single call has its own.
      await this.#db.transaction(() => this.#events.fireGroup(held));
    } catch (error) {
      console.error('store-service: recording the events of a group commit failed:', error);
    }
    for (const fn of group.after) {
      try {
        fn();
      } catch (error) {
        // Follow-up work (removing released content, sending push) must not keep the group's answers waiting.
        console.error('store-service: work after a group commit failed:', error);
      }
    }
    group.resolve();
  }

  /** Resolves once every change made so far is durable (at once when no group is open); rejects if it never will be. */
  durable(): Promise<void> {
    return this.#open?.committed ?? DURABLE;
  }

  /** Runs `fn` once every change made so far is durable: at once, or after the open group commits (never if it fails). */
  afterCommit(fn: () => void): void {
    if (this.#open) this.#open.after.push(fn);
    else fn();
  }
}
