// How much CPU time a page's main thread actually got during given intervals, on Linux. On a shared machine a task's
// wall time also counts the time other processes held the CPU; the CPU time is the work the page itself did in it.
// Used by the `main-thread-cpu` test-runner command (main-thread-cpu-plugin.js) and by the render bench.
//
// A worker thread samples, about every millisecond, the on-CPU time (`/proc/<pid>/task/<pid>/schedstat`, ns) of the
// main thread of every Chromium renderer descending from this Node process (the page's renderer is among them; idle
// ones add nothing). A thread of its own keeps sampling while this process's event loop is busy (the test runner
// serving and compiling), at a raised priority where that is allowed (root), so a loaded machine does not stretch
// the gaps between samples. An interval's CPU time is read off the cumulative figure at its start and end, each
// interpolated between the samples around it; the widest gap around each interval is reported with it as the
// precision. Elsewhere than Linux, or with no renderer found, every figure is null.
import { readdirSync, readFileSync } from 'node:fs';
import { Worker } from 'node:worker_threads';

/** The sampler thread (CommonJS: `eval` workers are scripts). Samples until the flag is set, then posts them. */
const SAMPLER = `
const { workerData, parentPort } = require('node:worker_threads');
const { readFileSync, readlinkSync } = require('node:fs');
const { setPriority } = require('node:os');
const { performance } = require('node:perf_hooks');
try {
  setPriority(Number(readlinkSync('/proc/thread-self').split('/').pop()), -10);
} catch {
  // Not allowed (not root): sample at the normal priority.
}
const { pids, flag } = workerData;
const stop = new Int32Array(flag);
const times = [];
const cpu = [];
const onCpu = (pid) => { try { return Number(readFileSync('/proc/' + pid + '/task/' + pid + '/schedstat', 'utf8').split(' ')[0]); } catch { return 0; } };
do {
  let sum = 0;
  for (const pid of pids) sum += onCpu(pid);
  times.push(performance.timeOrigin + performance.now());
  cpu.push(sum);
  if (times.length === 1) parentPort.postMessage('sampling');
} while (Atomics.wait(stop, 0, 0, 1) === 'timed-out');
parentPort.postMessage({ times, cpu });
`;

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

/**
 * Starts sampling (call once the page is open; resolves once the first sample is taken). `stop(intervals)` takes
 * `{ start, end }` in epoch ms (in a page: `performance.timeOrigin + entry.startTime`) and resolves with each one's
 * CPU ms and the widest sample gap at its ends (`cpuMs[i]`, `gapMs[i]`), and how far apart samples were overall.
 */
export async function sampleMainThreadCpu() {
  const pids = renderers();
  const flag = new SharedArrayBuffer(4);
  const worker = pids.length ? new Worker(SAMPLER, { eval: true, workerData: { pids, flag } }) : undefined;
  const samples = new Promise((resolve, reject) => {
    if (!worker) return resolve({ times: [], cpu: [] });
    worker.on('message', (message) => message !== 'sampling' && resolve(message));
    worker.once('error', reject);
  });
  if (worker)
    await new Promise((resolve, reject) => {
      worker.once('message', resolve);
      worker.once('error', reject);
    });
  return {
    renderers: pids.length,
    async stop(intervals) {
      const stop = new Int32Array(flag);
      Atomics.store(stop, 0, 1);
      Atomics.notify(stop, 0);
      const { times, cpu } = await samples;
      await worker?.terminate();
      // The sample at or before t (or the first), and the cumulative CPU ns at t, interpolated.
      const before = (t) => {
        let lo = 0;
        let hi = times.length - 1;
        while (lo < hi) {
          const mid = (lo + hi + 1) >> 1;
          if (times[mid] <= t) lo = mid;
          else hi = mid - 1;
        }
        return lo;
      };
      const at = (t) => {
        const i = before(t);
        if (i + 1 >= times.length || t <= times[i]) return cpu[i];
        return cpu[i] + ((cpu[i + 1] - cpu[i]) * (t - times[i])) / (times[i + 1] - times[i]);
      };
      const gapAround = (t) => {
        const i = before(t);
        return i + 1 < times.length ? times[i + 1] - times[i] : 0;
      };
      const measure = ({ start, end }) =>
        times.length < 2
          ? { cpuMs: null, gapMs: null }
          : {
              cpuMs: Math.round((at(end) - at(start)) / 1e6),
              gapMs: Math.round(Math.max(gapAround(start), gapAround(end))),
            };
      const measured = intervals.map(measure);
      const gaps = times
        .slice(1)
        .map((t, i) => t - times[i])
        .sort((a, b) => a - b);
      return {
        cpuMs: measured.map((m) => m.cpuMs),
        gapMs: measured.map((m) => m.gapMs),
        sampleGapMs: { median: Math.round(gaps[gaps.length >> 1] ?? 0), max: Math.round(gaps.at(-1) ?? 0) },
      };
    },
  };
}
