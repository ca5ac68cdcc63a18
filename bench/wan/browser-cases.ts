/**
 * One case of the WAN bench in headless Chromium: a fresh browser context (cold connections, empty caches) on the
 * upload page, files chosen from disk through a file input, the kit (`createUploader` → each `task.done`) or the
 * page's raw client uploading them through the link; then the link's and the service's counts, and every stored
 * file checked byte for byte (size and MD5) against the file on disk.
 */
import { writeFileSync } from 'node:fs';
import { Agent, request } from 'node:https';
import type { Browser, Page } from 'playwright-core';
import type { CountedService, SeenRequest } from './counted-service.ts';
import type { Link, LinkStats } from './link.ts';
import { PAGE_CLIENTS, TIMING_INIT } from './page-clients.ts';
import { checkTusStored } from './peer-clients.ts';

/** A file on disk the bench uploads. */
export interface DiskFile {
  path: string;
  name: string;
  size: number;
  md5: string;
}

/** Who uploads, and how. */
export type Uploader =
  | { kind: 'kit'; options: object }
  | { kind: 'rawWhole' }
  | { kind: 'rawSmall'; inFlight: number }
  /** tus-js-client or Uppy (`peer-clients.ts`) into the tus server; `url` is then its endpoint. */
  | { kind: 'peer'; lib: 'tus' | 'uppy'; inFlight: number; options: object };

/** Where one case runs. */
export interface CaseSetup {
  browser: Browser;
  pageUrl: (service: string, options?: object) => string;
  service: CountedService;
  /** The link the case goes through (its counters are read), or none on loopback. */
  link: Link | undefined;
  /** The service (or tus endpoint) as the page calls it. */
  url: string;
  rttMs: number;
  /** The peers' script, added to the page for peer cases. */
  peerScript: string;
  /** How many times slower the page's CPU runs (`Emulation.setCPUThrottlingRate`); 1 or absent: not slowed. */
  cpuRate?: number;
}

/** What one case measured. */
export interface CaseFigures {
  /** From the input's change to the last file stored, as the page saw it. */
  seconds: number;
  requests: number;
  /** Requests by method, e.g. `OPTIONS 2, POST 1, PUT 1`. */
  byMethod: string;
  /** HTTP versions the service saw. */
  httpVersions: string;
  connections: number;
  /** Seconds the upstream direction of the link was idle between the change and the end. */
  linkIdleSeconds: number;
  /** Idle stretches of the upstream direction longer than half a round trip, between its first and last byte: count and seconds. */
  idleGaps: number;
  idleGapSeconds: number;
}

type Stored = { id: string; name: string; size: string };

function countBy(requests: SeenRequest[], key: (r: SeenRequest) => string): string {
  const counts = new Map<string, number>();
  for (const r of requests) counts.set(key(r), (counts.get(key(r)) ?? 0) + 1);
  return [...counts]
    .sort()
    .map(([k, n]) => `${k} ${n}`)
    .join(', ');
}

/** Checks each stored file's size and MD5 with the service directly (not through the link). */
async function checkStored(service: CountedService, stored: Stored[], files: DiskFile[]): Promise<void> {
  if (stored.length !== files.length) throw new Error(`${stored.length} files stored, ${files.length} sent`);
  const agent = new Agent({ keepAlive: true, ca: service.ca, maxSockets: 8 });
  const byName = new Map(files.map((f) => [f.name, f]));
  try {
    await Promise.all(
      stored.map(
        (s) =>
          new Promise<void>((resolve, reject) => {
            const url = `${service.url}/store/v3/files/${s.id}?fields=name,size,md5Checksum`;
            request(url, { agent, headers: { authorization: 'Bearer dev-token-alice' } }, (res) => {
              let text = '';
              res.on('data', (c: Buffer) => (text += c.toString()));
              res.on('end', () => {
                const got = JSON.parse(text) as { name: string; size: string; md5Checksum: string };
                const want = byName.get(got.name);
                if (!want || got.md5Checksum !== want.md5 || Number(got.size) !== want.size)
                  reject(new Error(`stored ${JSON.stringify(got)} differs from ${want?.path}`));
                else resolve();
              });
            })
              .on('error', reject)
              .end();
          }),
      ),
    );
  } finally {
    agent.destroy();
  }
}

