import type { StoreI18n } from '../i18n/types.ts';
import type { TaskSnapshot, TaskState } from '../../uploader/index.ts';
import { percentOf } from './format.ts';

const MILESTONES = [25, 50, 75] as const;
/** More messages than this in one update become one summary message, so a burst never floods a screen reader. */
const MAX_MESSAGES = 3;

interface Seen {
  state: TaskState;
  milestone: number;
  started: boolean;
}

/**
 * Decides what a polite live region says as snapshots arrive: a task starting, crossing 25/50/75 %, finishing or
 * failing — never every progress tick. Tasks already present in the first snapshot are taken as the baseline and
 * not announced, so opening a page with 10,000 rows stays quiet.
 */
export class Announcer {
  #seen = new Map<string, Seen>();
  #primed = false;

  /** Forgets everything (for a new uploader); the next snapshot becomes the baseline. */
  reset(): void {
    this.#seen.clear();
    this.#primed = false;
  }

  /** The messages for this snapshot, already worded. */
  update(tasks: readonly TaskSnapshot[], t: StoreI18n): string[] {
    const messages: string[] = [];
    const next = new Map<string, Seen>();
    for (const task of tasks) {
      const percent = percentOf(task.bytesSent, task.total, task.state === 'done');
      const milestone = MILESTONES.filter((m) => percent >= m).at(-1) ?? 0;
      const before = this.#seen.get(task.id);
      const now: Seen = { state: task.state, milestone, started: (before?.started ?? false) || task.state === 'uploading' };
      next.set(task.id, now);
      if (!this.#primed || (before && before.state === task.state && before.milestone === milestone)) continue;
      const name = task.name;
      if (task.state !== before?.state && task.state === 'done') messages.push(t.announce.done(name));
      else if (task.state !== before?.state && task.state === 'failed') {
        messages.push(t.announce.failed(name, task.error ? t.errors[task.error.code] : t.errors.unknown));
      } else if (task.state === 'uploading' && !before?.started) messages.push(t.announce.start(name));
      else if (task.state === 'uploading' && milestone > (before?.milestone ?? 0)) messages.push(t.announce.milestone(name, milestone));
    }
    this.#seen = next;
    this.#primed = true;
    return messages.length > MAX_MESSAGES ? [t.announce.many(messages.length)] : messages;
  }
}
