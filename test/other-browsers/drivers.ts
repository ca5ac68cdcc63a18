/**
 * Two ways into a browser, behind one small interface: Debian's Firefox ESR through puppeteer-core over WebDriver
 * BiDi, and WebKitGTK's MiniBrowser through Debian's WebKitWebDriver (classic WebDriver over HTTP, spoken here with
 * `fetch`). Nothing is downloaded: both binaries come from Debian packages (scripts/ensure-other-browsers.sh).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';

/** What a check needs of a browser. `evaluate` takes a JavaScript expression (a promise is awaited). */
export interface BrowserDriver {
  readonly name: string;
  /** Browser name and version, as the driver reports them. */
  readonly version: string;
  goto(url: string): Promise<void>;
  reload(): Promise<void>;
  evaluate<T>(expression: string): Promise<T>;
  /** Errors heard through the driver (page errors, console errors), cleared by reading. */
  takeDriverErrors(): string[];
  close(): Promise<void>;
}

const NAVIGATION_TIMEOUT = 30_000;
const COMMAND_TIMEOUT = 60_000;

export const FIREFOX_PATH = process.env.FIREFOX_PATH || '/usr/bin/firefox-esr';
export const WEBKIT_DRIVER_PATH = process.env.WEBKIT_DRIVER_PATH || '/usr/bin/WebKitWebDriver';
const TRIPLET = process.arch === 'arm64' ? 'aarch64-linux-gnu' : 'x86_64-linux-gnu';
export const MINIBROWSER_PATH = process.env.MINIBROWSER_PATH || `/usr/lib/${TRIPLET}/webkit2gtk-4.1/MiniBrowser`;

/** Firefox ESR, headless, over WebDriver BiDi. */
export async function launchFirefox(): Promise<BrowserDriver> {
  if (!existsSync(FIREFOX_PATH)) throw new Error(`${FIREFOX_PATH} is missing: run scripts/ensure-other-browsers.sh`);
  const browser: Browser = await puppeteer.launch({
    browser: 'firefox',
    executablePath: FIREFOX_PATH,
    headless: true,
    timeout: COMMAND_TIMEOUT,
    protocolTimeout: COMMAND_TIMEOUT,
    extraPrefsFirefox: {
      // A closed network: no updates, telemetry, remote settings or captive-portal probes.
      'app.update.enabled': false,
      'network.captive-portal-service.enabled': false,
      'network.connectivity-service.enabled': false,
      'datareporting.policy.dataSubmissionEnabled': false,
      'toolkit.telemetry.enabled': false,
    },
  });
  const page: Page = (await browser.pages())[0] ?? (await browser.newPage());
  page.setDefaultTimeout(COMMAND_TIMEOUT);
  page.setDefaultNavigationTimeout(NAVIGATION_TIMEOUT);
  let errors: string[] = [];
  // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-conversion -- a page may throw anything; String() keeps the log line text.
  page.on('pageerror', (error) => errors.push(`page error: ${String((error as Error).message ?? error)}`));
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(`console error: ${message.text()}`);
  });
  return {
    name: 'firefox',
    version: await browser.version(),
    async goto(url) {
      await page.goto(url, { waitUntil: 'load' });
    },
    async reload() {
      await page.reload({ waitUntil: 'load' });
    },
    async evaluate<T>(expression: string) {
      return (await page.evaluate(`Promise.resolve().then(() => (${expression}))`)) as T;
    },
    takeDriverErrors() {
      const taken = errors;
      errors = [];
      return taken;
    },
    async close() {
      await browser.close();
    },
  };
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const port = (server.address() as { port: number }).port;
  await new Promise<void>((done) => server.close(() => done()));
  return port;
}

interface WebDriverAnswer {
  value: unknown;
}

/**
 * WebKitGTK's MiniBrowser through WebKitWebDriver. `headless` uses MiniBrowser's own headless mode; otherwise the
 * caller provides a display (xvfb-run).
 */