/**
 * Slows this case's CPU `rate`-fold (`Emulation.setCPUThrottlingRate`, BENCH_WAN_CPU_THROTTLE): the page, and each
 * worker of its context (the kit's engine runs in the site's shared worker, its own target), each through a session
 * of the browser's (a worker's is non-flat: see worker-heap.ts) kept attached until the case ends. Returns the
 * targets throttled, and a function that detaches.
 */
async function throttleCpu(
  browser: Browser,
  page: Page,
  rate: number,
): Promise<{ throttled: string[]; end: () => Promise<void> }> {
  const pageCdp = await page.context().newCDPSession(page);
  await pageCdp.send('Emulation.setCPUThrottlingRate', { rate });
  const cdp = await browser.newBrowserCDPSession();
  const { targetInfos } = await cdp.send('Target.getTargets');
  const context = targetInfos.find((t) => t.type === 'page' && t.url === page.url())?.browserContextId;
  const throttled = ['page'];
  for (const t of targetInfos.filter(
    (x) => (x.type === 'shared_worker' || x.type === 'worker') && x.browserContextId === context,
  )) {
    const { sessionId } = await cdp.send('Target.attachToTarget', { targetId: t.targetId, flatten: false });
    const reply = new Promise<{ error?: unknown }>((resolve) => {
      const heard = (event: { sessionId: string; message: string }) => {
        const message = JSON.parse(event.message) as { id?: number; error?: unknown };
        if (event.sessionId !== sessionId || message.id !== 1) return;
        cdp.off('Target.receivedMessageFromTarget', heard);
        resolve(message);
      };
      cdp.on('Target.receivedMessageFromTarget', heard);
    });
    const message = JSON.stringify({ id: 1, method: 'Emulation.setCPUThrottlingRate', params: { rate } });
    await cdp.send('Target.sendMessageToTarget', { sessionId, message });
    const answer = await reply;
    // Chromium refuses it for workers ("only supported for pages"): a worker is slowed only if it shares the page's
    // renderer process (a dedicated worker's; the site's shared worker runs in a process of its own).
    throttled.push(answer.error ? `not ${t.type}` : t.type);
  }
  return {
    throttled,
    end: async () => {
      await Promise.all([pageCdp.detach(), cdp.detach()]).catch(() => undefined);
    },
  };
}

