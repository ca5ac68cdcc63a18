import type { TaskState } from './types.ts';

/** Whether a task has ended (`done`, `failed`, `cancelled`): the one definition, for the engine and the page alike. */
export function isFinal(state: TaskState): boolean {
  return state === 'done' || state === 'failed' || state === 'cancelled';
}
