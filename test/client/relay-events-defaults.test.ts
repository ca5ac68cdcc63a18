/**
 * The relay client's defaults, against the real push relay over HTTPS on loopback: the platform's EventSource
 * (used when there is one, refused with a clear error when there is none) and the platform's fetch.
 */
import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { EventSource } from 'eventsource';
import { openRelaySubscription, RelayError } from '../../src/client/relay-events.ts';
import { startRelay, type RunningRelay } from '../../server/relay/start.ts';
import { fetchTrusting } from '../server/push-helpers.ts';

let dir: string;
let relay: RunningRelay;
let trusting: typeof fetch;
before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'relay-defaults-test-'));
  relay = await startRelay({ port: 0, host: 'localhost', certDir: join(dir, 'certs') });
  trusting = fetchTrusting(readFileSync(relay.caPath, 'utf8'));
});
after(async () => {
  await relay.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Runs `body` with `globalThis.EventSource` set to `value` (undefined: none), then puts back what was there. */
async function withGlobalEventSource<T>(value: unknown, body: () => Promise<T>): Promise<T> {
  const had = Object.getOwnPropertyDescriptor(globalThis, 'EventSource');
  Object.defineProperty(globalThis, 'EventSource', { value, configurable: true, writable: true });
  try {
    return await body();
  } finally {
    if (had) Object.defineProperty(globalThis, 'EventSource', had);
    else delete (globalThis as { EventSource?: unknown }).EventSource;
  }
}

test('without an EventSource and without openEventStream, opening fails with relay-stream-failed, saying so', async () => {
  await withGlobalEventSource(undefined, () =>
    assert.rejects(openRelaySubscription(relay.url, { fetch: trusting }), (error) => {
      assert.ok(error instanceof RelayError, String(error));
      assert.equal(error.code, 'relay-stream-failed');
      assert.equal(error.message, 'This environment has no EventSource; pass openEventStream');
      return true;
    }),
  );
});

test('with the platform’s EventSource and no openEventStream, the subscription opens on it', async () => {
  const opened: EventSource[] = [];
  /** The real `eventsource` package, as a page's global EventSource, trusting the relay's development CA. */
  class PlatformEventSource extends EventSource {
    constructor(url: string | URL) {
      super(url, { fetch: trusting });
      opened.push(this);
    }
  }
  const subscription = await withGlobalEventSource(PlatformEventSource, () =>
    openRelaySubscription(relay.url, { fetch: trusting }),
  );
  try {
    assert.equal(typeof subscription.subscriptionId, 'string');
    assert.equal(opened.length, 1, 'the stream is the global EventSource');
    assert.equal(opened[0]!.readyState, EventSource.OPEN);
    assert.ok(opened[0]!.url.includes(encodeURIComponent(subscription.subscriptionId)));
  } finally {
    subscription.close();
  }
  assert.equal(opened[0]!.readyState, EventSource.CLOSED, 'closing the subscription closes its stream');
});

test('without a fetch option the platform’s fetch is used: a relay nobody listens at is relay-unreachable', async () => {
  const port = await new Promise<number>((resolve) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
  const base = `http://127.0.0.1:${port}`;
  await assert.rejects(openRelaySubscription(`${base}/`), (error) => {
    assert.ok(error instanceof RelayError, String(error));
    assert.equal(error.code, 'relay-unreachable');
    assert.ok(error.message.startsWith(`Cannot reach the relay at ${base}: `), error.message);
    return true;
  });
});
