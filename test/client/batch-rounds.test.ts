// The client's batch rounds and its request signal against the real service over loopback: when the first round is
// sent, when a refused token ends the rounds, what a batch that cannot reach the service answers, and a request's
// abort signal reaching `fetch` (issue 39's survivors and unreached mutants of src/client/batch.ts, connection.ts).
import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { after, before, test } from 'node:test';
import { calls, createStoreClient, StoreError } from '../../src/client/index.ts';
import { ABOUT_PATH } from '../../src/protocol/routes.ts';
import { startService, type ServiceHandle } from '../server/helpers/service.ts';

let service: ServiceHandle;
before(async () => {
  service = await startService();
});
after(async () => {
  await service.stop();
});

/** `fetch` that keeps the address of each request it sends (still the real fetch). */
function countingFetch() {
  const seen: string[] = [];
  const wrapped: typeof fetch = (input, init) => {
    // eslint-disable-next-line @typescript-eslint/no-base-to-string -- a fetch input is a string, a URL or a Request; each prints its address.
    seen.push(String(input));
    return fetch(input, init);
  };
  return { seen, fetch: wrapped, batches: () => seen.filter((url) => url.includes('/batch/store/v3')).length };
}

/** A client for the service that retries a batch round twice, at once, through `fetch`. */
function retryingClient(through: typeof fetch) {
  return createStoreClient({
    baseUrl: service.url,
    getAccessToken: () => 'dev-token-alice',
    fetch: through,
    backoff: { baseMs: 1, capMs: 5 },
    batchRetries: 2,
  });
}

/** A loopback port with nothing listening on it (taken, then closed). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

test('the first round of a batch is sent at once: only retries wait for the backoff', async () => {
  const counting = countingFetch();
  // A backoff whose every wait would be about ten minutes: a wait before the first round could not end in time.
  const c = createStoreClient({
    baseUrl: service.url,
    getAccessToken: () => 'dev-token-alice',
    fetch: counting.fetch,
    backoff: { baseMs: 1_200_000, capMs: 1_200_000, random: () => 0.999 },
    batchRetries: 0,
  });
  const [about] = await c.batch([calls.about({ fields: ['kind'] })] as const, { signal: AbortSignal.timeout(20_000) });
  assert.deepEqual(about, { ok: true, status: 200, value: { kind: 'store#about' } });
  assert.equal(counting.batches(), 1);
});

test('a batch whose refreshed token is refused too ends after that round: 401s are not retried with backoff', async () => {
  const counting = countingFetch();
  let asked = 0;
  const c = createStoreClient({
    baseUrl: service.url,
    getAccessToken: () => `revoked-${++asked}`,
    fetch: counting.fetch,
    backoff: { baseMs: 1, capMs: 5 },
    batchRetries: 4,
  });
  const [about, ids] = await c.batch([calls.about({ fields: ['kind'] }), calls.generateIds(1)] as const);
  for (const outcome of [about, ids]) {
    assert.equal(outcome.ok, false);
    if (!outcome.ok) assert.equal(outcome.status, 401);
  }
  // One round with the first token, one with a fresh one; then the 401s are the answer (not three more rounds).
  assert.equal(counting.batches(), 2);
  assert.equal(asked, 2);
});

test('a batch that cannot reach the service answers each call with status 0 and a message naming the batch', async () => {
  const c = createStoreClient({
    baseUrl: `http://127.0.0.1:${await closedPort()}`,
    getAccessToken: () => 'dev-token-alice',
    backoff: { baseMs: 1, capMs: 5 },
    batchRetries: 0,
  });
  const outcomes = await c.batch([calls.about({ fields: ['kind'] }), calls.generateIds(1)] as const);
  for (const outcome of outcomes) {
    assert.equal(outcome.ok, false);
    if (outcome.ok) continue;
    assert.equal(outcome.status, 0);
    assert.ok(outcome.error instanceof StoreError);
    assert.match(outcome.error.message, /^Network error on batch: /);
  }
});

test("a request's abort signal reaches fetch: an aborted request rejects with the signal's reason", async () => {
  const c = createStoreClient({ baseUrl: service.url, getAccessToken: () => 'dev-token-alice' });
  const reason = new Error('the page closed the dialog');
  await assert.rejects(
    c.request('GET', ABOUT_PATH, { query: { fields: 'kind' }, signal: AbortSignal.abort(reason) }),
    (error) => error === reason,
  );
  // The same request without the signal is answered: the rejection above was the signal's doing.
  assert.deepEqual(await c.request('GET', ABOUT_PATH, { query: { fields: 'kind' } }), { kind: 'store#about' });
});

/** Schedules one admin fault on the service. */
async function addFault(fault: object): Promise<void> {
  const r = await fetch(`${service.url}/__admin/faults`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(fault),
  });
  assert.equal(r.status, 200, await r.text());
}

