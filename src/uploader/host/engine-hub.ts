import { createUploadClient } from '../../client/upload-client.ts';
import { ManualOnline } from '../adapters/manual-online.ts';
import { UploadEngine } from '../engine/engine.ts';
import { NoPageAttached } from '../engine/no-page.ts';
import type { ChannelPort, ClockPort, HasherPort, HttpPort, LockPort, SessionStore } from '../ports.ts';
import type { UploaderSettings } from '../settings.ts';
import { withTimeout } from '../with-timeout.ts';
import type { TaskSnapshot } from '../types.ts';
import { isFinal } from '../task-state.ts';
import type { JobEvent } from '../engine/upload-job.ts';

/** What a page hears of its engine's tasks: the jobs' events, and `removed` when a page dropped a finished task. */
export type PageEvent = JobEvent | 'removed';

/** The adapters the engine runs on, chosen by the worker's composition root once the settings are known. */
export interface EnginePorts {
  http: HttpPort;
  store: SessionStore;
  clock: ClockPort;
  locks: LockPort;
  channel?: ChannelPort;
  /** Absent when the uploader does not verify. */
  hasher?: HasherPort;
}

/** One page attached to a hub: where its events go and how its token getter is asked. */
export interface AttachedPage {
  getAccessToken(): string | Promise<string>;
  send(event: PageEvent, snapshot: TaskSnapshot): void;
}

/** How long a page may take to give a token before the next page is asked (a frozen or closing page never answers). */
const TOKEN_TIMEOUT_MS = 10_000;

class TokenTimeout extends Error {}

/**
 * One upload engine and the pages attached to it. In a shared worker every page and tab of the site whose
 * uploader has the same settings attaches to one hub: each hears every task's events, and the engine asks the
 * most recently attached page for a token, the next one when that page does not answer, and — when no page is
 * attached — pauses the task with code `auth` until one attaches (`NoPageAttached`). The engine never stops
 * because a page left: what it was given goes on for as long as the worker lives.
 */
export class EngineHub {
  readonly engine: UploadEngine;
  readonly #pages = new Map<string, AttachedPage>();
  /** Tasks that have not ended, by id: while there are any, `onBusy(true)` (pages loading then attach at once). */
  readonly #live = new Set<string>();
  /** Tasks that ended while no page was attached: the next page to attach shows how they ended. */
  readonly #unseen = new Set<string>();
  readonly #online = new ManualOnline(true);
  #attached = deferred();

  constructor(
    readonly settings: UploaderSettings,
    ports: EnginePorts,
    private readonly onBusy?: (busy: boolean) => void,
  ) {
    this.engine = new UploadEngine({
      ...ports,
      ...settings,
      client: createUploadClient({ baseUrl: settings.baseUrl, getAccessToken: () => this.#token() }),
      online: this.#online,
      onEvent: (event, snapshot) => this.send(event, snapshot),
    });
  }

  /**
   * Attaches a page and resolves the tasks that waited for one. Returns what the page shows: every task that has not
   * ended, and those that ended with no page to see it (a page attached when a task ended has shown it; the next
   * page of the site starts with a list of what still runs, as a page of its own would).
   */
  attach(id: string, page: AttachedPage, online: boolean): TaskSnapshot[] {
    this.#pages.set(id, page);
    this.#online.set(online);
    this.#attached.resolve();
    this.#attached = deferred();
    const shown = this.engine.snapshots().filter((task) => !isFinal(task.state) || this.#unseen.has(task.id));
    this.#unseen.clear();
    return shown;
  }

  /** The page left (navigated, closed, or destroyed its uploader): its tasks go on. */
  detach(id: string): void {
    this.#pages.delete(id);
  }

  get pages(): number {
    return this.#pages.size;
  }

  /** Connectivity as the latest page to notice a change saw it (pages of one browser share the network). */
  setOnline(online: boolean): void {
    this.#online.set(online);
  }

  /** Tells every attached page about a task (but `except`, which knows already). */
  send(event: PageEvent, snapshot: TaskSnapshot, except?: string): void {
    const before = this.#live.size;
    if (event === 'removed' || isFinal(snapshot.state)) this.#live.delete(snapshot.id);
    else this.#live.add(snapshot.id);
    if (this.#pages.size === 0 && event !== 'removed' && isFinal(snapshot.state)) this.#unseen.add(snapshot.id);
    if ((before === 0) !== (this.#live.size === 0)) this.onBusy?.(this.#live.size > 0);
    for (const [id, page] of this.#pages) if (id !== except) page.send(event, snapshot);
  }

  async #token(): Promise<string> {
    let failure: unknown;
    // The newest page first: it is the likeliest to be awake and signed in.
    for (const page of [...this.#pages.values()].reverse()) {
      try {
        return await withTimeout(
          Promise.resolve(page.getAccessToken()),
          TOKEN_TIMEOUT_MS,
          () => new TokenTimeout(`no token within ${TOKEN_TIMEOUT_MS} ms`),
        );
      } catch (error) {
        if (!(error instanceof TokenTimeout)) failure ??= error;
      }
    }
    // eslint-disable-next-line @typescript-eslint/only-throw-error -- rethrows what a page's getAccessToken threw, as it was.
    if (failure !== undefined) throw failure;
    throw new NoPageAttached(this.#attached.promise);
  }
}

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}
