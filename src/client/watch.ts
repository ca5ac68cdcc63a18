/**
 * Push notifications for pages: watch a file or the change log through the relay (`relay-events.ts`).
 *
 * A watch opens a channel when its first listener arrives and stops it when the last one leaves. Channels expire
 * and are never renewed by the service (spec §3.2), so the watch opens a new channel with a new id shortly before
 * expiry and then stops the old one; the two may overlap, and an event heard on both is passed on once.
 *
 * A watch follows the signed-in account (`accounts.ts`): each channel is made with a token it keeps, and stopped
 * with it (only its creator may stop it); a message is passed on only while the client's token is still of that
 * account, and `accountChanged()` moves every watch to the account signed in now.
 */
import { CHANGES_WATCH_PATH, CHANNELS_STOP_PATH, START_PAGE_TOKEN_PATH, fileWatchPath } from '../protocol/routes.ts';
import { H_AUTHORIZATION, bearer } from '../protocol/headers.ts';
import { AccountGuard } from './accounts.ts';
import type { AccountChanges } from './account-changes.ts';
import type { RequestOptions } from './api-call.ts';
import type { PushEvent, PushState } from '../protocol/push.ts';
import { openRelaySubscription, type RelayGap, type RelayOptions, type RelaySubscription } from './relay-events.ts';

/** The part of the store client a watcher needs (`createStoreClient` provides it). */
export interface WatchClient {
  request<T>(method: string, path: string, options?: RequestOptions): Promise<T>;
  /**
   * The token to send now (`StoreClient.accessToken`). Given, the watcher follows the account: without it, channels
   * are made and stopped with whatever token `request` sends.
   */
  accessToken?(refresh?: boolean, failed?: string): Promise<string>;
  /** Given (a `StoreClient` has it), the watcher is bound to the client's `accountChanged` until it is closed. */
  onAccountChange?: AccountChanges['onAccountChange'];
}

/** Options of {@link createWatcher}. */
export interface WatcherOptions extends RelayOptions {
  client: WatchClient;
  /** Origin of the relay, e.g. `https://localhost:8443`. */
  relayUrl: string;
  /** Lifetime to ask for, ms (the service may grant less). Default one hour. */
  ttlMs?: number;
  /** How long before expiry a new channel is opened, ms. Default one minute. */
  renewBeforeMs?: number;
  /** New channel ids (unique in the project). Default `crypto.randomUUID()`. */
  createChannelId?: () => string;
  /** Clock, Unix ms. Default `Date.now`. */
  now?: () => number;
}

/** A channel as the service granted it. */
export interface ChannelInfo {
  id: string;
  resourceId: string;
  resourceUri: string;
  /** Unix ms. */
  expiration: number;
}

/** Listeners of a watch, by event. */
export type WatchListener<S extends PushState | '*'> = (event: PushEvent<S extends PushState ? S : PushState>) => void;

/** One watched resource. */
export interface Watch {
  /**
   * Hears events of one state, or of all with `'*'`; the first listener opens the channel. Returns an unsubscribe
   * function; when it removes the last listener, its promise settles once the channel is stopped.
   */
  on<S extends PushState | '*'>(state: S, listener: WatchListener<S>): () => Promise<void>;
  /** Hears each renewal, once the new channel is open and the old one stopped. */
  onRenew(listener: (channel: ChannelInfo) => void): () => void;
  /** Hears failures to open, renew or stop a channel, and relay gaps (`gap`), as errors. */
  onError(listener: (error: unknown) => void): () => void;
  /** The live channel, once opened. */
  readonly channel: ChannelInfo | undefined;
  /** Resolves once a channel is open (after the first listener arrived). */
  ready(): Promise<ChannelInfo>;
}

