// The page uploader as an app gets it from `createUploader`, run in Node: its engine is an in-process
// `UploadWorkerService` (the `service` option, as the browser suites' in-page engine) over the node:http port, a
// memory session store and memory locks, talking to the real reference service. Records every event the uploader
// dispatches, in order, and lets a test wait for one.
import { MemoryLocks } from '../../../src/uploader/adapters/memory-locks.ts';
import { MemorySessionStore } from '../../../src/uploader/adapters/memory-session-store.ts';
import { systemClock } from '../../../src/uploader/adapters/system-clock.ts';
import { EngineHubs, UploadWorkerService } from '../../../src/uploader/worker/worker-service.ts';
import { createUploader, type UploaderInput } from '../../../src/uploader/page/create-uploader.ts';
import type { Uploader, UploaderEventMap } from '../../../src/uploader/contract/types.ts';
import { withTimeout } from '../../../src/uploader/contract/with-timeout.ts';
import type { TaskEvent } from '../../../src/uploader/contract/worker-contract.ts';
import { nodeHttp } from './node-http-port.ts';
import { after, afterEach, before } from 'node:test';
import { clearFaults, TOKEN } from './engine-harness.ts';
import { startService, type ServiceHandle } from '../../server/helpers/service.ts';

const KiB = 1024;
/** How long a test waits for an event the uploader should dispatch before it fails naming it. */
const EVENT_TIMEOUT_MS = 30_000;

type EventName = keyof UploaderEventMap;
type Detail<K extends EventName> = UploaderEventMap[K] extends CustomEvent<infer D> ? D : never;
const NAMES: EventName[] = [
  'add',
  'start',
  'progress',
  'retry',
  'success',
  'error',
  'interrupted-found',
  'reject',
  'change',
];

/**
 * The real service, telling when the page's `destroy` has reached the engine and the engine has stopped. With
 * `eventsLater`, each batch of task events reaches the page a macrotask later, in order, as it would across threads
 * (a worker's port), not inside the call that made it.
 */
