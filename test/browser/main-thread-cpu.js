// How much CPU time a page's main thread actually got during given intervals, on Linux. On a shared machine a task's
// wall time also counts the time other processes held the CPU; the CPU time is the work the page itself did in it.
// Used by the `main-thread-cpu` test-runner command (main-thread-cpu-plugin.js) and by the render bench.
//
// Samples, every few milliseconds, the on-CPU time (`/proc/<pid>/task/<pid>/schedstat`, ns) of the main thread of
// every Chromium renderer descending from this Node process (the page's renderer is among them; idle ones add
// nothing). An interval's CPU time is measured between the samples just outside it: an upper bound, never an
// underestimate. Elsewhere than Linux, or with no renderer found, every figure is null.
import { readdirSync, readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';

const SAMPLE_MS = 2;

function read(path) {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}

/** Process ids of Chromium renderers descending from this Node process. */
function renderers() {
  if (process.platform !== 'linux') return [];
  const parent = new Map();
  const found = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const stat = read(`/proc/${name}/stat`);
    if (!stat) continue;
    parent.set(Number(name), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    if ((read(`/proc/${name}/cmdline`) ?? '').includes('--type=renderer')) found.push(Number(name));
  }
  const mine = (pid) => {
    for (let p = pid, hops = 0; p > 1 && hops < 10; p = parent.get(p) ?? 0, hops++) if (p === process.pid) return true;
    return false;
  };
  return found.filter(mine);
}

/** Sum of the main threads' on-CPU nanoseconds. */
function cpuNs(pids) {
  let sum = 0;
  for (const pid of pids) sum += Number((read(`/proc/${pid}/task/${pid}/schedstat`) ?? '0').split(' ')[0]);
  return sum;
}

/**
 * Starts sampling now (call once the page is open). `stop(intervals)` takes `{ start, end }` in epoch ms (in a page:
 * `performance.timeOrigin + entry.startTime`) and returns each one's CPU ms, and how far apart the samples were.
 */
export function sampleMainThreadCpu() {
  const pids = renderers();
  const samples = [];
  const sample = () => samples.push([performance.timeOrigin + performance.now(), cpuNs(pids)]);
  sample();
  const timer = setInterval(sample, SAMPLE_MS);
  return {
    renderers: pids.length,
    stop(intervals) {
      clearInterval(timer);
      sample();
      const cpuMs = ({ start, end }) => {
        if (pids.length === 0) return null;
        let from = 0;
        while (from + 1 < samples.length && samples[from + 1][0] <= start) from++;
        let to = samples.length - 1;
        while (to > 0 && samples[to - 1][0] >= end) to--;
        return Math.round((samples[to][1] - samples[from][1]) / 1e6);
      };
      const gaps = samples.slice(1).map((s, i) => s[0] - samples[i][0]).sort((a, b) => a - b);
      return {
        cpuMs: intervals.map(cpuMs),
        sampleGapMs: { median: Math.round(gaps[gaps.length >> 1] ?? 0), max: Math.round(gaps.at(-1) ?? 0) },
      };
    },
  };
}