/** Creates watches sharing one relay subscription. */
export interface Watcher {
  watchFile(fileId: string): Watch;
  watchChanges(): Watch;
  /**
   * Another account signed in (the client's `getAccessToken` now gives its token): every watch with listeners stops
   * its channels with the previous account's token, drops whatever arrives for them, and opens new ones as the
   * account signed in now (a file it cannot see fails with the service's 404 or 403, to `onError`). Without this
   * call a watch notices at its next message, drops it, and moves the same way; the call makes it move at once. A
   * watcher made with a `StoreClient` is moved by the client's `accountChanged`, the app's one call: this is what it calls.
   */
  accountChanged(): Promise<void>;
  /** Stops every channel and closes the relay stream. */
  close(): Promise<void>;
}

interface ChannelResponse {
  id: string;
  resourceId: string;
  resourceUri: string;
  expiration?: number | string;
}

/** Creates a watcher for pages; nothing is contacted until a listener is added. */
export function createWatcher(options: WatcherOptions): Watcher {
  const now = options.now ?? Date.now;
  const ttlMs = options.ttlMs ?? 3_600_000;
  const renewBeforeMs = options.renewBeforeMs ?? 60_000;
  const newId = options.createChannelId ?? (() => crypto.randomUUID());
  let subscription: Promise<RelaySubscription> | undefined;
  const watches = new Map<string, WatchImpl>();
  const client = options.client;
  const accounts = new AccountGuard(client);
  /** Request options that send `token`, when the watcher knows it. */
  const as = (token: string | undefined): RequestOptions =>
    token === undefined ? {} : { headers: { [H_AUTHORIZATION]: bearer(token) } };

  const relay = (): Promise<RelaySubscription> => {
    subscription ??= openRelaySubscription(options.relayUrl, options).catch((error: unknown) => {
      subscription = undefined;
      throw error;
    });
    return subscription;
  };

  class WatchImpl implements Watch {
    #listeners = new Map<PushState | '*', Set<(event: PushEvent) => void>>();
    #errorListeners = new Set<(error: unknown) => void>();
    #renewListeners = new Set<(channel: ChannelInfo) => void>();
    #channels: ChannelInfo[] = [];
    /**
     * Ids of channels that are live or being created. The sync message may arrive before the watch response
     * (spec §3.2), so events are matched against the id the watch asked for, not the channels already granted.
     */
    #ids = new Map<string, string | undefined>();
    /** Bumped when the account changes: a channel made for an earlier one is stopped, not kept. */
    #epoch = 0;
    #following: Promise<void> | undefined;
    /** Messages are checked against the account one at a time, so they are passed on in the order they came. */
    #delivery: Promise<void> = Promise.resolve();
    #opening: Promise<ChannelInfo> | undefined;
    #timer: ReturnType<typeof setTimeout> | undefined;
    #unsubscribe: (() => void) | undefined;
    #seen = new Set<string>();

    constructor(
      readonly key: string,
      readonly watchPath: (request: RequestOptions) => Promise<string>,
    ) {}

    get channel(): ChannelInfo | undefined {
      return this.#channels[this.#channels.length - 1];
    }

    on<S extends PushState | '*'>(state: S, listener: WatchListener<S>): () => Promise<void> {
      const set = this.#listeners.get(state) ?? new Set();
      this.#listeners.set(state, set);
      const wrapped = listener as (event: PushEvent) => void;
      set.add(wrapped);
      if (this.#count() === 1) void this.ready().catch(() => undefined);
      return () => {
        set.delete(wrapped);
        return this.#count() === 0 ? this.#stopAll() : Promise.resolve();
      };
    }

    onRenew(listener: (channel: ChannelInfo) => void): () => void {
      this.#renewListeners.add(listener);
      return () => this.#renewListeners.delete(listener);
    }

    onError(listener: (error: unknown) => void): () => void {
      this.#errorListeners.add(listener);
      return () => this.#errorListeners.delete(listener);
    }

    ready(): Promise<ChannelInfo> {
      const live = this.channel;
      if (live) return Promise.resolve(live);
      this.#opening ??= this.#open().finally(() => (this.#opening = undefined));
      return this.#opening;
    }

    #count(): number {
      let n = 0;
      for (const set of this.#listeners.values()) n += set.size;
      return n;
    }

    #fail(error: unknown): void {
      for (const listener of [...this.#errorListeners]) listener(error);
    }

    async #open(): Promise<ChannelInfo> {
      try {
        const sub = await relay();
        this.#unsubscribe ??= this.#listen(sub);
        let epoch = this.#epoch;
        let channel = await this.#create(sub);
        while (epoch !== this.#epoch) {
          // The account changed while the channel was being made: it is the previous account's.
          await this.#stop(channel);
          epoch = this.#epoch;
          channel = await this.#create(sub);
        }
        // Every listener may have left while the channel was being made.
        if (this.#count() === 0) {
          await this.#stop(channel);
          throw new Error('watch ended before its channel opened');
        }
        this.#channels.push(channel);
        this.#schedule(channel);
        return channel;
      } catch (error) {
        this.#fail(error);
        throw error;
      }
    }

    #listen(sub: RelaySubscription): () => void {
      const offEvent = sub.onEvent((event) => {
        if (!this.#ids.has(event.channelId)) return;
        this.#delivery = this.#delivery.then(() => this.#deliver(event));
      });
      const offGap = sub.onGap((gap: RelayGap) =>
        this.#fail(Object.assign(new Error('relay lost events'), { code: 'gap', gap })),
      );
      return () => {
        offEvent();
        offGap();
      };
    }

    /** Passes `event` on if its channel is still live and of the account signed in now; else drops it and moves. */
    async #deliver(event: PushEvent): Promise<void> {
      const made = this.#ids.get(event.channelId);
      let current: boolean;
      try {
        current = await accounts.isCurrent(made);
      } catch (error) {
        // Whose the token is cannot be told now: nothing is passed on that might be another account's.
        this.#fail(error);
        return;
      }
      if (!current) {
        void this.follow();
        return;
      }
      if (!this.#ids.has(event.channelId)) return;
      // Overlapping channels report the same change: pass it on once (sync is per channel, so keep each).
      const key =
        event.state === 'sync'
          ? `${event.channelId}/sync`
          : `${event.state}/${event.changed.join()}/${event.messageNumber}`;
      if (this.#seen.has(key)) return;
      this.#seen.add(key);
      if (this.#seen.size > 1000) this.#seen.delete(this.#seen.values().next().value!);
      for (const state of [event.state, '*'] as const) {
        for (const listener of [...(this.#listeners.get(state) ?? [])]) listener(event);
      }
    }

    /** Moves the watch to the account signed in now (see `Watcher.accountChanged`). */
    follow(): Promise<void> {
      this.#following ??= this.#follow().finally(() => (this.#following = undefined));
      return this.#following;
    }

    async #follow(): Promise<void> {
      this.#epoch++;
      clearTimeout(this.#timer);
      this.#timer = undefined;
      const old = this.#channels;
      this.#channels = [];
      // Whatever still arrives for the previous account's channels is dropped from now on.
      const tokens = old.map((c) => this.#ids.get(c.id));
      for (const id of this.#ids.keys()) this.#ids.delete(id);
      this.#seen.clear();
      await Promise.all(old.map((c, i) => this.#stop(c, tokens[i])));
      if (this.#count() === 0) return;
      // An open already under way redoes itself for the new account (`#open`).
      await this.ready().catch(() => undefined);
    }

    async #create(sub: RelaySubscription, retried = false): Promise<ChannelInfo> {
      // The channel is made, and later stopped, with one token: the account's it belongs to.
      const token = await client.accessToken?.(retried);
      const [path, query] = (await this.watchPath(as(token))).split('?') as [string, string | undefined];
      const id = newId();
      this.#ids.set(id, token);
      let response: ChannelResponse;
      try {
        response = await client.request<ChannelResponse>('POST', path, {
          ...as(token),
          ...(query && { query: Object.fromEntries(new URLSearchParams(query)) }),
          body: { id, type: 'web_hook', address: sub.address, token: sub.token, expiration: String(now() + ttlMs) },
        });
      } catch (error) {
        this.#ids.delete(id);
        // A token sent as a header is not refreshed by the client: a 401 asks for a fresh one here, once.
        if (token !== undefined && !retried && (error as { status?: number }).status === 401)
          return this.#create(sub, true);
        throw error;
      }
      this.#ids.set(response.id, token); // the spec echoes the id sent; should a service not, its messages carry its own
      // The spec gives an integer, the modelled API a string: accept both.
      const expiration = Number(response.expiration ?? now() + ttlMs);
      return { id: response.id, resourceId: response.resourceId, resourceUri: response.resourceUri, expiration };
    }

    #schedule(channel: ChannelInfo): void {
      clearTimeout(this.#timer);
      const delay = Math.max(0, channel.expiration - renewBeforeMs - now());
      this.#timer = setTimeout(() => void this.#renew(channel), delay);
    }

    async #renew(old: ChannelInfo): Promise<void> {
      let fresh: ChannelInfo;
      const epoch = this.#epoch;
      try {
        fresh = await this.#create(await relay());
        if (this.#count() === 0 || epoch !== this.#epoch) {
          // Every listener left, or the account changed, while the new channel was being made.
          await this.#stop(fresh);
          return;
        }
        this.#channels.push(fresh);
        this.#schedule(fresh);
      } catch (error) {
        // The old channel still runs until it expires; the next listener change or renewal tries again.
        this.#fail(error);
        return;
      }
      this.#channels = this.#channels.filter((c) => c !== old);
      await this.#stop(old);
      for (const listener of [...this.#renewListeners]) listener(fresh);
    }

    /** Stops `channel` with the token it was made with (only its creator may stop it). */
    async #stop(channel: ChannelInfo, token = this.#ids.get(channel.id)): Promise<void> {
      this.#ids.delete(channel.id);
      try {
        await client.request('POST', CHANNELS_STOP_PATH, {
          ...as(token),
          body: { id: channel.id, resourceId: channel.resourceId },
        });
      } catch (error) {
        // A channel that already expired answers 404: it is stopped either way.
        if ((error as { status?: number }).status !== 404) this.#fail(error);
      }
    }

    async #stopAll(): Promise<void> {
      clearTimeout(this.#timer);
      this.#timer = undefined;
      const channels = this.#channels;
      this.#channels = [];
      this.#unsubscribe?.();
      this.#unsubscribe = undefined;
      this.#seen.clear();
      await Promise.all(channels.map((c) => this.#stop(c)));
    }

    /** Ends the watch whatever its listeners. */
    async end(): Promise<void> {
      this.#listeners.clear();
      await this.#stopAll();
    }
  }

  const watch = (key: string, watchPath: (request: RequestOptions) => Promise<string>): Watch => {
    let w = watches.get(key);
    if (!w) {
      w = new WatchImpl(key, watchPath);
      watches.set(key, w);
    }
    return w;
  };

  const watcher: Watcher = {
    watchFile: (fileId) => watch(`file:${fileId}`, async () => fileWatchPath(fileId)),
    watchChanges: () =>
      watch('changes', async (request) => {
        const { startPageToken } = await client.request<{ startPageToken: string }>(
          'GET',
          START_PAGE_TOKEN_PATH,
          request,
        );
        return `${CHANGES_WATCH_PATH}?pageToken=${encodeURIComponent(startPageToken)}`;
      }),
    async accountChanged() {
      await Promise.all([...watches.values()].map((w) => w.follow()));
    },
    async close() {
      unbind?.();
      await Promise.all([...watches.values()].map((w) => w.end()));
      watches.clear();
      if (subscription) (await subscription.catch(() => undefined))?.close();
      subscription = undefined;
    },
  };
  // The client's `accountChanged` is the app's one call; it moves this watcher too, until `close`.
  const unbind = client.onAccountChange?.(() => watcher.accountChanged());
  return watcher;
}
