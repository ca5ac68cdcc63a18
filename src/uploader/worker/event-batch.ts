import type { TaskSnapshot } from '../contract/types.ts';
import type { PageEvent, TaskEvent } from '../contract/worker-contract.ts';

/** Collects task events and sends them in batches: `push` is the engine's `onEvent`; `flush` sends at once. */
export interface EventBatch {
  push: (event: PageEvent, snapshot: TaskSnapshot) => void;
  flush(): void;
}

/**
 * Events wait at most this long in the worker, so the page hears about its tasks at most once a frame: with
 * 10,000 small files a message per event was hundreds of messages (and replies) a second on the main thread.
 */
const BATCH_MS = 16;

/**
 * Hands the engine's task events over in batches, in order (every event is kept: a progress event comes about
 * every 50 ms per request, so there is little to merge). The service flushes before answering `result()`, so a
 * task's events reach the page before its end does.
 */
export function eventBatch(send: (events: TaskEvent[]) => void): EventBatch {
  const events: TaskEvent[] = [];
  let timer: ReturnType<typeof setTimeout> | undefined;
  // A timer still pending after an early flush is left to run: it finds nothing, or what came since.
  const flush = (): void => {
    timer = undefined;
    if (events.length) send(events.splice(0));
  };
  return {
    push: (event, snapshot) => {
      events.push([event, snapshot]);
      timer ??= setTimeout(flush, BATCH_MS);
    },
    flush,
  };
}
