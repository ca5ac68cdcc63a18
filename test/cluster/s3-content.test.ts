// The content port on a real S3 server (a throwaway Ceph RGW, `servers.ts`): finished content, resumable sessions
// staged in the bucket and continued by another node, cut bodies, taking a request back, clean-up, start failures.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { ListMultipartUploadsCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { BLOCK_SIZE, floorToBlock } from 'store-upload-kit/protocol';
import type { ContentStore, SessionContent } from '../../server/content/content-port.ts';
import { openContent, parseContentUrl } from '../../server/content/index.ts';
import { openS3Content } from '../../server/content/s3-content.ts';
import { seededRandom } from '../server/helpers/seeded-random.ts';
import { freePort, type ObjectStore, startObjectStore } from './servers.ts';

const MiB = 1024 * 1024;
let rgw: ObjectStore;
let admin: S3Client;
const opened: ContentStore[] = [];

before(async () => {
  rgw = await startObjectStore();
  admin = new S3Client({
    endpoint: rgw.endpoint,
    region: rgw.region,
    forcePathStyle: true,
    credentials: { accessKeyId: rgw.accessKeyId, secretAccessKey: rgw.secretAccessKey },
  });
});
after(async () => {
  for (const c of opened) await c.close();
  admin?.destroy();
  await rgw?.dispose();
});

/** A content store under its own prefix (each test sees only its own objects). */
async function store(prefix: string, times: { stagingTtlMs?: number; orphanGraceMs?: number } = {}) {
  const c = await openS3Content({
    bucket: rgw.bucket,
    prefix,
    endpoint: rgw.endpoint,
    region: rgw.region,
    accessKeyId: rgw.accessKeyId,
    secretAccessKey: rgw.secretAccessKey,
    ...times,
  });
  opened.push(c);
  return c;
}

/** Every object key under `prefix/` (relative), sorted. */
async function keys(prefix: string): Promise<string[]> {
  const out = await admin.send(new ListObjectsV2Command({ Bucket: rgw.bucket, Prefix: `${prefix}/` }));
  return (out.Contents ?? []).map((o) => (o.Key ?? '').slice(prefix.length + 1)).sort();
}

async function uploads(prefix: string): Promise<string[]> {
  const out = await admin.send(new ListMultipartUploadsCommand({ Bucket: rgw.bucket, Prefix: `${prefix}/` }));
  return (out.Uploads ?? []).map((u) => (u.Key ?? '').slice(prefix.length + 1));
}

async function bytesOf(c: ContentStore, name: string, range?: { start: number; end: number }): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of await c.read(name, range)) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** Seeded random bytes: a block in the wrong place never matches by accident. */
function seededBytes(seed: number, size: number): Buffer {
  const next = seededRandom(seed);
  const b = Buffer.alloc(size);
  for (let i = 0; i + 4 <= size; i += 4) b.writeUInt32LE(Math.floor(next() * 2 ** 32), i);
  for (let i = size - (size % 4); i < size; i++) b[i] = Math.floor(next() * 256);
  return b;
}

const md5 = (b: Uint8Array) => createHash('md5').update(b).digest('hex');

/** A body in socket-sized pieces; `cutAfter` bytes in, it fails as a dropped connection does. */
async function* body(bytes: Uint8Array, cutAfter?: number): AsyncIterable<Uint8Array> {
  const end = cutAfter ?? bytes.length;
  for (let at = 0; at < end; at += 64 * 1024) yield Buffer.from(bytes.subarray(at, Math.min(end, at + 64 * 1024)));
  if (cutAfter !== undefined) throw new Error('connection cut');
}

/**
 * Sends `data` as the protocol's handler would: each request appends a chunk at what is stored, keeps its whole
 * blocks, and the last one completes. `nodes` take the requests in turn (any node may answer any request).
 */
async function upload(nodes: readonly SessionContent[], id: string, data: Uint8Array, chunk: number) {
  let i = 0;
  for (;;) {
    const node = nodes[i++ % nodes.length] as SessionContent;
    const stored = await node.stored(id);
    const end = Math.min(data.length, stored + chunk);
    const { received, tail } = await node.append(id, stored, stored, body(data.subarray(stored, end)));
    assert.equal(received, end - stored);
    if (end === data.length) return node.complete(id, data.length, tail);
    assert.equal(tail.length, 0, 'a chunk of whole blocks leaves no tail');
    await node.keep(id, end);
  }
}

