/**
 * Page side: starts the worker that hosts the engine, and attaches the page to it. One module `SharedWorker` for the whole site where the browser
 * has them (every page names and configures it alike, or Chromium refuses the connection), asked for
 * `extendedLifetime` so it outlives navigations and, for a while, the last page (where the browser ignores it, a plain
 * shared worker still serves every open page: WebKit, Firefox); a dedicated worker of the page's own where there is
 * no `SharedWorker`, it cannot start (a script from another origin), or the app asked for one.
 */
import { proxy, wrap, type Remote } from 'comlink';
import { copiedWorkerUrl } from './copied-workers.ts';
import { workerAnswer } from './page-environment.ts';
import type { UploaderSettings } from '../contract/settings.ts';
import { startWorker } from '../contract/trusted-worker.ts';
import type { TaskSnapshot, UploaderHost } from '../contract/types.ts';
import type { Attachment, PageEvent, TaskEvent, WorkerCalls } from '../contract/worker-contract.ts';

/** The one name every page gives the site's shared worker. */
const SHARED_WORKER_NAME = 'store-upload-kit';

/** What a page gives its engine when it attaches: functions are called through comlink proxies. */
export interface PageSide {
  getAccessToken(): string | Promise<string>;
  onEvent(event: PageEvent, snapshot: TaskSnapshot): void;
  onEvents(events: TaskEvent[]): void;
  online: boolean;
  /** The Web Lock this page holds while it lives (see `holdPageLock`). */
  pageLock: Promise<string | undefined>;
  /** The account the app named, if it did (`UploaderOptions.account`). */
  account: string | undefined;
  /**
   * Told once the page's attach is on its way to `remote`: calls made from here on queue behind it in the worker, so
   * a chosen file is handed over without waiting for the answer (a page may be leaving).
   */
  posted(remote: Remote<WorkerCalls> | WorkerCalls): void;
}

/** The page's token now, as the worker is told it when the page's account changes; undefined when the getter failed. */
export async function tokenNow(getAccessToken: () => string | Promise<string>): Promise<string | undefined> {
  try {
    const token = await getAccessToken();
    return typeof token === 'string' && token !== '' ? token : undefined;
  } catch {
    return undefined;
  }
}

/** The page's link to its engine, once attached. */
export interface EngineLink {
  remote: Remote<WorkerCalls> | WorkerCalls;
  started?: StartedHost;
  attachment: Attachment;
}

/**
 * Attaches the page to its engine: in the site's shared worker first, and in a worker of the page's own when that
 * one cannot start or answer (unless the app said which: `host: 'dedicated'`, a `worker`, or an in-page `service`).
 */
export async function connectEngine(
  options: {
    host?: 'auto' | 'dedicated';
    worker?: Worker | SharedWorker;
    workerBase?: string | URL;
    service?: Remote<WorkerCalls> | WorkerCalls;
  },
  settings: UploaderSettings,
  page: PageSide,
): Promise<EngineLink> {
  const attach = async (remote: Remote<WorkerCalls> | WorkerCalls, started?: StartedHost): Promise<EngineLink> => {
    const pageLock = started?.host === 'dedicated' ? undefined : await page.pageLock;
    // The page's token goes with its attach when the app gives one at once (a fixed string: the element's `token`):
    // the worker then knows the page's account without asking back, and a page that leaves right after a choice
    // could not answer. A pending one is the worker's first ask, so the app is asked once either way.
    let asked: string | Promise<string> | undefined;
    try {
      asked = page.account === undefined ? page.getAccessToken() : undefined;
    } catch (error) {
      asked = Promise.reject(error);
    }
    Promise.resolve(asked).catch(() => undefined); // a failure is the worker's to report, when it asks
    const token = typeof asked === 'string' && asked !== '' ? asked : undefined;
    const first = Promise.resolve(
      remote.init(
        settings,
        proxy(() => {
          const pending = typeof asked === 'string' ? undefined : asked;
          asked = undefined;
          return pending ?? page.getAccessToken();
        }),
        proxy((event: PageEvent, snapshot: TaskSnapshot) => page.onEvent(event, snapshot)),
        proxy((events: TaskEvent[]) => page.onEvents(events)),
        {
          online: page.online,
          turns: true,
          ...(pageLock && { pageLock }),
          ...(page.account !== undefined && { account: page.account }),
          ...(token !== undefined && { token }),
        },
      ),
    );
    page.posted(remote);
    const attachment = await workerAnswer(started ? Promise.race([first, started.failed]) : first);
    return { remote, ...(started && { started }), attachment };
  };
  if (options.service) return attach(options.service);
  const given = options.worker;
  const base = options.workerBase;
  const shared =
    options.host === 'dedicated' || (given && !('port' in given)) ? undefined : startSharedHost(given, base);
  if (shared) {
    try {
      return await attach(shared.remote, shared);
    } catch (error) {
      shared.end();
      if (given) throw error;
    }
  }
  const dedicated = startDedicatedHost(given as Worker | undefined, base);
  return attach(dedicated.remote, dedicated);
}

