/** Typed in-process events fired after every committed file mutation (push delivery subscribes). */

/** What kind of change happened to a file (spec §6.2 file states). */
export type FileEventType = 'add' | 'remove' | 'update' | 'trash' | 'untrash';
/** What changed (spec §6.3; `children` is derived by subscribers from `parentIds`). */
export type FileChange = 'content' | 'properties' | 'parents' | 'permissions';

/** One committed mutation. */
export interface FileEvent {
  readonly type: FileEventType;
  readonly fileId: string;
  readonly changed: readonly FileChange[];
  /** Parents before and after the change, deduplicated (a folder's watchers get `children`). */
  readonly parentIds: readonly string[];
  /** E-mail of the user who made the change. */
  readonly byUser: string;
  /** Change-log sequence number recorded for this mutation. */
  readonly seq: number;
  /**
   * Set on the events of one group commit (`store/commit-group.ts`), which are fired together once the group is
   * committed: they all see the same committed state, so what a listener computes from that state for one of them
   * holds for the others (push computes a file's audience once per group, not once per change).
   */
  readonly group?: EventGroup;
}

/** Work shared by the events of one group commit. */
export interface EventGroup {
  /** The value computed for `key` by the first event of the group that asked; `compute` runs once. */
  memo<T>(key: string, compute: () => T): T;
}

class MemoGroup implements EventGroup {
  readonly #memo = new Map<string, unknown>();

  /** The value computed for `key` by the first event of the group that asked; `compute` runs once. */
  memo<T>(key: string, compute: () => T): T {
    if (this.#memo.has(key)) return this.#memo.get(key) as T;
    const value = compute();
    this.#memo.set(key, value);
    return value;
  }
}

/**
 * A listener; errors it throws are reported to stderr and never break the mutation. The change's answer waits for
 * what it returns (push writes its messages to the outbox before the change is answered).
 */
export type FileEventListener = (event: FileEvent) => void | Promise<void>;

/** The emitter: `on` returns an unsubscribe function. */
export class FileEvents {
  readonly #listeners = new Set<FileEventListener>();
  /** Events of an open group commit, handed over by {@link FileEvents.take} once it is committed. */
  #held: FileEvent[] | undefined;

  /** Subscribes; returns a function that unsubscribes. */
  on(listener: FileEventListener): () => void {
    const wrapped: FileEventListener = async (event) => {
      try {
        await listener(event);
      } catch (e) {
        console.error('store-service: file event listener failed:', e);
      }
    };
    this.#listeners.add(wrapped);
    return () => void this.#listeners.delete(wrapped);
  }

  async #fire(event: FileEvent): Promise<void> {
    for (const listener of [...this.#listeners]) await listener(event);
  }

  /**
   * Fires an event; call only after the mutation is committed. While a group commit is open its commits are not yet
   * durable, so the event waits for {@link FileEvents.take}: no watcher hears of a change a crash could undo.
   */
  async emit(event: FileEvent): Promise<void> {
    if (this.#held) this.#held.push(event);
    else await this.#fire(event);
  }

  /** Holds events from now on (a group commit opened). */
  hold(): void {
    this.#held ??= [];
  }

  /**
   * Stops holding and hands over the held events (the group committed), for {@link FileEvents.fireGroup}. Apart from
   * firing them, so that an emitter whose firing fails (its transaction could not start) still holds no more.
   */
  take(): readonly FileEvent[] {
    const held = this.#held ?? [];
    this.#held = undefined;
    return held;
  }

  /** Fires the events of one committed group, in order and as one {@link EventGroup}. */
  async fireGroup(events: readonly FileEvent[]): Promise<void> {
    const group = new MemoGroup();
    for (const event of events) await this.#fire({ ...event, group });
  }

  /** Forgets the held events (the group was rolled back: none of their changes happened); stops holding. */
  discard(): void {
    this.#held = undefined;
  }
}
