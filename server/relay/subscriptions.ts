/**
 * The relay's subscriptions: who may post to a hook (the issued token), the events received (a bounded buffer for
 * `Last-Event-ID` replay), duplicate suppression, and the live SSE listeners.
 */
import { randomBytes, createHash, timingSafeEqual } from 'node:crypto';
import type { RelayEvent } from 'store-upload-kit/protocol';

export type { RelayEvent } from 'store-upload-kit/protocol';

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
  readonly events: RelayEvent[];
  readonly listeners: Set<(event: RelayEvent) => void>;
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
  /** Subscriptions kept; the oldest is forgotten beyond this. */
  maxSubscriptions: number;
}

const digest = (s: string): Buffer => createHash('sha256').update(s).digest();

/** Compares secrets in constant time. */
export function sameSecret(a: string, b: string): boolean {
  return timingSafeEqual(digest(a), digest(b));
}

/** In-memory subscription store. */
export class SubscriptionStore {
  readonly #subs = new Map<string, Subscription>();
  constructor(readonly limits: SubscriptionLimits) {}

  /** Creates a subscription with random id and key. */
  create(): Subscription {
    const sub: Subscription = {
      id: randomBytes(12).toString('base64url'),
      key: randomBytes(24).toString('base64url'),
      events: [],
      listeners: new Set(),
      nextSequence: 1,
      seen: new Map(),
    };
    this.#subs.set(sub.id, sub);
    if (this.#subs.size > this.limits.maxSubscriptions) {
      const oldest = this.#subs.keys().next().value;
      if (oldest !== undefined) this.#subs.delete(oldest);
    }
    return sub;
  }

  /** A subscription by id. */
  get(id: string): Subscription | undefined {
    return this.#subs.get(id);
  }

  /**
   * Records a received message unless it is a duplicate by (channel id, message number); returns the new event or
   * undefined for a duplicate. Listeners hear it at once.
   */
  accept(sub: Subscription, message: Omit<RelayEvent, 'sequence'>): RelayEvent | undefined {
    const key = `${message.channelId}\n${message.messageNumber}`;
    if (sub.seen.has(key)) return undefined;
    sub.seen.set(key, true);
    if (sub.seen.size > this.limits.dedupeSize) sub.seen.delete(sub.seen.keys().next().value!);
    const event: RelayEvent = { sequence: sub.nextSequence++, ...message };
    sub.events.push(event);
    if (sub.events.length > this.limits.bufferSize) sub.events.shift();
    for (const listener of sub.listeners) listener(event);
    return event;
  }
}
