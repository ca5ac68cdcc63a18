import type { TaskState } from '../uploader/index.ts';
import type { SeedTask } from './scripted-uploader.ts';

/** `count` tasks in a spread of states, for the 10,000-row story and the virtualization test. */
export function manyTasks(count: number): SeedTask[] {
  const states: TaskState[] = ['done', 'uploading', 'queued', 'paused', 'done', 'failed', 'uploading', 'done'];
  return Array.from({ length: count }, (_, i) => {
    const state = states[i % states.length];
    const total = 1_000 + ((i * 7919) % 9_000_000);
    const sent = state === 'done' ? total : state === 'queued' ? 0 : Math.round(total * ((i % 10) / 10));
    return {
      id: `t${i}`,
      name: `file-${String(i).padStart(5, '0')}.bin`,
      total,
      type: 'application/octet-stream',
      state,
      bytesSent: sent,
      bytesAcknowledged: sent,
      speed: state === 'uploading' ? 2_000_000 : 0,
      ...(state === 'uploading' ? { etaMs: ((total - sent) / 2_000_000) * 1000 } : {}),
      ...(state === 'failed' ? { error: { code: 'retries-exhausted' as const, message: 'gave up' } } : {}),
      ...(state === 'done' ? { file: { id: `f${i}` } } : {}),
    };
  });
}
