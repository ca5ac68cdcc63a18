/**
 * What the acceptance specs share: a real `store-service` (port 0, temp data dir, `--admin`), the built browser bundle
 * (`npx vite build`) served by the upload-page server, and a harness page that loads the bundle with one module script
 * — the plain-page way a user takes the kit — and drives `createUploader` the way an app does. Files are random bytes
 * made in the page; the spec downloads what the service stored and compares SHA-256 digests, counts files by name,
 * and reads the kit's IndexedDB records directly.
 */
import { expect, test, type Page } from '@playwright/test';
import { createHash } from 'node:crypto';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startService, type ServiceHandle } from '../server/helpers/service.ts';
import { startUploadPage, type UploadPage } from '../client/helpers/upload-page.ts';

export const KiB = 1024;
export const MiB = 1024 * KiB;
export const TOKEN = 'dev-token-alice';

/** The harness page: `window.h` creates an uploader, makes files, adds them and records what the app sees. */
const HARNESS = `<!doctype html>
<html lang="en"><meta charset="utf-8"><title>acceptance</title>
<script type="module">
  import * as kit from './dist/browser/store-upload-kit.js';
  const files = new Map();
  const tasks = new Map();
  const results = new Map();
  const h = {
    kit, tasks, results, events: [], tokenCalls: 0, uploader: undefined, createError: undefined,
    /** tokens: what getAccessToken answers, call after call (the last one repeats). */
    create(options, tokens = ['${TOKEN}']) {
      const params = new URLSearchParams(location.search);
      try {
        const u = kit.createUploader({
          baseUrl: params.get('service'),
          getAccessToken: () => tokens[Math.min(h.tokenCalls++, tokens.length - 1)],
          ...options,
        });
        for (const type of ['add', 'start', 'retry', 'success', 'error']) {
          u.addEventListener(type, (e) => h.events.push({ type, id: e.detail.id, state: e.detail.state, cause: e.detail.retry?.cause, code: e.detail.error?.code }));
        }
        h.uploader = u;
        return { ok: true };
      } catch (error) {
        return { ok: false, name: error?.name, code: error?.code, message: String(error?.message ?? error) };
      }
    },
    makeFile(name, size, type = 'application/octet-stream') {
      const bytes = new Uint8Array(size);
      for (let at = 0; at < size; at += 65536) crypto.getRandomValues(bytes.subarray(at, Math.min(size, at + 65536)));
      files.set(name, new File([bytes], name, { type, lastModified: 1700000000000 }));
    },
    add(name, options) {
      const task = h.uploader.add(files.get(name), options);
      tasks.set(task.id, task);
      h.track(task);
      return task.id;
    },
    /** Records how the task's current done settles (read again after retry()). */
    track(task) {
      results.delete(task.id);
      task.done.then(
        (file) => results.set(task.id, { ok: true, file }),
        (error) => results.set(task.id, { ok: false, code: error.code, message: error.message, status: error.status }),
      );
    },
    async sha256(name) {
      const digest = await crypto.subtle.digest('SHA-256', await files.get(name).arrayBuffer());
      return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
    },
    snapshot(id) {
      return tasks.get(id).snapshot;
    },
    /** The kit's session records in IndexedDB, as plain data. */
    records() {
      return new Promise((resolve, reject) => {
        const open = indexedDB.open('store-upload-kit');
        // Not there yet: leave creating it to the kit; and close after reading, so the kit's upgrades never wait on it.
        open.onupgradeneeded = () => open.transaction.abort();
        open.onerror = () => (open.error && open.error.name === 'AbortError' ? resolve([]) : reject(open.error));
        open.onsuccess = () => {
          const db = open.result;
          if (!db.objectStoreNames.contains('sessions')) return db.close(), resolve([]);
          const all = db.transaction('sessions').objectStore('sessions').getAll();
          all.onsuccess = () => resolve(all.result.map((r) => ({ id: r.id, name: r.name, sessionUri: r.sessionUri, acknowledged: r.acknowledged })));
          all.onerror = () => reject(all.error);
          db.close();
        };
      });
    },
  };
  window.h = h;
</script>
</html>`;

