/**
 * The relay's subscriptions: who may post to a hook (the issued token), the events received (a bounded buffer for
 * `Last-Event-ID` replay), duplicate suppression, and the live SSE listeners.
 */
import { randomBytes, createHash, timingSafeEqual } from 'node:crypto';
import type { PushEvent } from 'store-upload-kit/protocol';

/** What `POST /subscriptions` answers. */
export interface SubscriptionGrant {
  subscriptionId: string;
  /** Secret of the subscription: reads its event stream. Not a user credential. */
  key: string;
  /** Where the service should post: `<relay>/hooks/<subscriptionId>`. */
  address: string;
  /** Channel token to pass to the watch call: `sub=<id>&key=<key>`. */
  token: string;
}

/** A subscription's state. */
export interface Subscription {
  readonly id: string;
  readonly key: string;
  /** Address of the client that created it (the per-client bound counts these). */
  readonly client: string;
  /** Last creation, stream open/close or accepted message (ms); idle expiry counts from here. */
  lastActive: number;
  readonly events: PushEvent[];
  readonly listeners: Set<(event: PushEvent) => void>;
  nextSequence: number;
  /** `channelId \n messageNumber` of messages already taken, oldest first (Map keeps insertion order). */
  readonly seen: Map<string, true>;
}

/** Limits of the in-memory store. */
export interface SubscriptionLimits {
  /** Events kept per subscription for replay. */
  bufferSize: number;
  /** Message keys remembered per subscription for duplicate suppression. */
  dedupeSize: number;
  /** Subscriptions kept in total. */
  maxSubscriptions: number;
  /** Subscriptions kept per client address. */
  maxPerClient: number;
  /** A subscription without an open event stream expires after this long without activity (ms). */
  idleMs: number;
}

/** Why a subscription could not be created: every one in the way has a live event stream. */
export type CreateRefusal = 'clientFull' | 'relayFull';

const digest = (s: string): Buffer => createHash('sha256').update(s).digest();

/** Compares secrets in constant time. */
export function sameSecret(a: string, b: string): boolean {
  return timingSafeEqual(digest(a), digest(b));
}

/**
 * In-memory subscription store, bounded per client and in total. Room is made by forgetting subscriptions without
 * an open event stream — expired ones first, then the least recently active — never one a page is listening on.
 */
export class SubscriptionStore {
  readonly #subs = new Map<string, Subscription>();
  /** The same subscriptions by client address, so the per-client bound costs no scan of the whole store. */
  readonly #byClient = new Map<string, Set<Subscription>>();
  constructor(readonly limits: SubscriptionLimits) {}

  /** Number of subscriptions kept. */
  get size(): number {
    return this.#subs.size;
  }

  /** Creates a subscription with random id and key for `client`, or says why there is no room. */
  create(client: string, now: number): Subscription | CreateRefusal {
    this.sweep(now);
    const own = this.#byClient.get(client) ?? new Set<Subscription>();
    if (own.size >= this.limits.maxPerClient && !this.#forgetIdlest(own.values())) return 'clientFull';
    if (this.#subs.size >= this.limits.maxSubscriptions && !this.#forgetIdlest(this.#subs.values())) return 'relayFull';
    const sub: Subscription = {
      id: randomBytes(12).toString('base64url'),
      key: randomBytes(24).toString('base64url'),
      client,
      lastActive: now,
      events: [],
      listeners: new Set(),
      nextSequence: 1,
      seen: new Map(),
    };
    this.#subs.set(sub.id, sub);
    own.add(sub);
    this.#byClient.set(client, own);
    return sub;
  }

  #forget(sub: Subscription): void {
    this.#subs.delete(sub.id);
    const own = this.#byClient.get(sub.client);
    own?.delete(sub);
    if (own?.size === 0) this.#byClient.delete(sub.client);
  }

  /** Forgets the least recently active of `candidates` that has no open stream; false when all are live. */
  #forgetIdlest(candidates: Iterable<Subscription>): boolean {
    let idlest: Subscription | undefined;
    for (const s of candidates) if (s.listeners.size === 0 && (!idlest || s.lastActive < idlest.lastActive)) idlest = s;
    if (idlest) this.#forget(idlest);
    return idlest !== undefined;
  }

  /** Forgets subscriptions without an open stream that have been idle for `idleMs`. */
  sweep(now: number): void {
    for (const s of this.#subs.values()) {
      if (s.listeners.size === 0 && now - s.lastActive >= this.limits.idleMs) this.#forget(s);
    }
  }

  /** A subscription by id. */
  get(id: string): Subscription | undefined {
    return this.#subs.get(id);
  }

  /**
   * Records a received message unless it is a duplicate by (channel id, message number); returns the new event or
   * undefined for a duplicate. Listeners hear it at once; `now` (the relay's clock) is the subscription's last activity.
   */
  accept(sub: Subscription, now: number, message: Omit<PushEvent, 'sequence'>): PushEvent | undefined {
    const key = `${message.channelId}\n${message.messageNumber}`;
    if (sub.seen.has(key)) return undefined;
    sub.seen.set(key, true);
    if (sub.seen.size > this.limits.dedupeSize) sub.seen.delete(sub.seen.keys().next().value!);
    const event: PushEvent = { sequence: sub.nextSequence++, ...message };
    sub.lastActive = now;
    sub.events.push(event);
    if (sub.events.length > this.limits.bufferSize) sub.events.shift();
    for (const listener of sub.listeners) listener(event);
    return event;
  }
}
