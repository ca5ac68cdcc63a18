/**
 * Who holds the machine's cores during a page bench, on Linux: a thread of its own samples, every 20 ms, the on-CPU
 * time (`/proc/<pid>/task/<tid>/schedstat`, ns) of every thread of this process's descendants — Chromium's browser,
 * renderer, GPU and utility processes, the service — and the machine's busy time (`/proc/stat`, in 10 ms ticks); every
 * 250 ms the CPU time of every process on the machine (`/proc/<pid>/stat`), to name the outside load. `stop(intervals)`
 * answers, for each interval (epoch ms), the CPU ms of each group of our threads and of the rest of the machine
 * (busy − ours), and the outside processes that used the most. Elsewhere than Linux it answers nothing.
 */
import { Worker } from 'node:worker_threads';

/** CPU ms in one interval: by group of our threads (`renderer main`, `renderer Compositor`, `browser`, …), `other`. */
export interface CoreShare {
  /** Wall ms of the interval × the number of cores: what there was to share. */
  coreMs: number;
  groups: Record<string, number>;
  /** The machine's busy time minus ours (10 ms ticks, interpolated; ± 10 ms per core). */
  other: number;
  /** Outside processes by CPU ms (sampled every 250 ms, so over the samples around the interval: only for intervals of 250 ms or more). */
  outside: Record<string, number>;
}

export interface CoreSampler {
  stop(intervals: { start: number; end: number }[]): Promise<CoreShare[]>;
}

/** The sampler thread (CommonJS: `eval` workers are scripts). */
const SAMPLER = `
const { workerData, parentPort } = require('node:worker_threads');
const { readFileSync, readdirSync, readlinkSync } = require('node:fs');
const { performance } = require('node:perf_hooks');
const { root, flag } = workerData;
const stop = new Int32Array(flag);
const self = Number(readlinkSync('/proc/thread-self').split('/').pop());
const read = (p) => { try { return readFileSync(p, 'utf8'); } catch { return undefined; } };
const statOf = (p) => { const s = read(p); if (!s) return undefined; const i = s.lastIndexOf(')'); return { comm: s.slice(s.indexOf('(') + 1, i), f: s.slice(i + 2).split(' ') }; };
// Our processes: descendants of root; each thread named by its process's kind and, in a renderer, the thread's name.
const kind = (pid) => {
  // Chromium's children rewrite their command line into one string: split on spaces too.
  const cmd = (read('/proc/' + pid + '/cmdline') || '').split(/[\\0 ]/);
  if (cmd.some((a) => a.includes('store-service'))) return 'service';
  const type = cmd.find((a) => a.startsWith('--type='));
  if (!cmd[0] || !cmd[0].includes('chrom')) return pid === root ? 'bench' : 'bench child';
  if (!type) return 'browser';
  const t = type.slice(7);
  if (t === 'utility') return (cmd.find((a) => a.startsWith('--utility-sub-type=')) || 'utility').replace(/.*=|\\.mojom.*/g, '');
  return t === 'gpu-process' ? 'gpu' : t;
};
let threads = [];
let ourPids = new Set();
const scan = () => {
  const parent = new Map();
  for (const n of readdirSync('/proc')) if (/^\\d+$/.test(n)) { const s = statOf('/proc/' + n + '/stat'); if (s) parent.set(Number(n), Number(s.f[1])); }
  const mine = (pid) => { for (let p = pid, h = 0; p > 1 && h < 12; p = parent.get(p) || 0, h++) if (p === root) return true; return false; };
  const next = [];
  for (const pid of parent.keys()) {
    if (!mine(pid)) continue;
    const k = kind(pid);
    let tids = [];
    try { tids = readdirSync('/proc/' + pid + '/task').map(Number); } catch {}
    for (const tid of tids) {
      if (tid === self) { next.push({ tid, pid, group: 'bench sampler' }); continue; }
      const name = (read('/proc/' + pid + '/task/' + tid + '/comm') || '').trim().replace(/[0-9]+$/, '');
      const group = k === 'renderer' ? (tid === pid ? 'renderer main' : 'renderer ' + name) : k;
      next.push({ tid, pid, group });
    }
  }
  threads = next;
  ourPids = new Set(next.map((t) => t.pid));
};
const outside = () => {
  const out = {};
  for (const n of readdirSync('/proc')) {
    if (!/^\\d+$/.test(n) || ourPids.has(Number(n))) continue;
    const s = statOf('/proc/' + n + '/stat');
    // By pid: a kernel worker's name changes with the work it is doing.
    if (s) out[n] = [s.comm.replace(/[-/].*/, ''), Number(s.f[11]) + Number(s.f[12])];
  }
  return out;
};
const busy = () => { const f = read('/proc/stat').split('\\n')[0].split(/\\s+/).slice(1).map(Number); return f[0] + f[1] + f[2] + f[5] + f[6] + f[7]; };
const samples = [];
const procs = [];
let lastScan = -Infinity;
do {
  const now = performance.timeOrigin + performance.now();
  if (now - lastScan >= 250) { scan(); procs.push({ t: now, ticks: outside() }); lastScan = now; }
  const byTid = {};
  for (const { tid, pid, group } of threads) {
    const s = read('/proc/' + pid + '/task/' + tid + '/schedstat');
    if (s) byTid[tid] = [group, Number(s.split(' ')[0])];
  }
  samples.push({ t: now, busy: busy(), byTid });
  if (samples.length === 1) parentPort.postMessage('sampling');
} while (Atomics.wait(stop, 0, 0, 20) === 'timed-out');
parentPort.postMessage({ samples, procs });
`;

