/**
 * The push relay: a small HTTPS receiver that a web page can use as a channel address. The service posts push
 * messages to `/hooks/<subscriptionId>`; the page reads them as Server-Sent Events. Pages cannot receive HTTPS
 * requests themselves, which is why this exists.
 *
 * Endpoints:
 * - `POST /subscriptions` → 201 `{subscriptionId, key, address, token}`; 429 (with `Retry-After`) past the
 *   per-address creation rate or when all of the address's subscriptions have live streams; 503 when the relay
 *   is full of live streams. Subscriptions without an open stream expire when idle; a live one is never evicted.
 * - `POST /hooks/<id>` (the service) → 200 at once; 401 without, 403 with a wrong `X-Svc-Channel-Token`.
 * - `GET /subscriptions/<id>/events?key=<key>` → `text/event-stream`; `Last-Event-ID` (header or query
 *   `lastEventId`) replays what was missed from a bounded buffer; without it the whole buffer is replayed.
 */
import {
  H_SVC_CHANGED,
  H_SVC_CHANNEL_EXPIRATION,
  H_SVC_CHANNEL_ID,
  H_SVC_CHANNEL_TOKEN,
  H_SVC_MESSAGE_NUMBER,
  H_SVC_RESOURCE_ID,
  H_SVC_RESOURCE_STATE,
  H_SVC_RESOURCE_URI,
  PUSH_STATES,
  isPushState,
  type PushEvent,
} from 'store-upload-kit/protocol';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createClock, type Clock } from '../clock.ts';
import { RateLimiter } from './rate-limit.ts';
import { sameSecret, SubscriptionStore, type SubscriptionGrant } from './subscriptions.ts';

/** Settings of `createRelay`. */
export interface RelayOptions {
  /** Origin the service reaches the relay at, e.g. `https://localhost:8443`; default: from the `Host` header. */
  publicUrl?: string;
  /** Events kept per subscription for replay. Default 500. */
  bufferSize?: number;
  /** Subscriptions kept in memory. Default 10 000. */
  maxSubscriptions?: number;
  /** Subscriptions kept per client address. Default 50. */
  maxSubscriptionsPerClient?: number;
  /** A subscription with no open stream expires after this long without activity, ms. Default 3 600 000. */
  subscriptionIdleMs?: number;
  /** Subscriptions one address may create at once (token bucket size). Default 30. */
  createBurst?: number;
  /** Subscriptions one address may create per minute, sustained. Default 60. */
  createPerMinute?: number;
  /** Interval of SSE keep-alive comments, ms. Default 15 000. */
  keepAliveMs?: number;
  /** Where the relay reads time (server/clock.ts). Default: real time. */
  clock?: Clock;
}

/** A Node request handler with a `close()` that ends open event streams. */
export type RelayHandler = ((req: IncomingMessage, res: ServerResponse) => void) & {
  /** Ends every open event stream and its keep-alive timer. */
  close(): void;
};

const MAX_BODY = 64 * 1024;
const CORS: Record<string, string> = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'GET, POST, OPTIONS',
  'access-control-allow-headers': 'content-type, last-event-id',
  'access-control-max-age': '600',
};

function send(res: ServerResponse, status: number, body?: unknown): void {
  const text = body === undefined ? '' : JSON.stringify(body);
  res.writeHead(status, {
    ...CORS,
    ...(text ? { 'content-type': 'application/json; charset=utf-8' } : {}),
    'content-length': Buffer.byteLength(text),
  });
  res.end(text);
}

function fail(res: ServerResponse, status: number, message: string): void {
  send(res, status, { error: { code: status, message } });
}

function readBody(req: IncomingMessage): Promise<Buffer | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY) {
        resolve(undefined);
        req.destroy();
      } else chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

function sseFrame(event: PushEvent): string {
  return `id: ${event.sequence}\nevent: ${event.state}\ndata: ${JSON.stringify(event)}\n\n`;
}

