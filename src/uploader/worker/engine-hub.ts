import { createUploadClient } from '../../client/upload-client.ts';
import { StoreError } from '../../client/store-error.ts';
import { ManualOnline } from '../adapters/manual-online.ts';
import { UploadEngine } from '../engine/engine.ts';
import { NoPageAttached } from '../engine/no-page.ts';
import type { ChannelPort, ClockPort, HasherPort, HttpPort, LockPort, SessionStore } from '../contract/ports.ts';
import type { UploaderSettings } from '../contract/settings.ts';
import { withTimeout } from '../contract/with-timeout.ts';
import type { TaskSnapshot } from '../contract/types.ts';
import { isFinal } from '../contract/task-state.ts';
import type { PageEvent, SignOutUploads } from '../contract/worker-contract.ts';
import { principalStore } from './principal-store.ts';
import { tokenPrincipal, userOfToken, type Principal } from './principals.ts';

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

/** One page attached to a hub (through its `PageBinding`): where its events go and how its token getter is asked. */
export interface AttachedPage {
  getAccessToken(): string | Promise<string>;
  send(event: PageEvent, snapshot: TaskSnapshot): void;
  /** The page's token now belongs to another account: the page is detached, and should find its account again. */
  moved?(): void;
}

/**
 * How long a page may take to give its token when the worker asks for it (a frozen or closing page never answers):
 * the hub then asks the next page, the page's binding fails the ask.
 */
export const TOKEN_TIMEOUT_MS = 10_000;

class TokenTimeout extends Error {}

/**
 * One account's upload engine and the pages of that account attached to it. In a shared worker every page and tab of
 * the site whose uploader has the same settings and whose token is of the same account (`principals.ts`) attaches to
 * one hub: each hears every task's events, and the engine asks the most recently attached page for a token, the next
 * one when that page does not answer, and — when no page of the account is attached — pauses the task with code `auth`
 * until one attaches (`NoPageAttached`). Every token a page gives is checked to be the account's before it is used:
 * a page whose token became another account's is detached, and no task is ever sent with it. The engine never stops
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
  /** The service's ID of the account's user: known from the start for `user:` principals, learned for `account:`. */
  #user: string | undefined;
  /** Signed out with `finish`: tasks end with the tokens given, and no page is asked for another. */
  #finishing = false;
  /** A token of this account a page just gave (`offer`), used as the engine's first: the app is not asked twice. */
  #offered: string | undefined;
  /** True once the engine has asked for a token: after that, each ask goes to the pages (it follows a 401). */
  #asked = false;

  constructor(
    readonly settings: UploaderSettings,
    readonly principal: Principal,
    ports: EnginePorts,
    private readonly onBusy?: (busy: boolean) => void,
  ) {
    if (principal.startsWith('user:')) this.#user = principal.slice('user:'.length);
    this.engine = new UploadEngine({
      settings,
      io: {
        ...ports,
        store: principalStore(ports.store, principal, () => ports.clock.now()),
        client: createUploadClient({ baseUrl: settings.baseUrl, getAccessToken: () => this.#token() }),
        online: this.#online,
      },
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
    this.#finishing = false; // the account signed in again
    this.#online.set(online);
    this.#attached.resolve();
    this.#attached = deferred();
    const shown = this.engine.snapshots().filter((task) => !isFinal(task.state) || this.#unseen.has(task.id));
    this.#unseen.clear();
    return shown;
  }

  /** The page left (navigated, closed, signed out or destroyed its uploader): its tasks go on. */
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

  /**
   * The account signs out (`Uploader.signOut`). `cancel`: every task is cancelled with the service, and every stored
   * session and file copy of the account deleted; `finish`: tasks end with the tokens already given (one refused
   * fails its task with `auth`), then the account's stored sessions are deleted; `keep`: nothing changes.
   */
  async signOut(uploads: SignOutUploads): Promise<void> {
    if (uploads === 'keep') return;
    const engine = this.engine;
    const live = engine.snapshots().filter((task) => !isFinal(task.state));
    this.#finishing = uploads === 'finish';
    // `finish` lets what runs or waits its turn end; a paused upload would never end by itself, so it goes too.
    const stopped = uploads === 'cancel' ? live : live.filter((task) => task.state === 'paused');
    await Promise.all(stopped.map((task) => engine.cancel(task.id)));
    // A cancel stops the request at once; its session and record go as its run ends.
    await Promise.all(live.map((task) => engine.done(task.id).catch(() => undefined)));
    await Promise.all((await engine.interrupted()).map((upload) => engine.discard(upload.id)));
  }

  /**
   * A token the page binding found to be this account's: the engine's first, unless it has asked already. With it the
   * engine fetches its first file IDs now, so the first file chosen goes out after one round trip, not three (issue 32).
   */
  offer(token: string): void {
    if (this.#asked) return;
    this.#offered = token;
    this.engine.prefetchIds();
  }

  async #token(): Promise<string> {
    const offered = this.#asked ? undefined : this.#offered;
    this.#asked = true;
    this.#offered = undefined;
    if (offered !== undefined && (await this.#whose(offered)) === 'mine') return offered;
    if (this.#finishing)
      throw new Error('the account signed out: its uploads end with the tokens given before, and no other is asked');
    let failure: unknown;
    // The newest page first: it is the likeliest to be awake and signed in.
    for (const [id, page] of [...this.#pages].reverse()) {
      let token: string;
      try {
        token = await withTimeout(
          Promise.resolve(page.getAccessToken()),
          TOKEN_TIMEOUT_MS,
          () => new TokenTimeout(`no token within ${TOKEN_TIMEOUT_MS} ms`),
        );
      } catch (error) {
        if (!(error instanceof TokenTimeout)) failure ??= error;
        continue;
      }
      const whose = await this.#whose(token);
      if (whose === 'mine') return token;
      if (whose === 'refused') {
        failure ??= new Error('the service refused the token the page gave');
        continue;
      }
      // That page's token is another account's now (it signed in as someone else): it is not this account's page.
      this.detach(id);
      page.moved?.();
    }
    if (failure !== undefined)
      throw new NoPageAttached(
        this.#attached.promise,
        `no page of this account gave an access token (${messageOf(failure)}): the upload goes on when one does`,
      );
    throw new NoPageAttached(this.#attached.promise);
  }

  /**
   * Whose `token` is, asked of the service once per token: this account's, another's, or no one's (refused). Where
   * the service cannot say now (offline, 5xx), the `StoreError` is thrown and the task waits as for any such answer,
   * sending nothing. An `account:` hub learns its user from the first token it checks.
   */
  async #whose(token: string): Promise<'mine' | 'other' | 'refused'> {
    // An engine of one token (its user unknown): that token, and no other.
    if (this.principal.startsWith('token:')) return (await tokenPrincipal(token)) === this.principal ? 'mine' : 'other';
    let user: string;
    try {
      user = await userOfToken(this.settings.baseUrl, token);
    } catch (error) {
      if (error instanceof StoreError && error.status === 401) return 'refused';
      throw error;
    }
    this.#user ??= user;
    return user === this.#user ? 'mine' : 'other';
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}