test('a call answered 503 in one round is sent again in the next, alone, and its outcome is the success', async () => {
  const counting = countingFetch();
  await addFault({
    match: { method: 'GET', pathPrefix: '/store/v3/files/generateIds' },
    action: { type: 'status', status: 503 },
  });
  const c = retryingClient(counting.fetch);
  const [about, ids] = await c.batch([calls.about({ fields: ['kind'] }), calls.generateIds(2)] as const);
  assert.deepEqual(about, { ok: true, status: 200, value: { kind: 'store#about' } });
  assert.ok(ids.ok, JSON.stringify(ids));
  assert.equal(ids.value.ids.length, 2);
  assert.equal(counting.batches(), 2, 'one round, then one more for the 503');
});

test('a batch whose connection is cut before any answer is sent again: every call gets its answer', async () => {
  const counting = countingFetch();
  await addFault({ match: { method: 'POST', pathPrefix: '/batch/store/v3' }, action: { type: 'cut', afterBytes: 0 } });
  const c = retryingClient(counting.fetch);
  const [about, ids] = await c.batch([calls.about({ fields: ['kind'] }), calls.generateIds(1)] as const);
  assert.deepEqual(about, { ok: true, status: 200, value: { kind: 'store#about' } });
  assert.ok(ids.ok, JSON.stringify(ids));
  assert.equal(counting.batches(), 2, 'the cut round, then one more');
});

test('a batch the service refuses as a whole in every round gives each call that status and message, after retries + 1 rounds', async () => {
  const counting = countingFetch();
  await addFault({
    match: { method: 'POST', pathPrefix: '/batch/store/v3' },
    action: { type: 'status', status: 503 },
    times: 3,
  });
  const c = retryingClient(counting.fetch);
  const outcomes = await c.batch([calls.about({ fields: ['kind'] }), calls.generateIds(1)] as const);
  assert.equal(counting.batches(), 3, 'the first round and batchRetries (2) more');
  for (const outcome of outcomes) {
    assert.equal(outcome.ok, false);
    if (outcome.ok) continue;
    assert.equal(outcome.status, 503);
    assert.ok(outcome.error instanceof StoreError);
    assert.equal(outcome.error.reason, 'backendError');
    assert.doesNotMatch(outcome.error.message, /Unreadable batch response/);
  }
});

test('a batch call whose body is a Blob is refused before anything is sent: batches carry no media', async () => {
  const counting = countingFetch();
  const c = retryingClient(counting.fetch);
  await assert.rejects(
    c.batch([
      calls.about({ fields: ['kind'] }),
      { method: 'PATCH', path: '/store/v3/files/x', body: new Blob(['bytes']) },
    ]),
    (error: unknown) =>
      error instanceof TypeError &&
      error.message === 'batch call 1 has a body that is not JSON, text or bytes (no media in batches: spec §4.11)',
  );
  assert.equal(counting.batches(), 0);
});