/** Creates the relay's request handler. */
export function createRelay(options: RelayOptions = {}): RelayHandler {
  const store = new SubscriptionStore({
    bufferSize: options.bufferSize ?? 500,
    dedupeSize: 10_000,
    maxSubscriptions: options.maxSubscriptions ?? 10_000,
    maxPerClient: options.maxSubscriptionsPerClient ?? 50,
    idleMs: options.subscriptionIdleMs ?? 3_600_000,
  });
  const clock = options.clock ?? createClock();
  const creations = new RateLimiter(options.createBurst ?? 30, options.createPerMinute ?? 60);
  // Expired subscriptions are also swept when one is created; this bounds memory on a quiet relay.
  const sweeper = setInterval(() => store.sweep(clock.now()), Math.min(60_000, store.limits.idleMs));
  sweeper.unref();
  const keepAliveMs = options.keepAliveMs ?? 15_000;
  const streams = new Set<ServerResponse>();

  function subscribe(req: IncomingMessage, res: ServerResponse): void {
    const client = req.socket.remoteAddress ?? '';
    const now = clock.now();
    const wait = creations.take(client, now);
    if (wait > 0) {
      res.setHeader('retry-after', String(Math.ceil(wait / 1000)));
      return fail(res, 429, 'Too many subscriptions created from this address; retry later');
    }
    const sub = store.create(client, now);
    if (sub === 'clientFull') {
      return fail(
        res,
        429,
        `This address already has ${store.limits.maxPerClient} subscriptions with open event streams`,
      );
    }
    if (sub === 'relayFull')
      return fail(res, 503, 'The relay is full of subscriptions with open event streams; retry later');
    const origin = options.publicUrl ?? `https://${req.headers.host ?? 'localhost'}`;
    const grant: SubscriptionGrant = {
      subscriptionId: sub.id,
      key: sub.key,
      address: `${origin.replace(/\/$/, '')}/hooks/${sub.id}`,
      // eslint-disable-next-line @typescript-eslint/no-deprecated -- the `sub` key is read as String.prototype.sub, which it is not.
      token: new URLSearchParams({ sub: sub.id, key: sub.key }).toString(),
    };
    send(res, 201, grant);
  }

  async function hook(id: string, req: IncomingMessage, res: ServerResponse): Promise<void> {
    const sub = store.get(id);
    if (!sub) {
      fail(res, 404, `Unknown subscription '${id}'`);
      return;
    }
    const token = req.headers[H_SVC_CHANNEL_TOKEN];
    if (typeof token !== 'string') {
      fail(res, 401, 'X-Svc-Channel-Token is missing');
      return;
    }
    // The token is query-parameter style so a client may add its own parameters; `sub` and `key` must match.
    const params = new URLSearchParams(token);
    if (params.get('sub') !== sub.id || !sameSecret(params.get('key') ?? '', sub.key)) {
      fail(res, 403, 'X-Svc-Channel-Token does not match this subscription');
      return;
    }
    const channelId = req.headers[H_SVC_CHANNEL_ID];
    const state = req.headers[H_SVC_RESOURCE_STATE];
    const messageNumber = Number(req.headers[H_SVC_MESSAGE_NUMBER]);
    if (typeof channelId !== 'string' || typeof state !== 'string' || !Number.isSafeInteger(messageNumber)) {
      fail(res, 400, 'X-Svc-Channel-Id, X-Svc-Resource-State and an integer X-Svc-Message-Number are required');
      return;
    }
    if (!isPushState(state)) {
      fail(res, 400, `X-Svc-Resource-State '${state}' is not one of ${PUSH_STATES.join(', ')}`);
      return;
    }
    const raw = await readBody(req);
    if (raw === undefined) {
      fail(res, 413, `Body exceeds ${MAX_BODY} bytes`);
      return;
    }
    let body: unknown = null;
    if (raw.length > 0) {
      try {
        body = JSON.parse(raw.toString('utf8'));
      } catch {
        fail(res, 400, 'Body is not JSON');
        return;
      }
    }
    const header = (name: string): string => {
      const v = req.headers[name];
      return typeof v === 'string' ? v : '';
    };
    send(res, 200);
    store.accept(sub, clock.now(), {
      channelId,
      resourceId: header(H_SVC_RESOURCE_ID),
      resourceUri: header(H_SVC_RESOURCE_URI),
      state,
      changed: header(H_SVC_CHANGED)
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean),
      messageNumber,
      expiration: header(H_SVC_CHANNEL_EXPIRATION) || null,
      body,
    });
  }

  function events(id: string, url: URL, req: IncomingMessage, res: ServerResponse): void {
    const sub = store.get(id);
    // Same answer for an unknown id and a wrong key: the stream's existence is not disclosed.
    if (!sub || !sameSecret(url.searchParams.get('key') ?? '', sub.key)) {
      return fail(res, 404, `Unknown subscription '${id}' or wrong key`);
    }
    const lastHeader = req.headers['last-event-id'] ?? url.searchParams.get('lastEventId') ?? undefined;
    const last = lastHeader === undefined ? 0 : Number(lastHeader);
    if (!Number.isSafeInteger(last) || last < 0) return fail(res, 400, 'Last-Event-ID must be a whole number');
    res.writeHead(200, {
      ...CORS,
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
    });
    res.write('retry: 2000\n\n');
    const oldest = sub.events[0]?.sequence ?? sub.nextSequence;
    if (last > 0 && last + 1 < oldest) {
      // The buffer no longer holds everything that was missed: say so, so the page can resynchronise.
      res.write(`event: gap\ndata: ${JSON.stringify({ from: last + 1, to: oldest - 1 })}\n\n`);
    }
    for (const event of sub.events) if (event.sequence > last) res.write(sseFrame(event));
    const listener = (event: PushEvent): void => {
      res.write(sseFrame(event));
    };
    sub.listeners.add(listener);
    sub.lastActive = clock.now();
    streams.add(res);
    const timer = setInterval(() => res.write(': keep-alive\n\n'), keepAliveMs);
    res.on('close', () => {
      clearInterval(timer);
      sub.listeners.delete(listener);
      sub.lastActive = clock.now();
      streams.delete(res);
    });
  }

  const handler = (req: IncomingMessage, res: ServerResponse): void => {
    const url = new URL(req.url ?? '/', 'https://relay.invalid');
    const parts = url.pathname.split('/').filter(Boolean);
    const route = async (): Promise<void> => {
      if (req.method === 'OPTIONS') {
        res.writeHead(204, CORS);
        return void res.end();
      }
      if (req.method === 'POST' && url.pathname === '/subscriptions') {
        subscribe(req, res);
        return;
      }
      if (req.method === 'POST' && parts[0] === 'hooks' && parts.length === 2) return hook(parts[1], req, res);
      if (req.method === 'GET' && parts[0] === 'subscriptions' && parts[2] === 'events' && parts.length === 3) {
        events(parts[1], url, req, res);
        return;
      }
      if (req.method === 'GET' && url.pathname === '/') {
        send(res, 200, { service: 'store-relay' });
        return;
      }
      fail(res, 404, `No route for ${req.method} ${url.pathname}`);
    };
    route().catch((error: unknown) => {
      if (!res.headersSent) fail(res, 500, `Relay error: ${String(error)}`);
      else res.destroy();
    });
  };
  return Object.assign(handler, {
    close() {
      clearInterval(sweeper);
      for (const res of streams) res.end();
      streams.clear();
    },
  });
}
