/**
 * Issue 40's repro: which Chromium process may send a chosen file *by itself* (the `File` as an XHR body, which
 * Chromium uploads by its path) from the site's shared worker. A file chosen on one page through a real file input
 * (`setInputFiles` on a file on disk: a file-backed `File` with a path) is posted to the site's one `SharedWorker`,
 * which PUTs it to a resumable session of the real service behind a counting proxy — by itself, as
 * `file.slice(0, size)`, or through `fetch` — with and without a second tab, after a navigation, and with the choosing
 * page closed. Prints one line per case: what the worker's request saw and what reached the service.
 *
 * `flock /tmp/chromium.lock node --import tsx bench/file-body-repro/run.ts` (about a minute; `REPRO_NETLOG=<file>`
 * keeps the net log). bench/README.md, "Why the engine sent a slice, and when it sends the file", has the results and
 * what Chromium's source says.
 */
import { chromium, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startService } from '../../test/server/helpers/service.ts';
import { startCountingProxy } from '../../test/client/helpers/counting-proxy.ts';

type How = 'file' | 'slice' | 'fetch-file';
/** What page.html gives its tests. */
interface Win {
  repro: {
    keep(id: string): Promise<unknown>;
    put(id: string, url: string, how: How): Promise<Outcome>;
    dedicated(url: string, how: How): Promise<Outcome>;
  };
}
interface Outcome {
  status: number;
  error: string | null;
  uploaded?: number;
  ms?: number;
}

const SIZE = 8 * 1024 * 1024;
const here = import.meta.dirname;
const { CHROMIUM_PATH, CHROMIUM_ARGS } = (await import('../../test/browser/chromium.js' as string)) as {
  CHROMIUM_PATH: string;
  CHROMIUM_ARGS: string[];
};

const service = await startService();
const proxy = await startCountingProxy(service.url);
const site = createServer((req, res) => {
  const path = new URL(req.url ?? '/', 'http://x').pathname;
  const file = path === '/shared-worker.js' ? 'shared-worker.js' : path.startsWith('/page') ? 'page.html' : undefined;
  if (!file) return void res.writeHead(404).end();
  const type = file.endsWith('.js') ? 'text/javascript' : 'text/html; charset=utf-8';
  res.writeHead(200, { 'content-type': type, 'cache-control': 'no-store' }).end(readFileSync(join(here, file)));
});
await new Promise<void>((done) => site.listen(0, '127.0.0.1', done));
const origin = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
const dir = mkdtempSync(join(tmpdir(), 'file-body-repro-'));
const chosen = join(dir, 'chosen.bin');
writeFileSync(chosen, randomBytes(SIZE));

/** A resumable session for the chosen file, addressed through the counting proxy. */
async function session(name: string): Promise<string> {
  const r = await service.api('POST', '/upload/store/v3/files?uploadType=resumable', {
    body: { name },
    headers: { 'x-upload-content-length': String(SIZE) },
  });
  if (r.status !== 200) throw new Error(`session start answered ${r.status}: ${r.text}`);
  const location = new URL(String(r.headers['location']));
  return proxy.url + location.pathname + location.search;
}

/** What reached the service for a session: the PUTs' body bytes and answers at the proxy. */
function reached(url: string): string {
  const path = new URL(url).pathname + new URL(url).search;
  const puts = proxy.requests.filter((r) => r.method === 'PUT' && r.url === path);
  return puts.length === 0 ? 'no request' : puts.map((r) => `PUT ${r.received} B → ${r.status ?? '…'}`).join(', ');
}

async function open(context: BrowserContext, query = ''): Promise<Page> {
  const page = await context.newPage();
  await page.goto(`${origin}/page.html${query}`);
  return page;
}
async function choose(page: Page, id: string): Promise<void> {
  await page.setInputFiles('#pick', chosen);
  await page.evaluate((i) => (globalThis as unknown as Win).repro.keep(i), id);
}
async function put(page: Page, id: string, how: How): Promise<{ outcome: Outcome; url: string }> {
  const url = await session(`${id}-${how}`);
  const outcome = await page.evaluate(({ i, u, h }) => (globalThis as unknown as Win).repro.put(i, u, h), {
    i: id,
    u: url,
    h: how,
  });
  return { outcome, url };
}

