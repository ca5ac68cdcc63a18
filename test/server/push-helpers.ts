/**
 * Helpers of the push tests: a relay subscription read as an event stream over real HTTPS, with a way to await
 * the events of one channel.
 */
import type { PushEvent } from '../../src/protocol/push.ts';
import { request } from 'node:https';
import type { IncomingMessage } from 'node:http';
import { Readable } from 'node:stream';

/**
 * A `fetch` over node:https that trusts `caPem` (Node 20's global fetch takes no CA option). Enough for the relay
 * client and the `eventsource` package: method, headers, string body, signal; a streamed response body.
 */
export function fetchTrusting(caPem: string): typeof fetch {
  return (input, init = {}) =>
    new Promise<Response>((resolve, reject) => {
      const url = input instanceof Request ? input.url : String(input);
      const headers: Record<string, string> = {};
      new Headers(init.headers).forEach((value, key) => (headers[key] = value));
      const req = request(url, { method: init.method ?? 'GET', headers, ca: caPem, agent: false }, (res) => {
        const out = new Headers();
        for (const [key, value] of Object.entries(res.headers)) {
          if (value !== undefined) out.set(key, Array.isArray(value) ? value.join(', ') : value);
        }
        const status = res.statusCode ?? 0;
        const empty = status === 204 || status === 304;
        if (empty) res.resume();
        resolve(
          new Response(empty ? null : (Readable.toWeb(res) as ReadableStream<Uint8Array>), { status, headers: out }),
        );
      });
      init.signal?.addEventListener('abort', () => req.destroy(init.signal!.reason as Error));
      req.on('error', reject);
      req.end(typeof init.body === 'string' ? init.body : undefined);
    });
}

/** A subscription on a relay, with its event stream open. */
export interface TestSubscription {
  subscriptionId: string;
  address: string;
  token: string;
  events: PushEvent[];
  /** Resolves with the first `count` events of `channelId` (waiting for them as needed). */
  take(channelId: string, count: number): Promise<PushEvent[]>;
  close(): void;
}

/** Creates a subscription on the relay at `relayUrl` (trusting `caPem`) and opens its event stream. */
export async function subscribeToRelay(relayUrl: string, caPem: string): Promise<TestSubscription> {
  const grant = await new Promise<{ subscriptionId: string; key: string; address: string; token: string }>(
    (resolve, reject) => {
      const req = request(`${relayUrl}/subscriptions`, { method: 'POST', ca: caPem, agent: false }, (res) => {
        let text = '';
        res.on('data', (c: Buffer) => (text += c.toString()));
        res.on('end', () => resolve(JSON.parse(text)));
      });
      req.on('error', reject);
      req.end();
    },
  );
  const events: PushEvent[] = [];
  const waiters: Array<{ channelId: string; count: number; resolve: (e: PushEvent[]) => void }> = [];
  const check = (): void => {
    for (const w of [...waiters]) {
      const mine = events.filter((e) => e.channelId === w.channelId);
      if (mine.length >= w.count) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve(mine.slice(0, w.count));
      }
    }
  };
  let response: IncomingMessage | undefined;
  await new Promise<void>((resolve, reject) => {
    const path = `${relayUrl}/subscriptions/${grant.subscriptionId}/events?key=${grant.key}`;
    const req = request(path, { ca: caPem, agent: false }, (res) => {
      response = res;
      res.setEncoding('utf8');
      let buffer = '';
      res.on('data', (text: string) => {
        buffer += text;
        let cut: number;
        while ((cut = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, cut);
          buffer = buffer.slice(cut + 2);
          const data = /^data: (.*)$/m.exec(block);
          if (data) events.push(JSON.parse(data[1]) as PushEvent);
        }
        check();
      });
      resolve();
    });
    req.on('error', reject);
    req.end();
  });
  return {
    subscriptionId: grant.subscriptionId,
    address: grant.address,
    token: grant.token,
    events,
    take(channelId, count) {
      return new Promise((resolve) => {
        waiters.push({ channelId, count, resolve });
        check();
      });
    },
    close() {
      response?.destroy();
    },
  };
}