export async function launchWebKit(options: { headless: boolean }): Promise<BrowserDriver> {
  if (!existsSync(WEBKIT_DRIVER_PATH))
    throw new Error(`${WEBKIT_DRIVER_PATH} is missing: run scripts/ensure-other-browsers.sh`);
  const port = await freePort();
  const child: ChildProcess = spawn(WEBKIT_DRIVER_PATH, [`--port=${port}`, '--host=127.0.0.1'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  child.stdout?.on('data', (c: Buffer) => (log += c.toString()));
  child.stderr?.on('data', (c: Buffer) => (log += c.toString()));
  const base = `http://127.0.0.1:${port}`;

  const call = async (method: string, path: string, body?: unknown, timeout = COMMAND_TIMEOUT): Promise<unknown> => {
    const res = await fetch(base + path, {
      method,
      headers: { 'content-type': 'application/json; charset=utf-8' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      signal: AbortSignal.timeout(timeout),
    });
    const answer = (await res.json()) as WebDriverAnswer;
    if (!res.ok) {
      const v = answer.value as { error?: string; message?: string } | undefined;
      throw new Error(`WebDriver ${method} ${path}: ${res.status} ${v?.error}: ${v?.message}`);
    }
    return answer.value;
  };

  const up = Date.now();
  for (;;) {
    try {
      const status = (await call('GET', '/status', undefined, 2_000)) as { ready?: boolean };
      if (status.ready !== false) break;
    } catch {
      // not listening yet
    }
    if (child.exitCode !== null || Date.now() - up > 15_000) {
      child.kill();
      throw new Error(`WebKitWebDriver did not start:\n${log}`);
    }
    // eslint-disable-next-line no-restricted-syntax -- time-wait: the poll interval of a bounded readiness check (the driver has no readiness event).
    await new Promise((r) => setTimeout(r, 100));
  }

  let session: { sessionId: string; capabilities: { browserName?: string; browserVersion?: string } };
  try {
    session = (await call('POST', '/session', {
      capabilities: {
        alwaysMatch: {
          'webkitgtk:browserOptions': {
            binary: MINIBROWSER_PATH,
            args: ['--automation', ...(options.headless ? ['--headless'] : [])],
          },
        },
      },
    })) as typeof session;
  } catch (error) {
    child.kill();
    throw new Error(`${(error as Error).message}\n${log}`);
  }
  const s = `/session/${session.sessionId}`;
  await call('POST', `${s}/timeouts`, { script: COMMAND_TIMEOUT, pageLoad: NAVIGATION_TIMEOUT });

  return {
    name: 'webkit',
    version: `${session.capabilities.browserName ?? 'MiniBrowser'}/${session.capabilities.browserVersion ?? '?'}`,
    async goto(url) {
      await call('POST', `${s}/url`, { url });
    },
    async reload() {
      await call('POST', `${s}/refresh`, {});
    },
    async evaluate<T>(expression: string) {
      // Async script: the last argument is the callback; errors come back as data so their text survives.
      const script = `const done = arguments[arguments.length - 1];
        Promise.resolve().then(() => (${expression})).then(
          (value) => done({ ok: true, value: value === undefined ? null : value }),
          (error) => done({ ok: false, error: String((error && error.stack) || error) }));`;
      const out = (await call('POST', `${s}/execute/async`, { script, args: [] }, COMMAND_TIMEOUT + 5_000)) as {
        ok: boolean;
        value?: T;
        error?: string;
      };
      if (!out.ok) throw new Error(`in the page: ${out.error}`);
      return out.value as T;
    },
    takeDriverErrors() {
      // Classic WebDriver has no log endpoint in WebKitGTK: the page's own capture (capture.js) is the record.
      return [];
    },
    async close() {
      await call('DELETE', s, undefined, 15_000).catch(() => undefined);
      child.kill();
      await new Promise((r) => (child.exitCode !== null ? r(undefined) : child.once('exit', r)));
    },
  };
}
