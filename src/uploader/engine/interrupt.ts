/** Why the engine aborted its own request: the job's loop reads it to decide what comes next. */
export type InterruptKind = 'pause' | 'cancel' | 'stall' | 'offline' | 'destroy';

/** The abort reason the engine uses for its own aborts (anything else aborting a request is a network error). */
export class Interrupt extends Error {
  constructor(readonly kind: InterruptKind) {
    super(`upload ${kind}`);
    this.name = 'Interrupt';
  }
}

/** The `Interrupt` an error is or carries, if any. */
export function interruptOf(error: unknown): Interrupt | undefined {
  return error instanceof Interrupt ? error : undefined;
}
