/**
 * Watches the main thread for long tasks (`PerformanceObserver` `longtask`) and reports each with two figures and
 * a description. Its wall time, as the page saw it; its CPU time, from the `main-thread-cpu` server command
 * (`test/browser/main-thread-cpu.js`: the renderer main thread's on-CPU time sampled from /proc), because
 * on a shared machine a task's wall time also counts the time other processes held the CPU; and what ran in it, from
 * the Long Animation Frames API (the scripts: who called them, which function in which file, for how long; and the
 * frame's rendering), so a failure says where the time went.
 */
import { executeServerCommand } from '@web/test-runner-commands';

/** One script of a long animation frame (not yet in TypeScript's DOM types). */
interface FrameScript {
  invoker: string;
  sourceURL: string;
  sourceFunctionName: string;
  duration: number;
  forcedStyleAndLayoutDuration: number;
}

/** A `long-animation-frame` entry. */
interface LongFrame extends PerformanceEntry {
  renderStart: number;
  scripts: FrameScript[];
}

/** One long task. */
export interface LongTask {
  /** ms since the page's time origin */
  at: number;
  wallMs: number;
  /** Main-thread CPU time during the task; null where it cannot be measured. */
  cpuMs: number | null;
  /** How precise `cpuMs` is: the widest gap between CPU samples at the task's ends. */
  gapMs: number | null;
  /** What ran in it. */
  what: string;
}

/** What a watch saw. */
export interface MainThreadReport {
  /** Every task over the limit in wall time. */
  longTasks: LongTask[];
  /** The 1-minute load average of the machine when the watch started and when it stopped. */
  loadAverage: [number, number];
  /** How often the CPU time was sampled (ms between samples). */
  sampleGapMs: { median: number; max: number };
}

/** A running watch. */
export interface MainThreadWatch {
  /** Stops watching and reports. */
  stop(): Promise<MainThreadReport>;
}

const file = (url: string): string => url.replace(/^.*?\/\/[^/]+\//, '').replace(/\?.*$/, '');

/** Starts watching; tasks over `limitMs` (50 by default, the long-task threshold) are reported. */
export async function watchMainThread(limitMs = 50): Promise<MainThreadWatch> {
  await executeServerCommand('main-thread-cpu', { action: 'start' });
  const tasks: PerformanceEntry[] = [];
  const frames: LongFrame[] = [];
  const taskObserver = new PerformanceObserver((list) => tasks.push(...list.getEntries()));
  taskObserver.observe({ type: 'longtask' });
  const frameObserver = new PerformanceObserver((list) => frames.push(...(list.getEntries() as LongFrame[])));
  if (PerformanceObserver.supportedEntryTypes.includes('long-animation-frame'))
    frameObserver.observe({ type: 'long-animation-frame' });
  const describe = (task: PerformanceEntry): string => {
    const end = task.startTime + task.duration;
    const frame = frames.find((f) => f.startTime <= task.startTime + 1 && f.startTime + f.duration >= end - 1);
    if (!frame) return 'no long animation frame';
    const scripts = frame.scripts
      .filter((s) => s.duration >= 1)
      .sort((a, b) => b.duration - a.duration)
      .slice(0, 4)
      .map(
        (s) =>
          `${s.invoker} → ${s.sourceFunctionName || '(anonymous)'} ${file(s.sourceURL)} ${Math.round(s.duration)} ms${s.forcedStyleAndLayoutDuration >= 1 ? ` (forced layout ${Math.round(s.forcedStyleAndLayoutDuration)})` : ''}`,
      );
    const render =
      frame.renderStart > 0 ? `; rendering ${Math.round(frame.startTime + frame.duration - frame.renderStart)} ms` : '';
    return `${scripts.join('; ') || 'no script of 5 ms or more'}${render}`;
  };
  return {
    async stop() {
      tasks.push(...taskObserver.takeRecords());
      frames.push(...(frameObserver.takeRecords() as LongFrame[]));
      taskObserver.disconnect();
      frameObserver.disconnect();
      const long = tasks.filter((t) => t.duration > limitMs);
      const origin = performance.timeOrigin;
      const measured = await executeServerCommand<
        {
          cpuMs: (number | null)[];
          gapMs: (number | null)[];
          loadAverage: [number, number];
          sampleGapMs: { median: number; max: number };
        },
        unknown
      >('main-thread-cpu', {
        action: 'stop',
        intervals: long.map((t) => ({ start: origin + t.startTime, end: origin + t.startTime + t.duration })),
      });
      return {
        longTasks: long.map((t, i) => ({
          at: Math.round(t.startTime),
          wallMs: Math.round(t.duration),
          cpuMs: measured.cpuMs[i] ?? null,
          gapMs: measured.gapMs[i] ?? null,
          what: describe(t),
        })),
        loadAverage: measured.loadAverage,
        sampleGapMs: measured.sampleGapMs,
      };
    },
  };
}