export class PageService extends UploadWorkerService {
  eventsLater = false;
  #end!: () => void;
  readonly ended = new Promise<void>((resolve) => (this.#end = resolve));
  /** Batches held back (`holdEvents`), in order. */
  #held?: TaskEvent[][];
  #deliver: (events: TaskEvent[]) => void = () => undefined;
  override init(...[settings, getAccessToken, onEvent, onEvents, state]: Parameters<UploadWorkerService['init']>) {
    this.#deliver = (events) => {
      if (this.eventsLater) setImmediate(() => onEvents?.(events));
      else onEvents?.(events);
    };
    const deliver = (events: TaskEvent[]): void => {
      if (this.#held) this.#held.push(events);
      else this.#deliver(events);
    };
    return super.init(settings, getAccessToken, onEvent, onEvents && deliver, state);
  }
  /**
   * Task events wait until the returned function is called: the page's calls are answered meanwhile, as when a
   * worker's events come on another port than its answers, later.
   */
  holdEvents(): () => void {
    this.#held ??= [];
    return () => {
      const held = this.#held ?? [];
      this.#held = undefined;
      for (const events of held) this.#deliver(events);
    };
  }
  override async destroy(): Promise<void> {
    try {
      await super.destroy();
    } finally {
      this.#end();
    }
  }
}

export interface PageUploader {
  uploader: Uploader;
  /** The engine's service the uploader was given (`service` option). */
  service: PageService;
  store: MemorySessionStore;
  /** Every event dispatched, in order: its name and detail. */
  events: { type: EventName; detail: unknown }[];
  /** The details of the events named `type`, in order. */
  of<K extends EventName>(type: K): Detail<K>[];
  /** Resolves with the first event named `type` (from now on) whose detail `test` accepts. */
  when<K extends EventName>(type: K, test?: (detail: Detail<K>) => boolean): Promise<Detail<K>>;
  /** Settles once `uploader.destroy()` has stopped the engine (a dedicated one has stored its sessions then). */
  ended(): Promise<void>;
  /** Like `when`, but an event dispatched already counts too. */
  ever<K extends EventName>(type: K, test?: (detail: Detail<K>) => boolean): Promise<Detail<K>>;
}

/**
 * `createUploader` with an in-process engine: resumable 256 KiB chunks, a short backoff and a dedicated host unless
 * `options` say otherwise. `store`: the session store its engine keeps records in (share one for a "next visit").
 */
export function pageUploader(
  baseUrl: string,
  options: Partial<UploaderInput> = {},
  store = new MemorySessionStore(),
  host: 'dedicated' | 'shared' = 'dedicated',
  eventsLater = false,
): PageUploader {
  const locks = new MemoryLocks();
  const service = new PageService(new EngineHubs(() => ({ http: nodeHttp, store, clock: systemClock, locks }), host));
  service.eventsLater = eventsLater;
  const uploader = createUploader({
    // With the app's client, its own are the defaults (`create-uploader.ts`).
    ...(!options.client && { baseUrl, getAccessToken: () => TOKEN }),
    service,
    chunkSize: 256 * KiB,
    resumableThreshold: 0,
    backoff: { baseMs: 20, capMs: 200 },
    ...options,
  });
  const events: PageUploader['events'] = [];
  const waiters: { type: EventName; test: (detail: never) => boolean; resolve: (detail: never) => void }[] = [];
  for (const type of NAMES)
    uploader.addEventListener(type, (event: Event) => {
      const detail = (event as CustomEvent).detail as never;
      events.push({ type, detail });
      for (const w of [...waiters])
        if (w.type === type && w.test(detail)) {
          waiters.splice(waiters.indexOf(w), 1);
          w.resolve(detail);
        }
    });
  const of = <K extends EventName>(type: K) => events.filter((e) => e.type === type).map((e) => e.detail as Detail<K>);
  const when = <K extends EventName>(type: K, test: (detail: Detail<K>) => boolean = () => true) =>
    withTimeout(
      new Promise<Detail<K>>((resolve) => waiters.push({ type, test: test as never, resolve: resolve as never })),
      EVENT_TIMEOUT_MS,
      () => new Error(`no ${type} event within ${EVENT_TIMEOUT_MS} ms`),
    );
  const ever = <K extends EventName>(type: K, test: (detail: Detail<K>) => boolean = () => true) => {
    const seen = of(type).find(test);
    return seen === undefined ? when(type, test) : Promise.resolve(seen);
  };
  return { uploader, service, store, events, of, when, ever, ended: () => service.ended };
}

/** A File of random-looking bytes (seeded: the same `seed` gives the same bytes). */
export function seededFile(size: number, seed: number, name = `p-${seed}-${size}.bin`): File {
  const bytes = new Uint8Array(size);
  let x = seed >>> 0 || 1;
  for (let i = 0; i < size; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    bytes[i] = x & 0xff;
  }
  return new File([bytes], name, { type: 'application/octet-stream', lastModified: 1_700_000_000_000 });
}

/**
 * A suite's real service and its page uploaders: the service starts before the suite's tests and stops after them,
 * and each test's uploaders are destroyed (and the service's faults cleared) when it ends.
 */
export function pageSuite(): {
  readonly service: ServiceHandle;
  page(...args: Parameters<typeof pageUploader> extends [string, ...infer R] ? R : never): PageUploader;
} {
  let service: ServiceHandle | undefined;
  const destroy: (() => void)[] = [];
  before(async () => {
    service = await startService();
  });
  afterEach(async () => {
    for (const end of destroy.splice(0)) end();
    await clearFaults(service!.url);
  });
  after(async () => {
    await service?.stop();
  });
  return {
    get service() {
      return service!;
    },
    page(...args) {
      const made = pageUploader(service!.url, ...args);
      destroy.push(() => made.uploader.destroy());
      return made;
    },
  };
}