/** A started worker, as the facade talks to it. */
export interface StartedHost {
  remote: Remote<WorkerCalls>;
  /** `shared-extended` or `shared` for a shared worker (whether the browser read `extendedLifetime`), else `dedicated`. */
  host: UploaderHost;
  /** Rejects when the worker's script fails to load. */
  failed: Promise<never>;
  /** Ends this page's link: a dedicated worker is terminated, a shared one only loses this page's port. */
  end(): void;
}

/**
 * Starts the site's shared worker (from the app's copy of the kit's workers when it names one, `base`); `undefined`
 * where there is none or it cannot start here.
 */
function startSharedHost(given?: SharedWorker, base?: string | URL): StartedHost | undefined {
  if (!given && typeof SharedWorker !== 'function') return undefined;
  let extended = false;
  let worker: SharedWorker;
  try {
    worker =
      given ??
      startWorker(
        base
          ? () =>
              new SharedWorker(copiedWorkerUrl(base, 'shared-worker.js'), {
                type: 'module',
                name: SHARED_WORKER_NAME,
                extendedLifetime: true,
              } as WorkerOptions)
          : () =>
              new SharedWorker(new URL('../worker/shared-worker.js', import.meta.url), {
                type: 'module',
                name: 'store-upload-kit',
                extendedLifetime: true,
              } as WorkerOptions),
        'SharedWorker',
        // Dictionary members the browser knows are read when the options are converted: reading this one means the
        // worker will outlive the page. The literal above stays as bundlers need it.
        (options) =>
          options && {
            ...options,
            get extendedLifetime() {
              extended = true;
              return true;
            },
          },
      );
  } catch {
    return undefined; // a SecurityError: the script is on another origin (a CDN), where a worker of its own still works
  }
  // Without `extendedLifetime` a plain shared worker still serves every open page of the site (WebKit, Firefox; there
  // the worker copies a page's in-memory Blobs before slicing them: worker/readable-file.ts).
  return {
    remote: wrap<WorkerCalls>(worker.port),
    host: extended ? 'shared-extended' : 'shared',
    failed: failureOf(worker),
    end: () => worker.port.close(),
  };
}

/** Starts a worker of this page's own (from the app's copy of the kit's workers when it names one, `base`). */
function startDedicatedHost(given?: Worker, base?: string | URL): StartedHost {
  const worker =
    given ??
    startWorker(
      base
        ? () => new Worker(copiedWorkerUrl(base, 'worker.js'), { type: 'module' })
        : () => new Worker(new URL('../worker/worker.js', import.meta.url), { type: 'module' }),
    );
  return {
    remote: wrap<WorkerCalls>(worker),
    host: 'dedicated',
    failed: failureOf(worker),
    end: () => worker.terminate(),
  };
}

function failureOf(worker: Worker | SharedWorker): Promise<never> {
  const failed = new Promise<never>((_, reject) =>
    worker.addEventListener(
      'error',
      (event) => reject(new Error((event as ErrorEvent).message || 'worker script failed to load')),
      { once: true },
    ),
  );
  failed.catch(() => undefined);
  return failed;
}

/**
 * Holds a Web Lock for as long as this page lives, so the shared worker learns when it is gone (it asks for the same
 * lock, and is granted it then). Resolves with the lock's name, or `undefined` without Web Locks; `release` lets go
 * early (the page's uploader was destroyed).
 */
export function holdPageLock(): { name: Promise<string | undefined>; release(): void } {
  const locks = (globalThis as { navigator?: { locks?: LockManager } }).navigator?.locks;
  let release = (): void => undefined;
  if (!locks) return { name: Promise.resolve(undefined), release };
  const key = `${SHARED_WORKER_NAME}:page:${crypto.randomUUID()}`;
  const name = new Promise<string | undefined>((resolve) => {
    locks
      .request(key, () => {
        resolve(key);
        return new Promise<void>((done) => (release = done));
      })
      .catch(() => resolve(undefined));
  });
  return { name, release: () => release() };
}
