/**
 * The page side of the push relay (`store-relay`): a page cannot receive HTTPS requests, so it asks the relay
 * for a subscription (an address and a channel token to give the service) and reads what arrives there as
 * Server-Sent Events. `EventSource` reconnects by itself and sends `Last-Event-ID`, so the relay replays what
 * was missed.
 */

import { PUSH_STATES, type PushEvent } from '../protocol/push.ts';

/** Sent by the relay when a reconnect came too late for its buffer: events `from`..`to` are lost. */
export interface RelayGap {
  from: number;
  to: number;
}

/** What the relay grants. */
export interface RelayGrant {
  subscriptionId: string;
  key: string;
  /** Channel `address` for watch calls. */
  address: string;
  /** Channel `token` for watch calls (a subscription key, never a user credential). */
  token: string;
}

/** An open subscription. */
export interface RelaySubscription extends RelayGrant {
  /** Hears every push event; returns an unsubscribe function. */
  onEvent(listener: (event: PushEvent) => void): () => void;
  /** Hears buffer gaps (resynchronise, e.g. list the change log); returns an unsubscribe function. */
  onGap(listener: (gap: RelayGap) => void): () => void;
  /** Closes the event stream. */
  close(): void;
}

/** A message of an event stream, as `EventSource` hands it out. */
export interface StreamMessage {
  data: string;
}

/** The part of `EventSource` the relay client uses: a port, so Node tests can pass the `eventsource` package. */
export interface EventSourceLike {
  readonly readyState: number;
  addEventListener(type: string, listener: (event: StreamMessage) => void): void;
  removeEventListener(type: string, listener: (event: StreamMessage) => void): void;
  close(): void;
}

/** `EventSource.CLOSED`. */
const CLOSED = 2;

/** Options of {@link openRelaySubscription}. */
export interface RelayOptions {
  /** `fetch` to use (default: the global one). */
  fetch?: typeof fetch;
  /** Opens an event stream (default: `new EventSource(url)`). */
  openEventStream?: (url: string) => EventSourceLike;
  signal?: AbortSignal;
}

function defaultEventStream(url: string): EventSourceLike {
  const Source = (globalThis as { EventSource?: new (url: string) => EventSourceLike }).EventSource;
  if (!Source) throw new RelayError('relay-stream-failed', 'This environment has no EventSource; pass openEventStream');
  return new Source(url);
}

/** Error codes of the relay client (words belong to the elements layer). */
export type RelayErrorCode = 'relay-unreachable' | 'relay-refused' | 'relay-stream-failed';

/** A relay problem, with a code for the UI and the detail for logs. */
export class RelayError extends Error {
  constructor(
    readonly code: RelayErrorCode,
    detail: string,
  ) {
    super(detail);
    this.name = 'RelayError';
  }
}

function isPushEvent(value: unknown): value is PushEvent {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return typeof v.channelId === 'string' && typeof v.state === 'string' && typeof v.messageNumber === 'number';
}

/**
 * Creates a subscription on the relay at `relayUrl` (e.g. `https://localhost:8443`) and resolves once its event
 * stream is open, so a watch call made afterwards cannot miss its sync message.
 */
export async function openRelaySubscription(relayUrl: string, options: RelayOptions = {}): Promise<RelaySubscription> {
  const doFetch: typeof fetch = options.fetch ?? ((input, init) => fetch(input, init));
  const openStream = options.openEventStream ?? defaultEventStream;
  const base = relayUrl.replace(/\/+$/, '');
  let response: Response;
  try {
    response = await doFetch(`${base}/subscriptions`, {
      method: 'POST',
      ...(options.signal && { signal: options.signal }),
    });
  } catch (error) {
    throw new RelayError('relay-unreachable', `Cannot reach the relay at ${base}: ${(error as Error).message}`);
  }
  if (!response.ok)
    throw new RelayError('relay-refused', `The relay answered ${response.status} to POST /subscriptions`);
  const grant = (await response.json()) as RelayGrant;

  const listeners = new Set<(event: PushEvent) => void>();
  const gapListeners = new Set<(gap: RelayGap) => void>();
  const url = `${base}/subscriptions/${encodeURIComponent(grant.subscriptionId)}/events?key=${encodeURIComponent(grant.key)}`;
  const source = openStream(url);

  const onPush = (message: StreamMessage): void => {
    let data: unknown;
    try {
      data = JSON.parse(message.data);
    } catch {
      return; // Not ours: the relay only sends JSON.
    }
    if (isPushEvent(data)) for (const listener of [...listeners]) listener(data);
  };
  // Named SSE events do not reach `onmessage`: listen to each state by name.
  for (const state of PUSH_STATES) source.addEventListener(state, onPush);
  source.addEventListener('gap', (message) => {
    const gap = JSON.parse(message.data) as RelayGap;
    for (const listener of [...gapListeners]) listener(gap);
  });

  await new Promise<void>((resolve, reject) => {
    const cleanup = (): void => {
      source.removeEventListener('open', onOpen);
      source.removeEventListener('error', onError);
    };
    const onOpen = (): void => {
      cleanup();
      resolve();
    };
    const onError = (): void => {
      // Before the first open an error means the stream was refused (a later error is a reconnect in progress).
      if (source.readyState === CLOSED) {
        cleanup();
        reject(new RelayError('relay-stream-failed', `The relay refused the event stream of ${grant.subscriptionId}`));
      }
    };
    source.addEventListener('open', onOpen);
    source.addEventListener('error', onError);
  });

  return {
    ...grant,
    onEvent(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    onGap(listener) {
      gapListeners.add(listener);
      return () => gapListeners.delete(listener);
    },
    close() {
      source.close();
      listeners.clear();
      gapListeners.clear();
    },
  };
}
