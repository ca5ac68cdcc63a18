// The upload engine in Node against the real reference service: byte-identical results through faults.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { seededRandom } from '../server/helpers/seeded-random.ts';
import { startService, type ServiceHandle } from '../server/helpers/service.ts';
import { UploadError } from '../../src/uploader/contract/upload-error.ts';
import { createStoreClient } from '../../src/client/index.ts';
import { addFault, clearFaults, download, filesNamed, harness, md5, randomFile } from './helpers/engine-harness.ts';
import { startFaultProxy } from './helpers/fault-proxy.ts';
import { nodeHttp } from './helpers/node-http-port.ts';
import { BLOCK_SIZE } from '../../src/protocol/blocks.ts';
import { H_CONTENT_RANGE } from '../../src/protocol/headers.ts';
import type { HttpPort } from '../../src/uploader/contract/ports.ts';

const KiB = 1024;
const MiB = 1024 * KiB;

let service: ServiceHandle;
before(async () => {
  service = await startService();
});
after(async () => {
  await service.stop();
});

/** Uploads through a fresh engine and checks the stored bytes are exactly the file's. */
async function uploadAndCheck(size: number, options: Parameters<typeof harness>[1] = {}, baseUrl = service.url) {
  const h = harness(baseUrl, options);
  const file = randomFile(size);
  await h.engine.add('t1', file);
  const stored = await h.engine.done('t1');
  assert.equal(stored.name, file.name);
  assert.equal(stored.size, String(size));
  assert.equal(stored.md5Checksum, md5(file.bytes));
  const bytes = await download(service.url, stored.id);
  assert.equal(md5(bytes), md5(file.bytes));
  assert.deepEqual(await filesNamed(service.url, file.name), [{ id: stored.id }]);
  assert.deepEqual(await h.store.list(), [], 'no session record outlives a finished upload');
  return { h, file, stored };
}

