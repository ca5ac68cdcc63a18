/**
 * The push delivery engine: a durable outbox drained per channel in FIFO order, with bounded concurrency, request
 * timeouts, and retries with exponential backoff and full jitter.
 *
 * Why per-channel queues: messages of one channel must arrive in order (supplement §8), so a channel sends its
 * next message only after the previous one is settled; but a channel waiting on a slow or failing receiver holds
 * at most one of the `concurrency` slots and never blocks another channel's queue.
 */
import { Agent } from 'node:https';
import type { MetadataDb } from '../metadata/metadata-port.ts';
import { backoffDelay, type BackoffOptions } from 'store-upload-kit/protocol';
import type { PushMessage } from './message.ts';
import { Outbox, queueOfMessage } from './outbox.ts';
import { postPushMessage, type PostOutcome } from './post.ts';
import type { PushTrust } from './trust.ts';

/** How often a node over a shared database looks for messages no node is sending. */
const POLL_MS = 2000;

/** Settings of the delivery engine. */
export interface DeliveryOptions {
  /** Database that holds the outbox (the service passes its own). */
  db: MetadataDb;
  /** TLS trust for receivers, from `createPushTrust`; a promise lets the service start before CA files are read. */
  trust: PushTrust | Promise<PushTrust>;
  /** Clock for channel expiry, Unix ms (the service's admin-movable clock). Default `Date.now`. */
  now?: () => number;
  /** Messages in flight at once, over all channels. Default 16. */
  concurrency?: number;
  /** Time allowed for one request, ms. Default 10 000. */
  timeoutMs?: number;
  /** Tries per message including the first. Default 5. */
  maxAttempts?: number;
  /** Backoff window and random source (`src/protocol/backoff.ts`). Default 1 s doubling to 32 s, full jitter. */
  backoff?: BackoffOptions;
  /** Hears the fate of every attempt (logs, tests, benchmarks). */
  onAttempt?: (event: DeliveryEvent) => void;
  /**
   * Runs a function once what was written so far is durable (the service's group commit): a message queued inside
   * a batch (a watch's `sync`) is not sent before the change that queued it is committed. Default: at once.
   */
  afterCommit?: (fn: () => void) => void;
}

/** One settled attempt. `final` is true when the message leaves the outbox (delivered or given up). */
export interface DeliveryEvent {
  message: PushMessage;
  attempt: number;
  outcome: PostOutcome | { kind: 'expired'; reason: string };
  final: boolean;
}

/** The running engine. */
export interface DeliveryEngine {
  /** Stores the message durably, then schedules it behind its channel's earlier messages. */
  enqueue(message: PushMessage): Promise<void>;
  /** Forgets every pending message of a stopped channel (its `queueKey`, default its id). */
  dropChannel(queueKey: string): Promise<void>;
  /** Starts sending, beginning with what was pending before a restart. */
  start(): Promise<void>;
  /** Resolves once the TLS trust is loaded; rejects with the reason when it cannot be (nothing can be sent). */
  ready(): Promise<void>;
  /**
   * Resolves once nothing is queued, in flight or waiting to retry. Rejects when the TLS trust could not be loaded,
   * since pending messages would then never leave (they stay in the outbox for a restart with a fixed config).
   */
  idle(): Promise<void>;
  /** Stops sending; pending messages stay in the outbox for the next start. */
  close(): Promise<void>;
}