/** Renderer processes alive now (CDP SystemInfo), to see whether two tabs share one. */
async function renderers(browser: Browser): Promise<number> {
  const cdp = await browser.newBrowserCDPSession();
  const { processInfo } = (await cdp.send('SystemInfo.getProcessInfo')) as { processInfo: { type: string }[] };
  await cdp.detach();
  return processInfo.filter((p) => p.type === 'renderer').length;
}

/** Each case: which page chose the file, which page asks the worker to send it, and what happened in between. */
const cases: Record<string, (context: BrowserContext, id: string) => Promise<Page>> = {
  'one page chooses and asks': async (context, id) => {
    const page = await open(context);
    await choose(page, id);
    return page;
  },
  'second tab chooses (the worker was started by the first)': async (context, id) => {
    await open(context, '?a');
    const second = await open(context, '?b');
    await choose(second, id);
    return second;
  },
  'the page navigated, then chose': async (context, id) => {
    const page = await open(context, '?a');
    await page.goto(`${origin}/page-two.html`);
    await choose(page, id);
    return page;
  },
  'the choosing page navigated away before the PUT': async (context, id) => {
    const page = await open(context, '?a');
    await choose(page, id);
    await page.goto(`${origin}/page-two.html`);
    return page;
  },
  'the choosing page closed before the PUT (the first tab asks)': async (context, id) => {
    const first = await open(context, '?a');
    const second = await open(context, '?b');
    await choose(second, id);
    await second.close();
    return first;
  },
  'the only page chose, a new tab asks, the chooser closed': async (context, id) => {
    const page = await open(context, '?a');
    await choose(page, id);
    const next = await open(context, '?b');
    await page.close();
    return next;
  },
};

async function run(label: string, extraArgs: string[], only?: string[]): Promise<void> {
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: [...CHROMIUM_ARGS, ...extraArgs] });
  try {
    for (const [name, arrange] of Object.entries(cases)) {
      if (only && !only.includes(name)) continue;
      for (const how of ['file', 'slice', 'fetch-file'] as How[]) {
        const context = await browser.newContext();
        const id = `${Object.keys(cases).indexOf(name)}${how}`;
        const asker = await arrange(context, id);
        const procs = await renderers(browser);
        const { outcome, url } = await put(asker, id, how);
        console.log(
          `${label} | ${name} | ${how} | worker: ${outcome.status}${outcome.error ? ` (${outcome.error})` : ''} ` +
            `in ${Math.round(outcome.ms ?? 0)} ms | service: ${reached(url)} | renderers: ${procs}`,
        );
        await context.close();
      }
    }
    // Contrast: a dedicated worker lives in its page's process.
    const context = await browser.newContext();
    await open(context, '?a');
    const second = await open(context, '?b');
    await second.setInputFiles('#pick', chosen);
    const url = await session('dedicated');
    const outcome = (await second.evaluate(
      (u) => (globalThis as unknown as Win).repro.dedicated(u, 'file'),
      url,
    )) as Outcome;
    console.log(
      `${label} | second tab, its own dedicated worker | file | worker: ${outcome.status} | service: ${reached(url)}`,
    );
    await context.close();
  } finally {
    await browser.close();
  }
}

try {
  // REPRO_NETLOG=<file> keeps Chromium's net log of the default run: the refused PUT's error is in it by name.
  await run('default', process.env.REPRO_NETLOG ? [`--log-net-log=${process.env.REPRO_NETLOG}`] : []);
  // The control: one process per site, so the pages and the shared worker share one — the grant then covers the worker.
  await run(
    '--process-per-site',
    ['--process-per-site'],
    [
      'second tab chooses (the worker was started by the first)',
      'the choosing page closed before the PUT (the first tab asks)',
    ],
  );
} finally {
  site.close();
  await proxy.close();
  await service.stop();
  rmSync(dir, { recursive: true, force: true });
}