describe('strategies', () => {
  test('a small file goes multipart with a pre-generated ID', async () => {
    const { h, stored } = await uploadAndCheck(300 * KiB);
    const last = h.events.at(-1)!;
    assert.equal(last.event, 'success');
    assert.equal(last.snapshot.strategy, 'multipart');
    assert.equal(last.snapshot.bytesAcknowledged, 300 * KiB);
    assert.match(stored.id, /\S+/);
  });

  test('a file of exactly resumableThreshold bytes goes multipart; one byte more goes resumable', async () => {
    const at = await uploadAndCheck(300 * KiB, { resumableThreshold: 300 * KiB });
    assert.equal(at.h.events.at(-1)?.snapshot.strategy, 'multipart');
    const over = await uploadAndCheck(300 * KiB + 1, { resumableThreshold: 300 * KiB });
    assert.equal(over.h.events.at(-1)?.snapshot.strategy, 'resumable');
  });

  test('a large file goes resumable in one request by default, whose body is the file itself, not a slice of it', async () => {
    // A browser uploads a chosen file by its path, but a slice of it (even of every byte) through its blob store:
    // about twice the CPU in Chromium (engine/by-path.ts).
    const bodies: unknown[] = [];
    const http: HttpPort = {
      send: (req, hooks) => {
        if (req.method === 'PUT' && req.body?.length) bodies.push(...req.body);
        return nodeHttp.send(req, hooks);
      },
    };
    const { h, file } = await uploadAndCheck(6 * MiB + 123, { http });
    assert.equal(h.events.at(-1)!.snapshot.strategy, 'resumable');
    assert.equal(bodies.length, 1, 'one PUT');
    assert.equal(bodies[0], file.file, 'the file itself went');
  });

  test('a file refused by its path (as Chromium refuses it to a process it was not granted to) goes on at once as a slice', async () => {
    // Chromium's network service answers a body of a file by its path with ERR_ACCESS_DENIED, before any byte leaves,
    // when the sending process was not granted the file (bench/file-body-repro): the worker sees a network error.
    const sent: { body: unknown; range: string | undefined }[] = [];
    const http: HttpPort = {
      send: (req, hooks) => {
        if (req.method !== 'PUT') return nodeHttp.send(req, hooks);
        const body = req.body?.[0];
        sent.push({ body, range: req.headers[H_CONTENT_RANGE] });
        if (body === file.file) return Promise.reject(new Error('net::ERR_ACCESS_DENIED'));
        return nodeHttp.send(req, hooks);
      },
    };
    const file = randomFile(6 * MiB + 123);
    const h = harness(service.url, { http });
    await h.engine.add('t1', file);
    const stored = await h.engine.done('t1');
    assert.equal(stored.md5Checksum, md5(file.bytes));
    assert.equal(md5(await download(service.url, stored.id)), md5(file.bytes));
    assert.equal(sent.length, 3, 'the refused file, a status query, the slice');
    assert.equal(sent[0]!.body, file.file);
    assert.equal(sent[1]!.range, `bytes */${file.bytes.length}`, 'a status query');
    assert.ok(sent[2]!.body instanceof Blob && sent[2]!.body !== file.file, 'a slice');
    assert.equal((sent[2]!.body as Blob).size, file.bytes.length, 'of every byte');
    assert.deepEqual(
      h.events.filter((e) => e.event === 'retry' || e.event === 'error'),
      [],
      'no retry wait, no error',
    );
  });

  test('chunkSize sends 256 KiB multiples, acknowledging each', async () => {
    const puts: { range: string | undefined; size: number | undefined }[] = [];
    const http: HttpPort = {
      send: (req, hooks) => {
        if (req.method === 'PUT')
          puts.push({ range: req.headers[H_CONTENT_RANGE], size: (req.body?.[0] as Blob)?.size });
        return nodeHttp.send(req, hooks);
      },
    };
    const { h } = await uploadAndCheck(MiB + 5, { chunkSize: 256 * KiB, resumableThreshold: 0, http });
    const acks = h.events.filter((e) => e.event === 'progress').map((e) => e.snapshot.bytesAcknowledged);
    for (const at of [256 * KiB, 512 * KiB, 768 * KiB, MiB]) assert.ok(acks.includes(at), `acknowledged ${at}`);
    // Each chunk is a slice of its own bytes, named by its Content-Range: none is the whole file.
    const total = MiB + 5;
    assert.deepEqual(puts, [
      ...[0, 1, 2, 3].map((i) => ({
        range: `bytes ${i * 256 * KiB}-${(i + 1) * 256 * KiB - 1}/${total}`,
        size: 256 * KiB,
      })),
      { range: `bytes ${MiB}-${total - 1}/${total}`, size: 5 },
    ]);
  });

  test('adaptive chunks: the first sized from the round trip, a cut halves it, the measured link grows it', async () => {
    await clearFaults(service.url);
    // The first data PUT is cut after 1 MiB: the retry must send half the first chunk, and once that chunk's timing
    // is measured (loopback: fast) the rest goes in one request. 34 MiB, so the first chunk is not the whole file.
    await addFault(service.url, {
      match: { method: 'PUT', uploadType: 'resumable' },
      action: { type: 'cut', afterBytes: MiB },
      times: 1,
    });
    const ranges: string[] = [];
    const http: HttpPort = {
      send: (req, hooks) => {
        const range = req.headers[H_CONTENT_RANGE];
        if (req.method === 'PUT' && range?.startsWith('bytes ') && !range.startsWith('bytes */')) ranges.push(range);
        return nodeHttp.send(req, hooks);
      },
    };
    const size = 34 * MiB + 17;
    try {
      await uploadAndCheck(size, { chunkSize: 'adaptive', resumableThreshold: 0, http });
    } finally {
      await clearFaults(service.url);
    }
    const spans = ranges.map((range) => {
      const [, first, last] = /^bytes (\d+)-(\d+)\/\d+$/.exec(range)!.map(Number);
      return { first, length: last - first + 1 };
    });
    const detail = ranges.join('; ');
    assert.equal(spans.length, 3, detail);
    // Guessed before anything is measured: 3 s at 40 Mbit/s of whole blocks, 16 MiB at most.
    assert.ok(spans[0].length >= 57 * BLOCK_SIZE && spans[0].length <= 64 * BLOCK_SIZE, detail);
    assert.equal(spans[0].length % BLOCK_SIZE, 0, detail);
    // After the cut: resumed from what the service kept, with half the chunk (whole blocks).
    assert.ok(spans[1].first <= MiB, detail);
    assert.equal(spans[1].length, Math.floor(spans[0].length / 2 / BLOCK_SIZE) * BLOCK_SIZE, detail);
    // Measured fast: the chunk grew past the rest, which went in one final request.
    assert.equal(spans[2].first, spans[1].first + spans[1].length, detail);
    assert.equal(spans[2].first + spans[2].length, size, detail);
    assert.ok(spans[2].length > spans[1].length, detail);
  });

  test('a chunkSize that is not a multiple of 256 KiB is refused with a message', () => {
    assert.throws(
      () => harness(service.url, { chunkSize: 1000 }),
      (error: UploadError) => {
        assert.equal(error.code, 'bad-request');
        assert.match(error.message, /multiple of 262144 bytes/);
        return true;
      },
    );
  });
});

