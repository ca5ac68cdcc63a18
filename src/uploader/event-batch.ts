import type { TaskSnapshot } from './types.ts';
import type { JobEvent } from './upload-job.ts';

/** One task event as it crosses to the main thread. */
export type TaskEvent = readonly [event: JobEvent, snapshot: TaskSnapshot];

/**
 * Events wait at most this long in the worker, so the page hears about every task at most once a frame: with
 * 10,000 small files a message per event was hundreds of messages (and replies) a second on the main thread.
 */
const BATCH_MS = 16;

/**
 * Collects the engine's task events and hands them over in batches, in order. A progress event replaces the same
 * task's last waiting event when that is a progress event with the same acknowledged bytes (only bytes on the wire
 * moved: the latest figure is enough); every other event is kept, so each acknowledged chunk is still heard. `flush()` sends what is waiting at once: the service calls it before answering `result()`, so a task's
 * events always reach the page before the end of its attempt does.
 */
export class EventBatch {
  #events: TaskEvent[] = [];
  /** Where each task's last waiting event is in `#events`. */
  #last = new Map<string, number>();
  #timer: ReturnType<typeof setTimeout> | undefined;
  readonly #send: (events: TaskEvent[]) => void;

  constructor(send: (events: TaskEvent[]) => void) {
    this.#send = send;
  }

  /** Queues one event (the engine's `onEvent`). */
  readonly push = (event: JobEvent, snapshot: TaskSnapshot): void => {
    const at = this.#last.get(snapshot.id);
    if (event === 'progress' && at !== undefined) {
      const [waiting, before] = this.#events[at]!;
      if (waiting === 'progress' && before.bytesAcknowledged === snapshot.bytesAcknowledged) {
        this.#events[at] = [event, snapshot];
        return;
      }
    }
    this.#last.set(snapshot.id, this.#events.push([event, snapshot]) - 1);
    this.#timer ??= setTimeout(this.flush, BATCH_MS);
  };

  /** Sends every waiting event now. */
  readonly flush = (): void => {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    if (this.#events.length === 0) return;
    const events = this.#events;
    this.#events = [];
    this.#last.clear();
    this.#send(events);
  };
}