interface Sample {
  t: number;
  busy: number;
  byTid: Record<string, [string, number]>;
}

/** Starts sampling the cores (resolves once the first sample is taken). */
export async function sampleCores(cores: number): Promise<CoreSampler> {
  if (process.platform !== 'linux') return { stop: (intervals) => Promise.resolve(intervals.map(() => empty())) };
  const flag = new SharedArrayBuffer(4);
  const worker = new Worker(SAMPLER, { eval: true, workerData: { root: process.pid, flag } });
  const result = new Promise<{ samples: Sample[]; procs: { t: number; ticks: Record<string, [string, number]> }[] }>(
    (resolve, reject) => {
      worker.on('message', (m: unknown) => m !== 'sampling' && resolve(m as never));
      worker.once('error', reject);
    },
  );
  await new Promise((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
  });
  return {
    async stop(intervals) {
      const stop = new Int32Array(flag);
      Atomics.store(stop, 0, 1);
      Atomics.notify(stop, 0);
      const { samples, procs } = await result;
      await worker.terminate();
      return intervals.map(({ start, end }) => share(samples, procs, start, end, cores));
    },
  };
}

const empty = (): CoreShare => ({ coreMs: 0, groups: {}, other: 0, outside: {} });

/** Index of the last sample at or before t (or 0). */
function before(times: number[], t: number): number {
  let lo = 0;
  let hi = times.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (times[mid]! <= t) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** A cumulative figure at t, interpolated between the samples around it. */
function at(times: number[], value: (i: number) => number, t: number): number {
  const i = before(times, t);
  if (i + 1 >= times.length || t <= times[i]!) return value(i);
  return value(i) + ((value(i + 1) - value(i)) * (t - times[i]!)) / (times[i + 1]! - times[i]!);
}

function share(
  samples: Sample[],
  procs: { t: number; ticks: Record<string, [string, number]> }[],
  start: number,
  end: number,
  cores: number,
): CoreShare {
  if (samples.length < 2) return empty();
  const times = samples.map((s) => s.t);
  const groups: Record<string, number> = {};
  // Each thread seen in the interval: its CPU between the ends (a thread missing at a sample counts as unchanged).
  const lo = before(times, start);
  const hi = Math.min(samples.length - 1, before(times, end) + 1);
  const tids = new Set<string>();
  for (let i = lo; i <= hi; i++) for (const tid of Object.keys(samples[i]!.byTid)) tids.add(tid);
  let ours = 0;
  for (const tid of tids) {
    let group = '';
    let last = 0;
    const cumulative = samples.map((s) => {
      const seen = s.byTid[tid];
      if (seen) [group, last] = seen;
      return last;
    });
    // A thread first seen mid-interval started from 0 there; one gone keeps its last figure.
    const first = cumulative.findIndex((_, i) => samples[i]!.byTid[tid] !== undefined);
    const value = (i: number) => (i < first ? (cumulative[first] ?? 0) : cumulative[i]!);
    const ms = (at(times, value, end) - at(times, value, start)) / 1e6;
    groups[group] = (groups[group] ?? 0) + ms;
    ours += ms;
  }
  const busyMs = (at(times, (i) => samples[i]!.busy, end) - at(times, (i) => samples[i]!.busy, start)) * 10;
  const round = (n: number) => Math.round(n * 10) / 10;
  const outside: Record<string, number> = {};
  const pt = procs.map((p) => p.t);
  if (procs.length > 1 && end - start >= 250) {
    const a = procs[before(pt, start)]!.ticks;
    const b = procs[Math.min(procs.length - 1, before(pt, end) + 1)]!.ticks;
    for (const [pid, [name, ticks]] of Object.entries(b)) {
      const used = (ticks - (a[pid]?.[1] ?? 0)) * 10;
      if (used >= 20) outside[name] = (outside[name] ?? 0) + used;
    }
  }
  return {
    coreMs: round((end - start) * cores),
    groups: Object.fromEntries(
      Object.entries(groups)
        .filter(([, ms]) => ms >= 0.5)
        .sort((x, y) => y[1] - x[1])
        .map(([g, ms]) => [g, round(ms)]),
    ),
    other: round(Math.max(0, busyMs - ours)),
    outside,
  };
}