describe('faults (spec §7)', () => {
  test('connection cuts at random offsets: resumes from the service-reported range', async (t) => {
    await clearFaults(service.url);
    const size = 4 * MiB + 999;
    // Seeded (CUT_SEED=… replays a run): the offsets and the seed are printed when the test fails.
    const seed = Number(process.env.CUT_SEED ?? Date.now() % 2 ** 31);
    const random = seededRandom(seed);
    const cuts = [1, 2, 3].map(() => 1 + Math.floor(random() * (size - 2)));
    try {
      for (const afterBytes of cuts)
        await addFault(service.url, {
          match: { method: 'PUT', uploadType: 'resumable' },
          action: { type: 'cut', afterBytes },
        });
      const { h } = await uploadAndCheck(size, { resumableThreshold: 0 });
      const retries = h.events.filter((e) => e.event === 'retry');
      assert.ok(retries.length >= 1, 'at least one cut hit a request');
      assert.ok(retries.every((e) => e.snapshot.retry?.cause === 'network'));
    } catch (error) {
      t.diagnostic(`CUT_SEED=${seed} (cuts at ${cuts.join(', ')})`);
      console.error(`replay with CUT_SEED=${seed} (cuts at ${cuts.join(', ')})`);
      throw error;
    }
  });

  test('cuts during chunked uploads', async () => {
    await clearFaults(service.url);
    await addFault(service.url, {
      match: { method: 'PUT', uploadType: 'resumable' },
      action: { type: 'cut', afterBytes: 300 * KiB },
      times: 2,
      skip: 1,
    });
    await uploadAndCheck(2 * MiB, { resumableThreshold: 0, chunkSize: 512 * KiB });
  });

  test('a session start whose connection is cut is retried as a network failure, and the file stored once', async () => {
    await clearFaults(service.url);
    await addFault(service.url, {
      match: { method: 'POST', uploadType: 'resumable' },
      action: { type: 'cut', afterBytes: 0 },
      times: 1,
    });
    try {
      const { h } = await uploadAndCheck(MiB, { resumableThreshold: 0, chunkSize: 512 * KiB });
      const retries = h.events.filter((e) => e.event === 'retry').map((e) => e.snapshot.retry?.cause);
      assert.deepEqual(retries, ['network']);
    } finally {
      await clearFaults(service.url);
    }
  });

  test('a burst of 503s is retried with backoff', async () => {
    await clearFaults(service.url);
    await addFault(service.url, {
      match: { method: 'PUT', uploadType: 'resumable' },
      action: { type: 'status', status: 503 },
      times: 3,
    });
    // Jitter fixed at half the window: the delays are half of 20, 40 and 80 ms, one window per retry in a row.
    const backoff = { baseMs: 20, capMs: 200, random: () => 0.5 };
    const { h } = await uploadAndCheck(MiB, { resumableThreshold: 0, chunkSize: 256 * KiB, backoff });
    const retryEvents = h.events.filter((e) => e.event === 'retry');
    assert.deepEqual(
      retryEvents.map((e) => e.snapshot.state),
      ['retrying', 'retrying', 'retrying'],
    );
    const retries = retryEvents.map((e) => e.snapshot.retry);
    assert.deepEqual(
      retries.map((r) => [r?.cause, r?.status, r?.attempt, r?.delayMs]),
      [
        ['server-error', 503, 1, 10],
        ['server-error', 503, 2, 20],
        ['server-error', 503, 3, 40],
      ],
    );
  });

  test('a 503 on a multipart create is retried without a duplicate', async () => {
    await clearFaults(service.url);
    await addFault(service.url, {
      match: { method: 'POST', uploadType: 'multipart' },
      action: { type: 'status', status: 503 },
      times: 2,
    });
    await uploadAndCheck(100 * KiB);
  });

  test('a 403 rate limit backs off and resumes', async () => {
    await clearFaults(service.url);
    await addFault(service.url, {
      match: { method: 'PUT', uploadType: 'resumable' },
      action: { type: 'status', status: 403 },
      times: 2,
      skip: 1,
    });
    const { h } = await uploadAndCheck(MiB, { resumableThreshold: 0, chunkSize: 256 * KiB });
    const causes = h.events
      .filter((e) => e.event === 'retry')
      .map((e) => [e.snapshot.retry?.cause, e.snapshot.retry?.status]);
    assert.deepEqual(causes, [
      ['rate-limit', 403],
      ['rate-limit', 403],
    ]);
  });

  test('the retry budget ends in retries-exhausted, not a hang', async () => {
    await clearFaults(service.url);
    await addFault(service.url, {
      match: { method: 'POST', uploadType: 'multipart' },
      action: { type: 'status', status: 500 },
      times: 10,
    });
    const h = harness(service.url, { maxRetries: 2 });
    const file = randomFile(10 * KiB);
    await h.engine.add('t', file);
    await assert.rejects(h.engine.done('t'), (error: UploadError) => {
      assert.equal(error.code, 'retries-exhausted');
      assert.equal(error.status, 500);
      assert.match(error.message, /gave up after 2 retries/);
      return true;
    });
    await clearFaults(service.url);
    assert.deepEqual(await filesNamed(service.url, file.name), []);
  });

  test('a retried create that gets 409 is a success, never a duplicate', async () => {
    let lost = false;
    const proxy = await startFaultProxy(service.url, (req) => {
      if (!lost && req.method === 'POST' && req.url?.includes('uploadType=multipart')) {
        lost = true;
        return 'lose-response';
      }
      return 'pass';
    });
    try {
      const h = harness(proxy.url);
      const file = randomFile(64 * KiB);
      await h.engine.add('t', file);
      const stored = await h.engine.done('t');
      const creates = proxy.seen.filter((line) => line.startsWith('POST') && line.includes('uploadType=multipart'));
      assert.equal(creates.length, 2, 'the create was sent twice');
      assert.deepEqual(await filesNamed(service.url, file.name), [{ id: stored.id }]);
      assert.equal(md5(await download(service.url, stored.id)), md5(file.bytes));
    } finally {
      await proxy.close();
    }
  });

  test('bytes corrupted on the way fail with code integrity', async () => {
    let corrupted = false;
    const proxy = await startFaultProxy(service.url, (req) => {
      if (!corrupted && req.method === 'PUT' && req.url?.includes('upload_id=')) {
        corrupted = true;
        return 'corrupt-body';
      }
      return 'pass';
    });
    try {
      const h = harness(proxy.url, { resumableThreshold: 0 });
      await h.engine.add('t', randomFile(512 * KiB));
      await assert.rejects(h.engine.done('t'), (error: UploadError) => {
        assert.equal(error.code, 'integrity');
        assert.match(error.message, /MD5 mismatch/);
        return true;
      });
    } finally {
      await proxy.close();
    }
  });

  test('an update of a file that does not exist fails with not-found and the service message', async () => {
    const h = harness(service.url);
    await h.engine.add('t', randomFile(KiB), { updateFileId: 'no-such-file' });
    await assert.rejects(h.engine.done('t'), (error: UploadError) => {
      assert.equal(error.code, 'not-found');
      assert.equal(error.status, 404);
      assert.equal(error.message, 'File not found: no-such-file.');
      assert.equal(error.reason, 'notFound', "the service's reason comes with it");
      return true;
    });
  });
});

describe('a failing token provider', () => {
  for (const [name, size] of [
    ['multipart', 10 * KiB],
    ['resumable', 6 * MiB],
  ] as const) {
    test(`a getAccessToken that throws fails the ${name} upload with code auth and the app's message, sending nothing`, async () => {
      const getAccessToken = () => Promise.reject(new Error('the session has ended'));
      const h = harness(service.url, { client: createStoreClient({ baseUrl: service.url, getAccessToken }) });
      const file = randomFile(size);
      await h.engine.add('t', file);
      await assert.rejects(h.engine.done('t'), (error: UploadError) => {
        assert.equal(error.code, 'auth');
        assert.equal(error.message, 'getAccessToken failed: the session has ended');
        return true;
      });
      assert.equal(h.events.at(-1)!.snapshot.state, 'failed');
      assert.deepEqual(await filesNamed(service.url, file.name), []);
    });
  }
});
