import type { StoreI18n } from '../i18n/types.ts';
import type { TaskSnapshot, TaskState } from '../../uploader/index.ts';
import { percentOf } from './format.ts';

const MILESTONES = [25, 50, 75] as const;
/** More messages than this in one update become one summary message, so a burst never floods a screen reader. */
const MAX_MESSAGES = 3;

interface Seen {
  /** The snapshot object last looked at: an uploader keeps a task's object until the task changes. */
  task: TaskSnapshot;
  state: TaskState;
  milestone: number;
  started: boolean;
}

/**
 * Decides what a polite live region says as snapshots arrive: a task starting, crossing 25/50/75 %, finishing or
 * failing — never every progress tick. Tasks already present in the first snapshot are taken as the baseline and
 * not announced, so opening a page with 10,000 rows stays quiet. A task whose snapshot object is the one at its place in
 * the last snapshot is skipped without a lookup (an uploader keeps its tasks in order and a task's object until it
 * changes), and a queued task is remembered only once it has moved: a snapshot of 10,000 tasks where a few moved
 * costs a pass over an array, not 10,000 lookups and records.
 */
export class Announcer {
  #seen = new Map<string, Seen>();
  #last: readonly TaskSnapshot[] = [];
  #primed = false;

  /** Forgets everything (for a new uploader); the next snapshot becomes the baseline. */
  reset(): void {
    this.#seen.clear();
    this.#primed = false;
  }

  /** The messages for this snapshot, already worded. */
  update(tasks: readonly TaskSnapshot[], t: StoreI18n): string[] {
    const messages: string[] = [];
    const seen = this.#seen;
    const last = this.#last;
    this.#last = tasks;
    let i = 0;
    for (const task of tasks) {
      if (task === last[i++]) continue;
      const before = seen.get(task.id);
      // Nothing to say of a task that has not moved yet: its start is announced as a task first seen uploading.
      if (before?.task === task || (!before && task.state === 'queued')) continue;
      const percent = percentOf(task.bytesSent, task.total, task.state === 'done');
      let milestone = 0;
      for (const m of MILESTONES) if (percent >= m) milestone = m;
      seen.set(task.id, {
        task,
        state: task.state,
        milestone,
        started: (before?.started ?? false) || task.state === 'uploading',
      });
      if (!this.#primed || (before && before.state === task.state && before.milestone === milestone)) continue;
      const name = task.name;
      if (task.state !== before?.state && task.state === 'done') messages.push(t.announce.done(name));
      else if (task.state !== before?.state && task.state === 'failed') {
        messages.push(t.announce.failed(name, task.error ? t.errors[task.error.code] : t.errors.unknown));
      } else if (task.state === 'uploading' && !before?.started) messages.push(t.announce.start(name));
      else if (task.state === 'uploading' && milestone > (before?.milestone ?? 0))
        messages.push(t.announce.milestone(name, milestone));
    }
    // Removed tasks: forget them, so one added again later (same id) is new.
    if (seen.size > tasks.length) {
      const ids = new Set(tasks.map((task) => task.id));
      for (const id of seen.keys()) if (!ids.has(id)) seen.delete(id);
    }
    this.#primed = true;
    return messages.length > MAX_MESSAGES ? [t.announce.many(messages.length)] : messages;
  }
}
