import type { HeldCommand } from '../contract/worker-contract.ts';

/**
 * How long a task waits for its page's end of turn (`turnEnded`) before it may start anyway: a page always sends it in
 * the microtask after its adds, so only a page that died inside that turn makes a task wait this long.
 */
const TURN_WAIT_MS = 5_000;

/**
 * The tasks one page is adding that have not reached their engine yet, with the command given each meanwhile
 * (issue 40). A pause or cancel the page gives in the turn of `add()` comes in the add's message or in a message behind
 * it on the same port; but the worker may finish an add — and an engine with file IDs at hand send its create — within
 * the one task that handles the add's message, before the next message is read. So a page that says it does
 * (`PageState.turns`) ends each turn of adds with `turnEnded`, and its tasks start only after that message: every
 * command of that turn has arrived by then, as messages of one port keep their order.
 */
export class ArrivingTasks {
  readonly #held = new Map<string, HeldCommand | undefined>();
  /** Releases the tasks added since the page's last end of turn. */
  #turn: (() => void)[] = [];
  /** True when the page ends its turns of adds with `turnEnded`. */
  turns = false;

  /**
   * A task on its way, with what the page gave it so far: returns what its engine asks, as it makes the task, for the
   * command to apply before it may start (after the page's turn ended).
   */
  arrive(taskId: string, held: HeldCommand | undefined): () => Promise<HeldCommand | undefined> {
    this.#held.set(taskId, held);
    const turnEnded = this.turns ? new Promise<void>((resolve) => this.#turn.push(resolve)) : undefined;
    return async () => {
      if (turnEnded) {
        let timer: ReturnType<typeof setTimeout> | undefined;
        await Promise.race([turnEnded, new Promise<void>((resolve) => (timer = setTimeout(resolve, TURN_WAIT_MS)))]);
        clearTimeout(timer);
      }
      return this.take(taskId);
    };
  }

  /** The command held for a task on its way, handed over once: later commands go to the engine itself. */
  take(taskId: string): HeldCommand | undefined {
    const held = this.#held.get(taskId);
    this.#held.delete(taskId);
    return held;
  }

  /** A command for a task still on its way: held for its arrival (true), or false when its engine has it. */
  hold(taskId: string, command: HeldCommand | 'resume'): boolean {
    if (!this.#held.has(taskId)) return false;
    const held = this.#held.get(taskId);
    this.#held.set(
      taskId,
      held === 'cancel' || command === 'cancel' ? 'cancel' : command === 'resume' ? undefined : 'pause',
    );
    return true;
  }

  /** The page's turn of adds ended: every command it gave in that turn is here. */
  turnEnded(): void {
    for (const release of this.#turn.splice(0)) release();
  }
}