/** Opens the harness page (same origin as the bundle) pointed at `service`. */
export async function openHarness(page: Page, pageOrigin: string, service: string): Promise<void> {
  const url = `${pageOrigin}/acceptance.html?service=${encodeURIComponent(service)}`;
  await page.route(`${pageOrigin}/acceptance.html*`, (route) =>
    route.fulfill({ status: 200, contentType: 'text/html; charset=utf-8', body: HARNESS }),
  );
  await page.goto(url);
  await page.waitForFunction(() => 'h' in globalThis);
}

/** The outcome of a task's current `done`, as the page saw it. */
export interface Outcome {
  ok: boolean;
  file?: { id: string; name: string; size?: string; md5Checksum?: string; mimeType?: string };
  code?: string;
  message?: string;
  status?: number;
}

/** A task's snapshot as the page reads it. */
export interface Snapshot {
  id: string;
  state: string;
  bytesSent: number;
  bytesAcknowledged: number;
  total: number;
  strategy?: string;
  retry?: { attempt: number; cause: string };
  error?: { code: string; message: string };
}

/** One event the page heard (progress and change left out). */
export interface HeardEvent {
  type: string;
  id: string;
  state: string;
  cause?: string;
  code?: string;
}

/** Typed calls into the harness page. */
export class Harness {
  constructor(
    readonly page: Page,
    readonly service: ServiceHandle,
  ) {}

  /** `createUploader(options)` with a short backoff unless given; `tokens` are what `getAccessToken` answers in turn. */
  async create(
    options: Record<string, unknown> = {},
    tokens?: string[],
  ): Promise<{ ok: boolean; name?: string; code?: string; message?: string }> {
    return this.page.evaluate(([o, t]) => window.h.create(o, t), [
      { backoff: { baseMs: 50, capMs: 400 }, ...options },
      tokens,
    ] as const);
  }

  async makeFile(name: string, size: number, type?: string): Promise<void> {
    await this.page.evaluate(([n, s, t]) => window.h.makeFile(n, s, t), [name, size, type] as const);
  }

  async add(name: string, options?: Record<string, unknown>): Promise<string> {
    return this.page.evaluate(([n, o]) => window.h.add(n, o), [name, options] as const);
  }

  /** Waits for the task's current `done` to settle. */
  async outcome(id: string, timeout = 60_000): Promise<Outcome> {
    const handle = await this.page.waitForFunction((taskId) => window.h.results.get(taskId), id, {
      timeout,
      polling: 50,
    });
    return (await handle.jsonValue()) as Outcome;
  }

  async snapshot(id: string): Promise<Snapshot> {
    return this.page.evaluate((taskId) => window.h.snapshot(taskId), id);
  }

  /** Waits until the task's snapshot satisfies `check` (polled in Node, so any closure works). */
  async waitFor(id: string, what: string, check: (s: Snapshot) => boolean, timeout = 30_000): Promise<Snapshot> {
    let last: Snapshot | undefined;
    await expect
      .poll(async () => check((last = await this.snapshot(id))), {
        message: `waiting for ${what}`,
        timeout,
        intervals: [25, 50, 100],
      })
      .toBe(true);
    return last!;
  }

  async events(id?: string): Promise<HeardEvent[]> {
    const all = await this.page.evaluate(() => window.h.events as HeardEvent[]);
    return id === undefined ? all : all.filter((e) => e.id === id);
  }

  async tokenCalls(): Promise<number> {
    return this.page.evaluate(() => window.h.tokenCalls);
  }

  async command(id: string, name: 'pause' | 'resume' | 'cancel' | 'retry'): Promise<void> {
    await this.page.evaluate(
      ([taskId, n]) => {
        const task = window.h.tasks.get(taskId);
        task[n]();
        if (n === 'retry') window.h.track(task);
      },
      [id, name] as const,
    );
  }

  async records(): Promise<{ id: string; name: string; sessionUri: string; acknowledged: number }[]> {
    return this.page.evaluate(() => window.h.records());
  }

