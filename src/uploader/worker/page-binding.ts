import { StoreError } from '../../client/store-error.ts';
import { TOKEN_TIMEOUT_MS, type AttachedPage, type EngineHub } from './engine-hub.ts';
import type { EngineHubs } from './engine-hubs.ts';
import {
  accountPrincipal,
  forgetToken,
  tokenPrincipal,
  userOfToken,
  userPrincipal,
  type Principal,
} from './principals.ts';
import type { UploaderSettings } from '../contract/settings.ts';
import type { TaskSnapshot } from '../contract/types.ts';
import { UploadError } from '../contract/upload-error.ts';
import { withTimeout } from '../contract/with-timeout.ts';
import type { SignOutUploads } from '../contract/worker-contract.ts';

/**
 * Worker side: which account's engine one page is attached to. The account is the one the page names
 * (`UploaderOptions.account`) or the one its token is (asked of the service once per token); a page whose account
 * changes — it gives a token of another account, or the hub finds it did — leaves the first account's engine (each of
 * its tasks `left` the page's list) and attaches to the new one's (each of its tasks arrives as a `change`). Files
 * are added to the engine of the account whose token came with them, so a file belongs to whoever chose it.
 */
export class PageBinding {
  #hub: EngineHub | undefined;
  #bound: { key: string; hub: Promise<EngineHub> } | undefined;
  /** Bumped by every new binding: only the latest one attaches the page. */
  #generation = 0;
  /** True once the page has its first list: tasks of an engine attached later are sent to it as events. */
  #listed = false;
  #lastToken: string | undefined;
  /** Tokens the service refused in this page life: given again, they fail at once (no stampede of asks). */
  readonly #refused = new Map<string, UploadError>();

  constructor(
    private readonly hubs: EngineHubs,
    readonly settings: UploaderSettings,
    private readonly pageId: string,
    private readonly page: Omit<AttachedPage, 'moved'>,
    private online: boolean,
    private account: string | undefined,
  ) {}

  /** The engine the page is attached to now, if its account is known. */
  get hub(): EngineHub | undefined {
    return this.#hub;
  }

