/**
 * What the page benches (`render`, `images`) share: the built bundle served with the real service behind the same
 * origin, one headless Chromium page on it, the renderer main thread's CPU sampled beside it, and running a bench's
 * measuring half as a child process under the Chromium lock (one browser at a time on this machine).
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { startBundleServer } from '../test/e2e/bundle-server.ts';
import { startService } from '../test/server/helpers/service.ts';

const ROOT = resolve(import.meta.dirname, '..');

/** A long task as the page saw it, in the page's time; `cpu` is filled in from the sampler (null: unknown). */
export interface LongTask {
  start: number;
  duration: number;
  phase: string;
  cpu?: number | null;
}

/**
 * The start of a bench page's script: `longTasks` collects every long task with the phase it fell in, `enter(name)`
 * starts a phase (the page begins in `load`).
 */
export const PAGE_PRELUDE = `
const longTasks = [];
const phases = [['load', 0]];
const enter = (name) => phases.push([name, performance.now()]);
const phaseAt = (t) => phases.filter(([, start]) => start <= t).at(-1)[0];
new PerformanceObserver((list) => { for (const e of list.getEntries()) longTasks.push({ start: Math.round(e.startTime), duration: Math.round(e.duration), phase: phaseAt(e.startTime) }); })
  .observe({ type: 'longtask', buffered: true });
`;

interface CpuSampler {
  stop(intervals: { start: number; end: number }[]): Promise<{ cpuMs: (number | null)[] }>;
}

export interface BenchPage {
  page: Page;
  browser: Browser;
  /** Uncaught errors of the page so far. */
  errors: string[];
  /** With a path, starts a V8 CPU profile of the page; the function returned writes it there (`--profile`). */
  profile(path: string | undefined): Promise<() => Promise<void>>;
  /** Fills in each task's main-thread CPU time (the page's `performance.timeOrigin` is `origin`). */
  attributeCpu(tasks: LongTask[], origin: number): Promise<void>;
  close(): Promise<void>;
}

/**
 * Opens `html` at `/` in Chromium, the bundle under `/kit/`, the service's routes passed through; CPU sampling on once
 * the custom element `ready` is defined (null: a page without the kit, at once).
 */
export async function openBenchPage(html: string, ready: string | null = 'store-progress-list'): Promise<BenchPage> {
  const { chromium } = await import('playwright-core');
  const { CHROMIUM_ARGS, CHROMIUM_PATH } = (await import(
    pathToFileURL(resolve(ROOT, 'test/browser/chromium.js')).href
  )) as { CHROMIUM_ARGS: string[]; CHROMIUM_PATH: string };
  const { sampleMainThreadCpu } = (await import(
    pathToFileURL(resolve(ROOT, 'test/browser/main-thread-cpu.js')).href
  )) as { sampleMainThreadCpu: () => Promise<CpuSampler> };
  const service = await startService();
  const target = new URL(service.url);
  const server = await startBundleServer((req, res, path) => {
    if (path === '/') return (res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html), true);
    if (!/^\/(store|upload|batch)\//.test(path)) return false;
    const upstream = request(
      { host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => res.writeHead(502).end());
    req.pipe(upstream);
    return true;
  });
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await page.goto(`${server.origin}/`);
  if (ready)
    await page.waitForFunction(
      (name) =>
        (globalThis as unknown as { customElements: { get(n: string): unknown } }).customElements.get(name) !==
        undefined,
      ready,
    );
  const cpu = await sampleMainThreadCpu();
  let sampling = true;
  return {
    page,
    browser,
    errors,
    async profile(path) {
      if (!path) return async () => undefined;
      const cdp = await page.context().newCDPSession(page);
      await cdp.send('Profiler.enable');
      await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
      await cdp.send('Profiler.start');
      return async () => writeFileSync(path, JSON.stringify((await cdp.send('Profiler.stop')).profile));
    },
    async attributeCpu(tasks, origin) {
      sampling = false;
      const { cpuMs } = await cpu.stop(
        tasks.map((t) => ({ start: origin + t.start, end: origin + t.start + t.duration })),
      );
      tasks.forEach((t, i) => (t.cpu = cpuMs[i] ?? null));
    },
    async close() {
      if (sampling) await cpu.stop([]).catch(() => undefined);
      await browser.close();
      await server.close();
      await service.stop();
    },
  };
}

/** Runs `bench/<file> --run …args` under the Chromium lock; the child's last stdout line is its figures as JSON. */
export function runLocked<T>(file: string, args: string[] = [], timeoutMs = 600_000): T {
  const out = execFileSync(
    'flock',
    ['/tmp/chromium.lock', process.execPath, '--import', 'tsx', resolve(import.meta.dirname, file), '--run', ...args],
    {
      cwd: ROOT,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
      timeout: timeoutMs,
    },
  );
  return JSON.parse(out.trim().split('\n').pop()!) as T;
}