  /**
   * The demanding end check of every upload: the stored bytes hash like the page's file, exactly one file has its
   * name, and no session record is left in IndexedDB. The record check is global: call it only once no resumable
   * upload of the page is still running (a running one's record is rightly there).
   */
  async expectStoredOnce(name: string, outcome: Outcome): Promise<void> {
    expect(outcome.ok, `${outcome.code}: ${outcome.message}`).toBe(true);
    const file = outcome.file!;
    expect(file.name).toBe(name);
    const stored = await this.service.api('GET', `/store/v3/files/${encodeURIComponent(file.id)}?alt=media`);
    expect(stored.status).toBe(200);
    const sent = await this.page.evaluate((n) => window.h.sha256(n), name);
    expect(createHash('sha256').update(stored.body).digest('hex')).toBe(sent);
    expect(await filesNamed(this.service, name)).toEqual([file.id]);
    expect(await this.records()).toEqual([]);
  }
}

/** IDs of every file with exactly this name (listed, then filtered here: names may hold quotes). */
export async function filesNamed(service: ServiceHandle, name: string): Promise<string[]> {
  const res = await service.api('GET', '/store/v3/files?pageSize=1000&fields=files(id,name)');
  expect(res.status).toBe(200);
  return res
    .json<{ files: { id: string; name: string }[] }>()
    .files.filter((f) => f.name === name)
    .map((f) => f.id);
}

/** IDs of the resumable sessions still open on the service for a file of this name (`GET /__admin/sessions`). */
export async function openSessionsNamed(service: ServiceHandle, name: string): Promise<string[]> {
  const res = await service.api('GET', '/__admin/sessions', { token: null });
  expect(res.status).toBe(200);
  return res
    .json<{ sessions: { id: string; name: string | null }[] }>()
    .sessions.filter((s) => s.name === name)
    .map((s) => s.id);
}

export async function addFault(service: ServiceHandle, fault: object): Promise<void> {
  const res = await service.api('POST', '/__admin/faults', { token: null, body: fault });
  expect(res.status, res.text).toBe(200);
}

export async function clearFaults(service: ServiceHandle): Promise<void> {
  await service.api('DELETE', '/__admin/faults', { token: null });
}

/**
 * A proxy in front of the service that counts upload requests in flight at once (`/upload/` paths), for the
 * concurrency check, and can be told to hold every request for a while.
 */
export interface InFlightProxy {
  url: string;
  maxInFlight: number;
  uploads: number;
  close(): Promise<void>;
}

export async function startInFlightProxy(target: string): Promise<InFlightProxy> {
  const upstream = new URL(target);
  let inFlight = 0;
  const proxy: InFlightProxy = { url: '', maxInFlight: 0, uploads: 0, close: async () => undefined };
  const server: Server = createServer((req, res) => {
    const upload = (req.url ?? '').startsWith('/upload/') && req.method !== 'OPTIONS';
    if (upload) {
      proxy.uploads++;
      proxy.maxInFlight = Math.max(proxy.maxInFlight, ++inFlight);
    }
    let ended = false;
    const end = () => {
      if (upload && !ended) inFlight--;
      ended = true;
    };
    res.on('close', end);
    const out = request(
      { host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    out.on('error', () => res.destroy());
    req.pipe(out);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  proxy.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  proxy.close = () =>
    new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return proxy;
}

declare global {
  interface Window {
    // The harness page's object; typed loosely on purpose (it is plain JS in the page).
    h: any;
  }
}

/** What an acceptance spec file works with: one service and one harness page server per file, a fresh harness per test. */
export interface AcceptanceEnv {
  service: ServiceHandle;
  pages: UploadPage;
  h: Harness;
}

/**
 * Registers the hooks every acceptance spec file shares: start a service and the harness page server once, and
 * before each test clear the faults and open a fresh harness. `use` receives the values each time they change.
 */
export function useAcceptanceEnv(use: (env: AcceptanceEnv) => void): void {
  const env = {} as AcceptanceEnv;
  test.beforeAll(async () => {
    env.service = await startService();
    env.pages = await startUploadPage();
    use(env);
  });
  test.afterAll(async () => {
    await env.pages?.stop();
    await env.service?.stop();
  });
  test.beforeEach(async ({ page }) => {
    await clearFaults(env.service);
    await openHarness(page, env.pages.origin, env.service.url);
    env.h = new Harness(page, env.service);
    use(env);
  });
}
