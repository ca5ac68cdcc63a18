// The relay client's subscription against the real push relay over HTTPS on loopback: a relay address written with
// a trailing slash, a stream the relay refuses, and opening judged within a bound, so a client that never hears the
// stream open fails here in seconds rather than at the suite's limit (issue 39's mutants of relay-events.ts).
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { EventSource } from 'eventsource';
import { openRelaySubscription, RelayError, type EventSourceLike } from '../../src/client/relay-events.ts';
import { startRelay, type RunningRelay } from '../../server/relay/start.ts';
import { fetchTrusting } from '../server/push-helpers.ts';

/** Room for a loaded machine: opening a subscription on loopback takes milliseconds. */
const OPEN_WITHIN_MS = 15_000;

let dir: string;
let relay: RunningRelay;
let trusting: typeof fetch;
before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'relay-subscription-test-'));
  relay = await startRelay({ port: 0, host: 'localhost', certDir: join(dir, 'certs'), keepAliveMs: 60_000 });
  trusting = fetchTrusting(readFileSync(relay.caPath, 'utf8'));
});
after(async () => {
  await relay.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The real `eventsource` package over the CA-trusting fetch; every stream it opens is kept to be closed. */
const opened: EventSource[] = [];
const openEventStream = (url: string): EventSourceLike => {
  const source = new EventSource(url, { fetch: trusting });
  opened.push(source);
  return source;
};
after(() => {
  for (const source of opened) source.close();
});

/** `promise`, or a rejection naming `what` once `ms` went by. */
async function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: not settled within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}

test('a relay address with trailing slashes opens a subscription, settled once its stream is open', async () => {
  const subscription = await within(
    openRelaySubscription(`${relay.url}//`, { fetch: trusting, openEventStream }),
    OPEN_WITHIN_MS,
    'opening a subscription',
  );
  try {
    assert.equal(typeof subscription.subscriptionId, 'string');
    assert.ok(subscription.subscriptionId.length > 0);
    // The stream it waited for is open now, not merely asked for.
    assert.equal(opened.at(-1)?.readyState, EventSource.OPEN);
  } finally {
    subscription.close();
  }
});

test('an event stream the relay refuses rejects the opening with relay-stream-failed', async () => {
  // The real relay's grant, with its key spoiled on the way: the relay answers the stream 404.
  const spoilKey: typeof fetch = async (input, init) => {
    const response = await trusting(input, init);
    const grant = (await response.json()) as Record<string, unknown>;
    return new Response(JSON.stringify({ ...grant, key: 'not-the-key' }), {
      status: response.status,
      headers: { 'content-type': 'application/json' },
    });
  };
  await assert.rejects(
    within(
      openRelaySubscription(relay.url, { fetch: spoilKey, openEventStream }),
      OPEN_WITHIN_MS,
      'opening a refused stream',
    ),
    (error) => {
      assert.ok(error instanceof RelayError, String(error));
      assert.equal(error.code, 'relay-stream-failed');
      assert.match(error.message, /refused the event stream/);
      return true;
    },
  );
});

test('an aborted signal stops the subscription request: relay-unreachable, naming the relay', async () => {
  const controller = new AbortController();
  controller.abort(new Error('the page left'));
  // As the platform's fetch does, a request whose signal has already fired is refused before it is sent.
  const honouring: typeof fetch = (input, init) =>
    init?.signal?.aborted ? Promise.reject(init.signal.reason as Error) : trusting(input, init);
  await assert.rejects(
    within(
      openRelaySubscription(`${relay.url}/`, { fetch: honouring, openEventStream, signal: controller.signal }),
      OPEN_WITHIN_MS,
      'opening with an aborted signal',
    ),
    (error) => {
      assert.ok(error instanceof RelayError, String(error));
      assert.equal(error.code, 'relay-unreachable');
      assert.equal(error.message, `Cannot reach the relay at ${relay.url}: the page left`);
      return true;
    },
  );
});

test('a relay that answers the subscription request with an error status is relay-refused, naming the status', async () => {
  await assert.rejects(
    within(
      openRelaySubscription(`${relay.url}/not-a-relay`, { fetch: trusting, openEventStream }),
      OPEN_WITHIN_MS,
      'opening at a path the relay does not serve',
    ),
    (error) => {
      assert.ok(error instanceof RelayError, String(error));
      assert.equal(error.code, 'relay-refused');
      assert.equal(error.message, 'The relay answered 404 to POST /subscriptions');
      return true;
    },
  );
});
