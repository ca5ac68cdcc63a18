// A @web/test-runner server command, `main-thread-cpu`, that tells how much CPU time the page's main thread
// actually got during given intervals (the long tasks a page saw). On this shared 2-core machine a task's wall time
// also counts the time other processes held the CPU; the CPU time is the work the page itself did in it.
//
// `start` begins sampling, every few milliseconds, the on-CPU time (`/proc/<pid>/task/<pid>/schedstat`, in ns) of
// the main thread of every Chromium renderer this test runner launched (the page's renderer is among them; idle
// ones add nothing). `stop` with `intervals: [{ start, end }]` in epoch milliseconds (`performance.timeOrigin +
// entry.startTime` in the page) answers each interval's CPU time, measured between the samples just outside it:
// an upper bound, never an underestimate. Linux only; elsewhere `cpuMs` is null.
import { readdirSync, readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { loadavg } from 'node:os';

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

export function mainThreadCpuPlugin() {
  const runs = new Map();
  return {
    name: 'main-thread-cpu',
    async executeCommand({ command, payload, session }) {
      if (command !== 'main-thread-cpu') return undefined;
      if (payload?.action === 'start') {
        const pids = process.platform === 'linux' ? renderers() : [];
        const samples = [];
        const sample = () => samples.push([performance.timeOrigin + performance.now(), cpuNs(pids)]);
        sample();
        runs.set(session.id, { timer: setInterval(sample, SAMPLE_MS), samples, pids, loadBefore: loadavg()[0] });
        return pids.length;
      }
      if (payload?.action === 'stop') {
        const run = runs.get(session.id);
        if (!run) throw new Error('main-thread-cpu: stop without start');
        runs.delete(session.id);
        clearInterval(run.timer);
        const { samples } = run;
        const cpuMs = ({ start, end }) => {
          if (run.pids.length === 0) return null;
          let from = 0;
          while (from + 1 < samples.length && samples[from + 1][0] <= start) from++;
          let to = samples.length - 1;
          while (to > 0 && samples[to - 1][0] >= end) to--;
          return Math.round((samples[to][1] - samples[from][1]) / 1e6);
        };
        const gaps = samples.slice(1).map((s, i) => s[0] - samples[i][0]).sort((a, b) => a - b);
        return {
          cpuMs: (payload.intervals ?? []).map(cpuMs),
          loadAverage: [run.loadBefore, loadavg()[0]],
          sampleGapMs: { median: Math.round(gaps[gaps.length >> 1] ?? 0), max: Math.round(gaps.at(-1) ?? 0) },
        };
      }
      throw new Error(`main-thread-cpu: unknown action ${payload?.action}`);
    },
  };
}
