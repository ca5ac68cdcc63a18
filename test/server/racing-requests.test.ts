/**
 * Racing requests on one resumable session: the newest wins, and every older one still gets an answer (a 503 or a
 * 308, then the connection closes) instead of a dropped connection. Each race holds the older request mid-body until
 * the newer one is answered, so the race happens every run; then the upload finishes byte-identical.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { setImmediate as turn } from 'node:timers/promises';
import { after, before, describe, it } from 'node:test';
import { bytesOf } from './helpers/bytes.ts';
import { type ApiResult, type ServiceHandle, startService } from './helpers/service.ts';

const BLOCK = 256 * 1024;
const TOTAL = 8 * BLOCK;
const DATA = bytesOf(TOTAL, 21);
const md5 = (b: Uint8Array) => createHash('md5').update(b).digest('hex');

let svc: ServiceHandle;
before(async () => {
  svc = await startService();
});
after(() => svc.stop());

async function startSession(name = 'race.bin') {
  const r = await svc.api('POST', '/upload/store/v3/files?uploadType=resumable', { body: { name } });
  assert.equal(r.status, 200, r.text);
  return { uri: r.headers.location as string, id: r.headers['x-svc-upload-id'] as string };
}

/** Sends `bytes[0, hold)`, waits for `gate`, then the rest: a request that is still mid-body when its rival comes. */
async function* heldBody(bytes: Buffer, hold: number, gate: Promise<unknown>): AsyncIterable<Uint8Array> {
  yield bytes.subarray(0, hold);
  await gate.catch(() => undefined);
  yield bytes.subarray(hold);
}

function put(uri: string, body: Buffer | AsyncIterable<Uint8Array>, first: number, length: number) {
  return svc.api('PUT', uri, {
    token: null,
    body,
    headers: {
      'Content-Length': String(length),
      'Content-Range': `bytes ${first}-${first + length - 1}/${TOTAL}`,
    },
  });
}

/** A gate that opens once the request it is given has its answer: the older request's rest waits for the newer. */
function answeredAfter(): [Promise<unknown>, (request: Promise<ApiResult>) => void] {
  let open!: (request: Promise<ApiResult>) => void;
  const gate = new Promise<unknown>((resolve) => (open = resolve));
  return [gate, open];
}

/** Waits until the session's part file holds `size` bytes: the older request holds the session by then. */
async function holding(id: string, size: number): Promise<void> {
  const part = join(svc.dataDir, 'sessions', `${id}.part`);
  while (!existsSync(part) || statSync(part).size < size) await turn();
}

/** Every request got a status a client can act on; then the upload completes from the status query, byte-identical. */
async function answeredAndCompletes(uri: string, results: ApiResult[]) {
  for (const r of results) assert.ok([200, 308, 503].includes(r.status), `status ${r.status}: ${r.text}`);
  const q = await svc.api('PUT', uri, { token: null, body: '', headers: { 'Content-Range': `bytes */${TOTAL}` } });
  let stored = TOTAL;
  if (q.status === 308) {
    const range = q.headers.range as string | undefined;
    stored = range === undefined ? 0 : Number(/^bytes=0-(\d+)$/.exec(range)![1]) + 1;
  }
  const done = stored === TOTAL ? q : await put(uri, DATA.subarray(stored), stored, TOTAL - stored);
  assert.equal(done.status, 200, done.text);
  assert.equal(done.json().md5Checksum, md5(DATA));
}

describe('racing requests on one session', () => {
  it('two chunks at once: the older is answered, the newer wins', async () => {
    const { uri, id } = await startSession();
    const [gate, openAfter] = answeredAfter();
    const older = put(uri, heldBody(DATA.subarray(0, 4 * BLOCK), 2 * BLOCK, gate), 0, 4 * BLOCK);
    await holding(id, 2 * BLOCK);
    const newer = put(uri, DATA.subarray(4 * BLOCK), 4 * BLOCK, 4 * BLOCK);
    openAfter(newer);
    const results = await Promise.all([older, newer]);
    assert.equal(results[0].status, 503, 'the older chunk is ended with an answer');
    await answeredAndCompletes(uri, results);
  });

  it('one range twice with different bytes: both answered, stored bytes are on disk', async () => {
    const { uri, id } = await startSession();
    const other = Buffer.alloc(4 * BLOCK, 0x5a);
    const [gate, openAfter] = answeredAfter();
    const older = put(uri, heldBody(other, 2 * BLOCK, gate), 0, 4 * BLOCK);
    await holding(id, 2 * BLOCK);
    const newer = put(uri, DATA.subarray(0, 4 * BLOCK), 0, 4 * BLOCK);
    openAfter(newer);
    const results = await Promise.all([older, newer]);
    assert.equal(results[0].status, 503);
    assert.equal(results[1].status, 308, results[1].text);
    // The older request's two blocks stay (a client that sends other bytes for one range gets what it sent first).
    const rest = await put(uri, DATA.subarray(4 * BLOCK), 4 * BLOCK, 4 * BLOCK);
    assert.equal(rest.status, 200, rest.text);
  });

  it('the final chunk twice: both answered, the file completes once', async () => {
    const { uri, id } = await startSession('final-twice.bin');
    assert.equal((await put(uri, DATA.subarray(0, 4 * BLOCK), 0, 4 * BLOCK)).status, 308);
    const [gate, openAfter] = answeredAfter();
    const tail = DATA.subarray(4 * BLOCK);
    const older = put(uri, heldBody(tail, 2 * BLOCK, gate), 4 * BLOCK, 4 * BLOCK);
    await holding(id, 6 * BLOCK);
    const newer = put(uri, tail, 4 * BLOCK, 4 * BLOCK);
    openAfter(newer);
    const results = await Promise.all([older, newer]);
    assert.deepEqual(
      results.map((r) => r.status),
      [503, 200],
    );
    await answeredAndCompletes(uri, results);
    const files = (await svc.api('GET', '/store/v3/files')).json().files as { name: string }[];
    assert.equal(files.filter((f) => f.name === 'final-twice.bin').length, 1, 'one file, not two');
  });

  it('three whole-file PUTs: every one answered, the newest completes the file', async () => {
    const { uri, id } = await startSession();
    const whole = (body: Buffer | AsyncIterable<Uint8Array>) =>
      svc.api('PUT', uri, { token: null, body, headers: { 'Content-Length': String(TOTAL) } });
    const [afterSecond, openAfterSecond] = answeredAfter();
    const [afterThird, openAfterThird] = answeredAfter();
    const first = whole(heldBody(DATA, 2 * BLOCK, afterSecond));
    await holding(id, 2 * BLOCK);
    const second = whole(heldBody(DATA, 3 * BLOCK, afterThird));
    openAfterSecond(second);
    await holding(id, 3 * BLOCK);
    const third = whole(DATA);
    openAfterThird(third);
    const results = await Promise.all([first, second, third]);
    assert.deepEqual(
      results.map((r) => r.status),
      [503, 503, 200],
    );
    await answeredAndCompletes(uri, results);
  });
});