describe('finished content', () => {
  test('write, read, range, one object per write, remove', async () => {
    const c = await store('content');
    const small = seededBytes(1, 300_000);
    const big = seededBytes(2, 20 * MiB + 12_345);
    const a = await c.write(body(small));
    const b = await c.write(body(big));
    assert.deepEqual([a.size, a.md5], [small.length, md5(small)]);
    assert.deepEqual([b.size, b.md5], [big.length, md5(big)]);
    assert.deepEqual(await keys('content'), [a.key, b.key].sort());
    assert.deepEqual(await uploads('content'), [], 'the multipart upload of the big body completed');
    assert.ok((await bytesOf(c, b.key)).equals(big));
    const range = { start: 8 * MiB - 5, end: 8 * MiB + 100 };
    assert.ok((await bytesOf(c, b.key, range)).equals(big.subarray(range.start, range.end + 1)));
    const copy = await c.localCopy(a.key);
    assert.ok((await readFile(copy.path)).equals(small));
    await copy.release();
    await c.remove(a.key);
    await c.remove('content/c-never-written');
    assert.deepEqual(await keys('content'), [b.key]);
    await assert.rejects(c.read(a.key), /NoSuchKey|not exist/i);
  });

  test('a body over the size limit or cut mid-way leaves no object and no upload', async () => {
    const c = await store('refused');
    const data = seededBytes(3, 18 * MiB);
    await assert.rejects(c.write(body(data), 10 * MiB), /exceeds/);
    await assert.rejects(c.write(body(data, 17 * MiB)), /connection cut/);
    assert.deepEqual(await keys('refused'), []);
    assert.deepEqual(await uploads('refused'), []);
  });
});

describe('resumable sessions', () => {
  for (const [label, chunk] of [
    ['256 KiB', 256 * 1024],
    ['1 MiB', MiB],
    ['9 MiB', 9 * MiB],
    ['the whole body', 21 * MiB],
  ] as const) {
    test(`chunks of ${label}, alternating between two nodes: one object, byte-identical, MD5 right`, async () => {
      const prefix = `chunks-${chunk}`;
      const [one, two] = [await store(prefix), await store(prefix)];
      const data = seededBytes(chunk, 20 * MiB + 12_345);
      const done = await upload([one.sessions, two.sessions], 's1', data, chunk);
      assert.equal(done.md5, md5(data));
      assert.deepEqual(await keys(prefix), ['content/u-s1'], 'one object, no staging left');
      assert.deepEqual(await uploads(prefix), []);
      assert.ok((await bytesOf(two, done.key)).equals(data));
    });
  }

  test('a body cut mid-way keeps exactly its whole blocks, below and past a part', async () => {
    const c = await store('cut');
    const data = seededBytes(5, 12 * MiB + 777);
    const first = 3 * MiB + 100_000;
    await assert.rejects(c.sessions.append('s', 0, 0, body(data, first)), /connection cut/);
    assert.equal(await c.sessions.stored('s'), floorToBlock(first));
    const second = 9 * MiB + 300 * 1024;
    const from = floorToBlock(first);
    await assert.rejects(
      c.sessions.append('s', from, from, body(data.subarray(from), second - from)),
      /connection cut/,
    );
    assert.equal(await c.sessions.stored('s'), floorToBlock(second), 'a part and a segment past it');
    // Another node resumes from what is stored, resending the block the cut lost.
    const other = await store('cut');
    const at = await other.sessions.stored('s');
    const { tail } = await other.sessions.append('s', at, at - BLOCK_SIZE, body(data.subarray(at - BLOCK_SIZE)));
    const done = await other.sessions.complete('s', data.length, tail);
    assert.equal(done.md5, md5(data));
    assert.ok((await bytesOf(c, done.key)).equals(data));
    assert.deepEqual(await keys('cut'), ['content/u-s']);
  });

  test('keep takes a refused request back, also after its bytes filled a part', async () => {
    const c = await store('keep');
    const data = seededBytes(6, 10 * MiB + 5);
    await c.sessions.append('k', 0, 0, body(data.subarray(0, MiB)));
    await c.sessions.keep('k', MiB);
    // A refused 9 MiB request: segment + its bytes made part 1, then the verdict takes it back.
    await c.sessions.append('k', MiB, MiB, body(seededBytes(99, 9 * MiB)));
    assert.equal(await c.sessions.stored('k'), 10 * MiB);
    await c.sessions.keep('k', MiB);
    assert.equal(await c.sessions.stored('k'), MiB);
    const { tail } = await c.sessions.append('k', MiB, MiB, body(data.subarray(MiB)));
    const done = await c.sessions.complete('k', data.length, tail);
    assert.equal(done.md5, md5(data));
    assert.ok((await bytesOf(c, done.key)).equals(data));
    assert.deepEqual(await keys('keep'), ['content/u-k']);
  });

  test('reopen takes a completed object back; completing again gives the same bytes', async () => {
    const c = await store('reopen');
    const data = seededBytes(7, 17 * MiB + 1000);
    const done = await upload([c.sessions], 'r', data, 9 * MiB);
    assert.equal(await c.sessions.reopen('r', done.key), true);
    assert.deepEqual(await keys('reopen').then((k) => k.filter((x) => x.startsWith('content/'))), []);
    const at = await c.sessions.stored('r');
    assert.equal(at, floorToBlock(data.length));
    const { tail } = await c.sessions.append('r', at, at, body(data.subarray(at)));
    const again = await c.sessions.complete('r', data.length, tail);
    assert.deepEqual(again, done);
    assert.ok((await bytesOf(c, again.key)).equals(data));
    assert.deepEqual(await keys('reopen'), ['content/u-r']);
    assert.equal(await c.sessions.reopen('missing', 'content/u-missing'), false);
  });

  test('recover: a completion no file took goes back to its session; one a file took loses its staging', async () => {
    const c = await store('recover', { orphanGraceMs: 0 });
    const data = seededBytes(8, 3 * MiB + 10);
    await upload([c.sessions], 'taken', data, 2 * MiB);
    await upload([c.sessions], 'lost', data, 2 * MiB);
    await c.sessions.append('gone', 0, 0, body(data.subarray(0, MiB)));
    const asked: string[] = [];
    await c.sessions.recover(['taken', 'lost'], (id, key) => {
      asked.push(`${id}:${key}`);
      return Promise.resolve(id === 'taken');
    });
    assert.deepEqual(asked.sort(), ['lost:content/u-lost', 'taken:content/u-taken']);
    assert.equal(await c.sessions.stored('lost'), floorToBlock(data.length));
    assert.equal(await c.sessions.stored('gone'), 0, 'staging of a session that is not open is removed');
    assert.ok(!(await keys('recover')).some((k) => k.startsWith('sessions/gone/')));
    assert.ok((await keys('recover')).includes('content/u-taken'));
  });
});

