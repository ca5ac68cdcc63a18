/**
 * Push notifications for pages: watch a file or the change log through the relay (`relay-events.ts`).
 *
 * A watch opens a channel when its first listener arrives and stops it when the last one leaves. Channels expire
 * and are never renewed by the service (spec §3.2), so the watch opens a new channel with a new id shortly before
 * expiry and then stops the old one; the two may overlap, and an event heard on both is passed on once.
 */
import { CHANGES_WATCH_PATH, CHANNELS_STOP_PATH, START_PAGE_TOKEN_PATH, fileWatchPath } from '../protocol/routes.ts';
import type { RequestOptions } from './api-call.ts';
import type { PushEvent, PushState } from '../protocol/push.ts';
import { openRelaySubscription, type RelayGap, type RelayOptions, type RelaySubscription } from './relay-events.ts';

/** The part of the store client a watcher needs (`createStoreClient` provides it). */
export interface WatchClient {
  request<T>(method: string, path: string, options?: RequestOptions): Promise<T>;
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
    #ids = new Set<string>();
    #opening: Promise<ChannelInfo> | undefined;
    #timer: ReturnType<typeof setTimeout> | undefined;
    #unsubscribe: (() => void) | undefined;
    #seen = new Set<string>();

    constructor(
      readonly key: string,
      readonly watchPath: () => Promise<string>,
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
        const channel = await this.#create(sub);
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
      });
      const offGap = sub.onGap((gap: RelayGap) =>
        this.#fail(Object.assign(new Error('relay lost events'), { code: 'gap', gap })),
      );
      return () => {
        offEvent();
        offGap();
      };
    }

    async #create(sub: RelaySubscription): Promise<ChannelInfo> {
      const [path, query] = (await this.watchPath()).split('?') as [string, string | undefined];
      const id = newId();
      this.#ids.add(id);
      let response: ChannelResponse;
      try {
        response = await options.client.request<ChannelResponse>('POST', path, {
          ...(query && { query: Object.fromEntries(new URLSearchParams(query)) }),
          body: { id, type: 'web_hook', address: sub.address, token: sub.token, expiration: String(now() + ttlMs) },
        });
      } catch (error) {
        this.#ids.delete(id);
        throw error;
      }
      this.#ids.add(response.id); // the spec echoes the id sent; should a service not, its messages carry its own
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
      try {
        fresh = await this.#create(await relay());
        if (this.#count() === 0) {
          // Every listener left while the new channel was being made.
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

    async #stop(channel: ChannelInfo): Promise<void> {
      this.#ids.delete(channel.id);
      try {
        await options.client.request('POST', CHANNELS_STOP_PATH, {
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

  const watch = (key: string, watchPath: () => Promise<string>): Watch => {
    let w = watches.get(key);
    if (!w) {
      w = new WatchImpl(key, watchPath);
      watches.set(key, w);
    }
    return w;
  };

  return {
    watchFile: (fileId) => watch(`file:${fileId}`, async () => fileWatchPath(fileId)),
    watchChanges: () =>
      watch('changes', async () => {
        const { startPageToken } = await options.client.request<{ startPageToken: string }>(
          'GET',
          START_PAGE_TOKEN_PATH,
        );
        return `${CHANGES_WATCH_PATH}?pageToken=${encodeURIComponent(startPageToken)}`;
      }),
    async close() {
      await Promise.all([...watches.values()].map((w) => w.end()));
      watches.clear();
      if (subscription) (await subscription.catch(() => undefined))?.close();
      subscription = undefined;
    },
  };
}