/** Runs one case. */
export async function runCase(setup: CaseSetup, files: DiskFile[], who: Uploader): Promise<CaseFigures> {
  const { browser, pageUrl, service, link, url: serviceUrl, rttMs } = setup;
  const context = await browser.newContext();
  const ends: (() => Promise<void>)[] = [];
  try {
    const page = await context.newPage();
    await page.addInitScript(TIMING_INIT);
    // BENCH_WAN_KIT_HOST=dedicated: the kit's engine in a worker of the page's own (in the page's renderer process).
    const host = process.env.BENCH_WAN_KIT_HOST;
    await page.goto(pageUrl(serviceUrl, who.kind === 'kit' ? { ...who.options, ...(host && { host }) } : {}));
    await page.waitForFunction(() => 'kit' in globalThis);
    await page.evaluate(PAGE_CLIENTS);
    if (who.kind === 'peer') await page.addScriptTag({ content: setup.peerScript });
    const rate = setup.cpuRate ?? 1;
    if (rate > 1) {
      const { throttled, end } = await throttleCpu(browser, page, rate);
      ends.push(end);
      console.error(`wan: CPU ${rate}× slower in ${throttled.join(', ')}`);
    }
    link?.resetStats();
    await service.takeRequests();
    // BENCH_WAN_PROFILE=<file>: the page's CPU profile from before the files are chosen to the case's end.
    const profiler = process.env.BENCH_WAN_PROFILE ? await page.context().newCDPSession(page) : undefined;
    if (profiler) {
      await profiler.send('Profiler.enable');
      await profiler.send('Profiler.setSamplingInterval', { interval: 200 });
      await profiler.send('Profiler.start');
    }
    const t0 = performance.now();
    await page.setInputFiles(
      who.kind === 'kit' ? '#file' : '#raw',
      files.map((f) => f.path),
    );
    const s = JSON.stringify(serviceUrl);
    const call =
      who.kind === 'kit'
        ? `wan.kitDone(${files.length})`
        : who.kind === 'rawWhole'
          ? `wan.rawWhole(${s})`
          : who.kind === 'rawSmall'
            ? `wan.rawSmall(${s}, ${who.inFlight})`
            : `peers.${who.lib}(${s}, ${who.inFlight}, ${JSON.stringify(who.options)})`;
    const result = (await page.evaluate(call)) as { ms: number; files?: Stored[]; urls?: string[] };
    const elapsed = performance.now() - t0;
    if (profiler) {
      const { profile } = await profiler.send('Profiler.stop');
      writeFileSync(process.env.BENCH_WAN_PROFILE!, JSON.stringify(profile));
      await profiler.detach();
    }
    const stats: LinkStats | undefined = link?.stats();
    const requests = await service.takeRequests();
    if (process.env.BENCH_WAN_TRACE && files.length > 1) {
      // Many files: when the first requests and the POSTs reached the service, in ms from the input's change.
      const changed = (await page.evaluate('performance.timeOrigin + window.__changedAt')) as number;
      const posts = requests
        .filter((r) => r.method === 'POST')
        .map((r) => r.at - changed)
        .sort((a, b) => a - b);
      const at = (f: number) => Math.round(posts[Math.min(posts.length - 1, Math.floor(posts.length * f))] ?? NaN);
      const others = requests
        .filter((r) => r.method !== 'POST')
        .map((r) => `${r.method} ${r.path.slice(0, 28)} ${Math.round(r.at - changed)}`);
      console.error(
        `trace: POST first ${at(0)}, 10 % ${at(0.1)}, 50 % ${at(0.5)}, 90 % ${at(0.9)}, last ${at(1)}, done ${Math.round(result.ms)} | ${others.join(' | ')}`,
      );
    }
    if (process.env.BENCH_WAN_TRACE && files.length === 1) {
      // A timeline in ms from the input's change (page clock, epoch) to each request's head, first body byte and answer at the service.
      const changed = (await page.evaluate('performance.timeOrigin + window.__changedAt')) as number;
      const at = (t?: number) => (t === undefined ? '-' : Math.round(t - changed));
      const lines = requests.map(
        (r) =>
          `${r.method} ${r.path.slice(0, 28)} head ${at(r.at)} body ${at(r.firstByteAt)} answer ${at(r.answeredAt)}`,
      );
      console.error(`trace: ${lines.join(' | ')} | done ${Math.round(result.ms)}`);
    }
    const long = (stats?.idleGapsUp ?? []).filter((ms) => ms > rttMs / 2);
    if (who.kind === 'peer') checkTusStored(service.tusDir, result.urls ?? [], files);
    else await checkStored(service, result.files ?? [], files);
    return {
      seconds: result.ms / 1000,
      requests: requests.length,
      byMethod: countBy(requests, (r) => r.method),
      httpVersions: countBy(requests, (r) => r.httpVersion),
      connections: stats?.connections ?? 0,
      linkIdleSeconds: stats ? (elapsed - stats.busyUpMs) / 1000 : 0,
      idleGaps: long.length,
      idleGapSeconds: long.reduce((a, b) => a + b, 0) / 1000,
    };
  } finally {
    for (const end of ends) await end();
    await context.close();
  }
}