  /**
   * The engine of the account `token` acts for (or that the page names), attaching the page to it. The same token
   * again costs nothing; without one, the page is asked. Rejects with an `auth` UploadError when the service refuses
   * the token; while the service cannot say (offline, 5xx) it asks again, with backoff, and the files wait unsent.
   */
  hubOf(token?: string): Promise<EngineHub> {
    // Without a token, the binding now (or on its way) is the page's: a second one asked meanwhile would ask again.
    if (this.#bound && (token === undefined || this.account !== undefined || this.#bound.key === token))
      return this.#bound.hub;
    const key = this.account !== undefined ? '' : (token ?? this.#lastToken ?? '');
    const generation = ++this.#generation;
    const hub = this.#principal(token)
      .then((principal) => this.hubs.hubFor(this.settings, principal))
      .then((found) => {
        // The token that found the account is the engine's first, if it has asked for none yet.
        if (this.#lastToken !== undefined) found.offer(this.#lastToken);
        if (generation === this.#generation) this.#attach(found);
        return found;
      });
    const bound = { key, hub };
    this.#bound = bound;
    hub.catch(() => {
      if (this.#bound === bound) this.#bound = undefined;
    });
    return hub;
  }

  /** The page's first list: its account's tasks, once known within `ms`; later, they come as events. */
  async firstList(token: string | undefined, ms: number): Promise<TaskSnapshot[]> {
    const first = this.hubOf(token).then((hub) => (this.#hub === hub ? hub : undefined));
    first.catch(() => undefined);
    const hub = await withTimeout(first, ms, () => new Error('account not known yet')).catch(() => undefined);
    const shown = this.#hub?.engine.snapshots().filter((task) => this.#shownNow.has(task.id)) ?? [];
    this.#listed = true;
    this.#shownNow.clear();
    if (hub) return shown;
    // Not known in time: the page starts with its own adds only, and hears the account's tasks once it is known.
    for (const task of shown) this.page.send('change', task);
    return [];
  }

  /** The page says its account may have changed (another token, or another named account). */
  rebind(token: string | undefined, account: string | undefined): Promise<EngineHub> {
    if (account !== this.account) {
      this.account = account;
      this.#bound = undefined;
    }
    return this.hubOf(token);
  }

  setOnline(online: boolean): void {
    this.online = online;
    this.#hub?.setOnline(online);
  }

  /** The account signs out on this page: the page leaves its engine, which does with the uploads as asked. */
  async signOut(uploads: SignOutUploads): Promise<void> {
    const hub = this.#hub;
    this.#leave();
    this.#bound = undefined;
    this.#generation++;
    if (this.#lastToken !== undefined) forgetToken(this.settings.baseUrl, this.#lastToken);
    this.#lastToken = undefined;
    await hub?.signOut(uploads);
  }

  /** The page is gone: it hears nothing more and gives no more tokens; its tasks go on. */
  detach(): void {
    this.#hub?.detach(this.pageId);
    this.#hub = undefined;
  }

  /** Tasks the engine attached last showed this page, kept until `firstList` hands them over. */
  readonly #shownNow = new Set<string>();

  #attach(hub: EngineHub): void {
    if (this.#hub === hub) return;
    this.#leave();
    this.#hub = hub;
    const shown = hub.attach(this.pageId, { ...this.page, moved: () => this.#moved(hub) }, this.online);
    if (this.#listed) for (const task of shown) this.page.send('change', task);
    else for (const task of shown) this.#shownNow.add(task.id);
  }

  /** Leaves the engine attached now: its tasks leave the page's list. */
  #leave(): void {
    const hub = this.#hub;
    if (!hub) return;
    hub.detach(this.pageId);
    this.#hub = undefined;
    for (const task of hub.engine.snapshots()) this.page.send('left', task);
  }

  /**
   * The hub found the page's token to be another account's: the page finds its account again from that token. A page
   * that names its account stays detached until it adds or says its account changed: its getter disagrees with the
   * account it names, and attaching it again would only be asked again, and refused again.
   */
  #moved(from: EngineHub): void {
    if (this.#hub !== from) return;
    this.#leave();
    this.#bound = undefined;
    this.#lastToken = undefined;
    if (this.account === undefined) void this.hubOf().catch(() => undefined);
  }

  async #principal(token: string | undefined): Promise<Principal> {
    if (this.account !== undefined) {
      if (token !== undefined) this.#lastToken = token;
      return accountPrincipal(this.account);
    }
    let given = token ?? this.#lastToken ?? (await this.#askToken());
    let refused = false;
    for (;;) {
      // The page's token as last given, refused or not: asked for without one, the page answers with it again.
      this.#lastToken = given;
      const known = this.#refused.get(given);
      if (known) throw known;
      try {
        return userPrincipal(await userOfToken(this.settings.baseUrl, given));
      } catch (error) {
        if (!(error instanceof StoreError)) throw error;
        if (error.status === 401) {
          const failure = new UploadError({ code: 'auth', status: 401, message: error.message });
          this.#refused.set(given, failure);
          if (refused) throw failure;
          // As after any 401: the app is asked once for a new token (its cached one may have expired).
          refused = true;
          given = await this.#askToken();
          continue;
        }
        // The service cannot say whose the token is now (unreachable, 5xx): the files are this token's alone, sent
        // with it only, and retried as any upload is (`tokenPrincipal`).
        return tokenPrincipal(given);
      }
    }
  }

  async #askToken(): Promise<string> {
    try {
      return await withTimeout(
        Promise.resolve(this.page.getAccessToken()),
        TOKEN_TIMEOUT_MS,
        () => new Error(`no token within ${TOKEN_TIMEOUT_MS} ms`),
      );
    } catch (error) {
      throw new UploadError({
        code: 'auth',
        message: `getAccessToken failed: ${error instanceof Error ? error.message : String(error)}`,
      });
    }
  }
}
