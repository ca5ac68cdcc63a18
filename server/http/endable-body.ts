/**
 * A request body the service can end early with an answer: a resumable session's older request, superseded by a
 * newer one, stops reading its body and is answered (a readable 503) instead of losing its connection unanswered.
 * The rest of its body is then discarded by the lingering close, as for any answer given before the body ended.
 */
import type { ApiError } from '../errors.ts';
import type { BodyFraming } from './lingering-close.ts';

/** A body's framing that can also be ended on purpose. */
export interface EndableFraming extends BodyFraming {
  /** Ends the body: its reader's next wait (or the one in progress) fails with `answer`. */
  end(answer: ApiError): void;
}

/** Wraps `framing` so the body can be ended with `end` as well as by a framing error. */
export function endable(framing: BodyFraming): EndableFraming {
  let ended: ApiError | undefined;
  const listeners = new Set<(error: ApiError) => void>();
  return {
    get error() {
      return ended ?? framing.error;
    },
    onBroken(listener) {
      listeners.add(listener);
      const stop = framing.onBroken(listener);
      return () => {
        listeners.delete(listener);
        stop();
      };
    },
    end(answer) {
      if (ended) return;
      ended = answer;
      for (const listener of [...listeners]) listener(answer);
      listeners.clear();
    },
  };
}

/** `next`, or the framing's answer if the body is ended or its framing breaks first; nothing of this wait outlives it. */
export async function untilBroken<T>(next: Promise<T>, framing: BodyFraming): Promise<T> {
  let stop = (): unknown => undefined;
  const broken = new Promise<never>((_, reject) => (stop = framing.onBroken(reject)));
  try {
    return await Promise.race([next, broken]);
  } finally {
    stop();
  }
}