/** Creates a delivery engine over `options.db`; call `start()` to begin sending. */
export function createDeliveryEngine(options: DeliveryOptions): DeliveryEngine {
  const outbox = new Outbox(options.db);
  const now = options.now ?? Date.now;
  const concurrency = options.concurrency ?? 16;
  const timeoutMs = options.timeoutMs ?? 10_000;
  const maxAttempts = options.maxAttempts ?? 5;
  const backoff = options.backoff ?? {};
  const afterCommit = options.afterCommit ?? ((fn: () => void) => fn());

  /** Channels whose head message may be sent now, in arrival order (round-robin across channels). */
  const ready: string[] = [];
  /** Channels that are ready, sending or waiting for a retry: at most one place per channel. */
  const busy = new Set<string>();
  const retryTimers = new Map<string, NodeJS.Timeout>();
  const inFlight = new Set<Promise<void>>();
  let running = false;
  let poll: NodeJS.Timeout | undefined;
  let idleWaiters: Array<{ resolve: () => void; reject: (error: Error) => void }> = [];
  let agent: Agent | undefined;
  let trustError: Error | undefined;
  const trustLoaded = Promise.resolve(options.trust).then((trust) => {
    agent = new Agent({ keepAlive: true, ca: trust.ca, checkServerIdentity: trust.checkServerIdentity });
  });
  const trustReady = trustLoaded.catch((error: unknown) => {
    // Without trust nothing can be sent safely; messages stay in the outbox for a restart with a fixed config.
    trustError = error instanceof Error ? error : new Error(String(error));
    console.error(`push: NOTHING WILL BE DELIVERED: ${trustError.message}`);
    const waiters = idleWaiters;
    idleWaiters = [];
    for (const w of waiters) w.reject(trustError);
  });

  const schedule = (queueKey: string): void => {
    if (busy.has(queueKey)) return;
    busy.add(queueKey);
    ready.push(queueKey);
  };

  const checkIdle = (): void => {
    if (busy.size > 0) return;
    const waiters = idleWaiters;
    idleWaiters = [];
    for (const w of waiters) w.resolve();
  };

  const pump = (): void => {
    while (running && agent && inFlight.size < concurrency && ready.length > 0) {
      const queueKey = ready.shift()!;
      const task = sendHead(queueKey)
        .catch((error: unknown) => {
          // The outbox could not be read or written (the database is away): the channel is tried again later.
          console.error('push: a delivery step failed; the channel is retried:', error);
          waitThenRetry(queueKey, 1000);
        })
        .finally(() => {
          inFlight.delete(task);
          pump();
          checkIdle();
        });
      inFlight.add(task);
    }
  };

  const report = (event: DeliveryEvent): void => {
    try {
      options.onAttempt?.(event);
    } catch {
      // A listener's fault must not stall the queue.
    }
  };

  const waitThenRetry = (queueKey: string, delay: number): void => {
    // The channel keeps its place in `busy` while it waits, so its later messages cannot overtake this one.
    retryTimers.set(
      queueKey,
      setTimeout(() => {
        retryTimers.delete(queueKey);
        ready.push(queueKey);
        pump();
      }, delay),
    );
  };

  /**
   * Sends the oldest message of a channel and decides what the channel does next. Over a shared database the
   * channel is held while its message is sent, so one node at a time sends a channel's messages, in order.
   */
  async function sendHead(queueKey: string): Promise<void> {
    const release = await options.db.tryHold(`push\n${queueKey}`);
    if (!release) {
      // Another node sends this channel's messages now; it goes on with the rest.
      busy.delete(queueKey);
      return;
    }
    try {
      await sendHeld(queueKey);
    } finally {
      await release();
    }
  }

  async function sendHeld(queueKey: string): Promise<void> {
    const row = await outbox.head(queueKey);
    if (!row) {
      busy.delete(queueKey);
      return;
    }
    // A retry's backoff, set by whichever node made the failed attempt (a node alone keeps its own timers, and
    // after a restart sends what was pending at once).
    const wait = options.db.dialect === 'postgres' ? row.notBefore - Date.now() : 0;
    if (wait > 0) {
      waitThenRetry(queueKey, wait);
      return;
    }
    const { message } = row;
    const attempt = row.attempts + 1;
    if (message.expiration !== undefined && now() >= message.expiration) {
      await outbox.remove(row.seq);
      report({ message, attempt, outcome: { kind: 'expired', reason: 'channel expired' }, final: true });
      await next(queueKey);
      return;
    }
    const outcome = await postPushMessage(message, agent!, timeoutMs);
    if (!running) {
      // Closing: the attempt's result is unknown to the outbox; it is resent after the next start.
      busy.delete(queueKey);
      return;
    }
    if (outcome.kind !== 'retry') {
      await outbox.remove(row.seq);
      report({ message, attempt, outcome, final: true });
      await next(queueKey);
      return;
    }
    // `attempt` is 1-based; the protocol's retry numbers are 0-based.
    const delay = backoffDelay(attempt - 1, backoff);
    const pastExpiry = message.expiration !== undefined && now() + delay >= message.expiration;
    if (attempt >= maxAttempts || pastExpiry) {
      await outbox.remove(row.seq);
      report({ message, attempt, outcome, final: true });
      await next(queueKey);
      return;
    }
    await outbox.countAttempt(row.seq, Date.now() + delay);
    report({ message, attempt, outcome, final: false });
    waitThenRetry(queueKey, delay);
  }

  async function next(queueKey: string): Promise<void> {
    if (await outbox.head(queueKey)) ready.push(queueKey);
    else busy.delete(queueKey);
  }

  return {
    async enqueue(message) {
      await outbox.add(message);
      afterCommit(() => {
        schedule(queueOfMessage(message));
        pump();
      });
    },
    async dropChannel(queueKey) {
      await outbox.removeQueue(queueKey);
      // A sending or waiting channel finds its queue empty on its next turn and leaves `busy` then.
      const timer = retryTimers.get(queueKey);
      if (timer) {
        clearTimeout(timer);
        retryTimers.delete(queueKey);
        ready.push(queueKey);
        pump();
      }
    },
    async start() {
      if (running) return;
      running = true;
      for (const queueKey of await outbox.pendingQueues()) schedule(queueKey);
      void trustReady.then(pump);
      // Over a shared database, messages another node queued and could not send (it died, or it waits on a
      // retry it will not make) are taken up here.
      if (options.db.dialect === 'postgres') {
        poll = setInterval(() => {
          outbox
            .pendingQueues()
            .then((queues) => {
              for (const queueKey of queues) schedule(queueKey);
              pump();
            })
            .catch((e: unknown) => console.error('push: could not read the outbox:', e));
        }, POLL_MS);
        poll.unref();
      }
    },
    ready() {
      return trustReady.then(() => {
        if (trustError) throw trustError;
      });
    },
    idle() {
      if (trustError && busy.size > 0) return Promise.reject(trustError);
      if (busy.size === 0) return Promise.resolve();
      return new Promise((resolve, reject) => idleWaiters.push({ resolve, reject }));
    },
    async close() {
      running = false;
      clearInterval(poll);
      for (const timer of retryTimers.values()) clearTimeout(timer);
      retryTimers.clear();
      ready.length = 0;
      busy.clear();
      agent?.destroy();
      await Promise.all(inFlight);
      checkIdle();
    },
  };
}
