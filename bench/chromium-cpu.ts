/**
 * Where Chromium's CPU goes, from `/proc`: every `chromium` process under a root process, split into the browser
 * process, the network service, other utility processes (storage …), and in each renderer its main thread (the page),
 * its worker threads (shared, dedicated and hash workers: Blink names their threads `…Worker…`) and its other threads
 * (IO, compositor, thread pool). A renderer's threads that end between two readings (a hash worker closed after its
 * upload) leave their time in the process's total only: it is charged to `worker`.
 */
import { readdirSync, readFileSync } from 'node:fs';

/** The parts CPU is charged to. */
export const CPU_PARTS = ['page', 'worker', 'rendererOther', 'network', 'browser', 'utilityOther'] as const;
export type CpuPart = (typeof CPU_PARTS)[number];
/** One reading: each process's part and total, each renderer thread's part and time (seconds). */
export interface CpuReading {
  processes: Map<number, { part: CpuPart | 'renderer'; seconds: number }>;
  threads: Map<string, { pid: number; part: CpuPart; seconds: number }>;
}

const TICKS = 100; // USER_HZ on Linux

function read(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined; // the process or thread ended while being read
  }
}

/** Parent pid and user + system seconds of a `/proc/<pid>/stat` or `/proc/<pid>/task/<tid>/stat` line. */
function statOf(text: string): { ppid: number; seconds: number } {
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  return { ppid: Number(fields[1]), seconds: (Number(fields[11]) + Number(fields[12])) / TICKS };
}

function processPart(cmdline: string): CpuPart | 'renderer' {
  if (!cmdline.includes('--type=')) return 'browser';
  if (cmdline.includes('--type=renderer')) return 'renderer';
  if (cmdline.includes('network.mojom.NetworkService')) return 'network';
  return 'utilityOther';
}

/** Reads the CPU time so far of every Chromium process under `rootPid`. */
export function readChromiumCpu(rootPid: number): CpuReading {
  const reading: CpuReading = { processes: new Map(), threads: new Map() };
  const parent = new Map<number, number>();
  const chromium = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = read(`/proc/${entry}/stat`);
    if (!stat) continue;
    const { ppid, seconds } = statOf(stat);
    parent.set(Number(entry), ppid);
    if (/^\d+ \(chrom/.test(stat)) chromium.set(Number(entry), seconds);
  }
  const inTree = (pid: number): boolean => {
    for (let p = pid, i = 0; p > 1 && i < 50; p = parent.get(p) ?? 0, i++) if (p === rootPid) return true;
    return false;
  };
  for (const [pid, seconds] of chromium) {
    if (!inTree(pid)) continue;
    const part = processPart((read(`/proc/${pid}/cmdline`) ?? '').replaceAll('\0', ' '));
    reading.processes.set(pid, { part, seconds });
    if (part !== 'renderer') continue;
    let tids: string[] = [];
    try {
      tids = readdirSync(`/proc/${pid}/task`);
    } catch {
      // the process ended
    }
    for (const tid of tids) {
      const stat = read(`/proc/${pid}/task/${tid}/stat`);
      if (!stat) continue;
      const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      const threadPart = name === 'CrRendererMain' ? 'page' : /Worker/.test(name) ? 'worker' : 'rendererOther';
      reading.threads.set(`${pid}/${tid}`, { pid, part: threadPart, seconds: statOf(stat).seconds });
    }
  }
  return reading;
}

/** The CPU seconds spent between two readings, by part. */
export function cpuSpent(before: CpuReading, after: CpuReading): Record<CpuPart, number> {
  const out = Object.fromEntries(CPU_PARTS.map((p) => [p, 0])) as Record<CpuPart, number>;
  const byThreads = new Map<number, number>();
  for (const [key, t] of after.threads) {
    const spent = t.seconds - (before.threads.get(key)?.seconds ?? 0);
    out[t.part] += spent;
    byThreads.set(t.pid, (byThreads.get(t.pid) ?? 0) + spent);
  }
  for (const [pid, p] of after.processes) {
    const spent = p.seconds - (before.processes.get(pid)?.seconds ?? 0);
    if (p.part === 'renderer') out.worker += Math.max(0, spent - (byThreads.get(pid) ?? 0));
    else out[p.part] += spent;
  }
  return out;
}