describe('clean-up', () => {
  test('remove deletes a cancelled session’s staging and aborts its multipart upload', async () => {
    const c = await store('cancel');
    await c.sessions.append('x', 0, 0, body(seededBytes(9, 9 * MiB)));
    assert.deepEqual(await uploads('cancel'), ['content/u-x']);
    await c.sessions.remove('x');
    await c.sessions.remove('never-began');
    assert.deepEqual(await keys('cancel'), []);
    assert.deepEqual(await uploads('cancel'), []);
  });

  test('collectGarbage sweeps expired staging and abandoned uploads, whichever node began them', async () => {
    const began = await store('sweep');
    await began.sessions.append('old', 0, 0, body(seededBytes(10, 9 * MiB)));
    await began.sessions.append('small', 0, 0, body(seededBytes(11, MiB)));
    const kept = await began.write(body(seededBytes(12, 1000)));
    await began.bucket.createUpload('blobs/b-abandoned');
    // Another node, whose TTL and grace have passed for all of it (time is not waited for: both are zero).
    const sweeper = await store('sweep', { stagingTtlMs: 0, orphanGraceMs: 0 });
    const removed = await sweeper.collectGarbage(new Set([kept.key]));
    assert.equal(removed, 3, 'two sessions’ staging (one with an upload, aborted with it) and one abandoned upload');
    assert.deepEqual(await keys('sweep'), [kept.key]);
    assert.deepEqual(await uploads('sweep'), []);
  });

  test('fresh staging and recent objects are left alone', async () => {
    const c = await store('fresh');
    await c.sessions.append('live', 0, 0, body(seededBytes(13, MiB)));
    await c.write(body(seededBytes(14, 10)));
    const before = await keys('fresh');
    assert.equal(await c.collectGarbage(new Set()), 0);
    assert.deepEqual(await keys('fresh'), before);
    assert.equal(await c.sessions.stored('live'), MiB);
  });
});

describe('start failures: one readable line', () => {
  const base = () => ({
    endpoint: rgw.endpoint,
    region: rgw.region,
    accessKeyId: rgw.accessKeyId,
    secretAccessKey: rgw.secretAccessKey,
  });
  const oneLine = async (s3: Parameters<typeof openContent>[0], pattern: RegExp) => {
    const e = await openContent(s3).then(
      () => assert.fail('opened'),
      (err: unknown) => err as Error,
    );
    assert.match(e.message, pattern);
    assert.ok(!e.message.includes('\n'), e.message);
  };

  test('no such bucket', () =>
    oneLine({ s3: { ...base(), bucket: 'no-such-bucket' } }, /^content: the bucket "no-such-bucket" does not exist/));

  test('refused credentials', () =>
    oneLine(
      { s3: { ...base(), bucket: rgw.bucket, secretAccessKey: 'wrong' } },
      /^content: the object store refused the credentials .*AWS_SECRET_ACCESS_KEY/,
    ));

  test('nothing listening at the endpoint', async () => {
    const endpoint = `http://127.0.0.1:${await freePort()}`;
    await oneLine(
      { s3: { ...base(), bucket: rgw.bucket, endpoint } },
      /^content: cannot reach the object store .*ECONNREFUSED/,
    );
  });

  test('s3:// URLs and the AWS variables', () => {
    assert.deepEqual(parseContentUrl('s3://my-bucket/a/b/', { AWS_ENDPOINT_URL: 'http://x:1', AWS_REGION: 'r' }), {
      bucket: 'my-bucket',
      prefix: 'a/b',
      endpoint: 'http://x:1',
      region: 'r',
    });
    assert.equal(
      parseContentUrl('s3://b-1', { AWS_ENDPOINT_URL_S3: 'http://s3', AWS_ENDPOINT_URL: 'http://x' }).endpoint,
      'http://s3',
    );
    assert.throws(() => parseContentUrl('file:///x'), /s3:\/\/BUCKET/);
    assert.throws(() => parseContentUrl('s3://Bad_Bucket'), /not a valid S3 bucket name/);
  });
});
