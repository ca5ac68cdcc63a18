// The typed service client against the real reference service: calls, fields, errors, 401 refresh, batch.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startService, type ServiceHandle } from '../server/helpers/service.ts';
import { calls, createStoreClient, createUploadClient, StoreError, type StoreClient } from '../../src/client/index.ts';
import { addFault, clearFaults } from './helpers/engine-harness.ts';
import { encodeMultipartRelated } from '../../src/protocol/index.ts';

let service: ServiceHandle;
let client: StoreClient;
before(async () => {
  service = await startService();
  client = createStoreClient({
    baseUrl: service.url,
    getAccessToken: () => 'dev-token-alice',
    backoff: { baseMs: 10, capMs: 50 },
  });
});
after(async () => {
  await service.stop();
});

/** `fetch` that counts the requests it sends (still the real fetch). */
function countingFetch() {
  const seen: string[] = [];
  const wrapped: typeof fetch = (input, init) => {
    // eslint-disable-next-line @typescript-eslint/no-base-to-string -- a fetch input is a string, a URL or a Request; each prints its address.
    seen.push(`${init?.method ?? 'GET'} ${String(input)}`);
    return fetch(input, init);
  };
  return { seen, fetch: wrapped };
}

describe('files', () => {
  test('create, get with fields, list by name, update, delete', async () => {
    const name = `doc-${Date.now()}.txt`;
    const created = await client.files.create({ name, mimeType: 'text/plain' }, { fields: ['id', 'name', 'mimeType'] });
    assert.deepEqual(Object.keys(created).sort(), ['id', 'mimeType', 'name']);
    assert.equal(created.name, name);

    const got = await client.files.get(created.id, { fields: ['id', { owners: ['emailAddress'] }] });
    assert.deepEqual(got, { id: created.id, owners: [{ emailAddress: 'alice@example.com' }] });

    const list = await client.files.list({ q: `name = '${name}'`, fields: [{ files: ['id', 'name'] }] });
    assert.deepEqual(list, { files: [{ id: created.id, name }] });

    const renamed = await client.files.update(created.id, { name: `${name}.bak` }, { fields: 'name,version' });
    assert.equal(renamed.name, `${name}.bak`);

    // eslint-disable-next-line @typescript-eslint/no-confusing-void-expression -- asserts that the call resolves with nothing.
    assert.equal(await client.files.delete(created.id), undefined);
    await assert.rejects(client.files.get(created.id), (error: StoreError) => {
      assert.equal(error.status, 404);
      assert.equal(error.reason, 'notFound');
      assert.equal(error.message, `File not found: ${created.id}.`);
      return true;
    });
  });

  test('a bad fields selection is a 400 invalidParameter saying what was wrong', async () => {
    await assert.rejects(client.files.list({ fields: 'files(id' }), (error: StoreError) => {
      assert.equal(error.status, 400);
      assert.equal(error.reason, 'invalidParameter');
      assert.match(error.message, /^Invalid field selection files\(id/);
      return true;
    });
  });

  test('a typed selection naming no field of the resource gets the same 400 from the service', async () => {
    await assert.rejects(client.files.get('anything', { fields: ['id', 'no such field'] }), (error: StoreError) => {
      assert.equal(error.status, 400);
      assert.equal(error.reason, 'invalidParameter');
      assert.match(error.message, /^Invalid field selection id,no such field/);
      return true;
    });
  });

  test('generateIds and about', async () => {
    const ids = await client.generateIds(5);
    assert.equal(ids.length, 5);
    assert.equal(new Set(ids).size, 5);
    const about = await client.about({ fields: ['importFormats'] });
    assert.deepEqual(Object.keys(about), ['importFormats']);
    assert.ok(about.importFormats?.['text/csv']?.includes('application/vnd.svc-apps.spreadsheet'));
  });
});

describe('auth', () => {
  test('a 401 asks getAccessToken once more and retries', async () => {
    const tokens = ['stale-token', 'dev-token-alice'];
    let asked = 0;
    const c = createStoreClient({ baseUrl: service.url, getAccessToken: () => tokens[asked++] });
    const ids = await c.generateIds(1);
    assert.equal(ids.length, 1);
    assert.equal(asked, 2);
  });

  test('a second 401 is an error with the service reason', async () => {
    const c = createStoreClient({ baseUrl: service.url, getAccessToken: () => 'nope' });
    await assert.rejects(c.about(), (error: StoreError) => {
      assert.equal(error.status, 401);
      assert.equal(error.reason, 'authError');
      assert.equal(error.message, 'Invalid Credentials');
      return true;
    });
  });
});

describe("the upload worker's client (createUploadClient)", () => {
  test('creates a file, reads it back, generates IDs, and refreshes the token once after a 401', async () => {
    const tokens = ['stale-token', 'dev-token-alice'];
    let asked = 0;
    const c = createUploadClient({ baseUrl: service.url, getAccessToken: () => tokens[asked++] });
    const [id] = await c.generateIds(1);
    assert.equal(asked, 2);
    const created = await c.files.create(
      { id: id, name: 'folder', mimeType: 'application/vnd.svc-apps.folder' },
      { fields: 'id,name' },
    );
    assert.deepEqual(created, { id, name: 'folder' });
    assert.equal((await c.files.get(id, { fields: 'id' })).id, id);
    // The same file seen through the whole client: the two share the service, not state.
    assert.equal((await client.files.get(id, { fields: 'name' })).name, 'folder');
    await assert.rejects(c.files.get('missing-id'), (error: StoreError) => error.status === 404);
  });

  test('a token the service keeps refusing is asked for once: the refresh answered 401 is not taken as working', async () => {
    let asked = 0;
    const c = createUploadClient({ baseUrl: service.url, getAccessToken: () => `revoked-${++asked}` });
    await assert.rejects(c.files.get('any-id'), (error: StoreError) => error.status === 401);
    assert.equal(asked, 2, 'the first token, then one refresh after its 401');
    // The next call's 401 answers the unproven refresh: no third ask (an app whose tokens never work is not looped).
    await assert.rejects(c.files.get('any-id'), (error: StoreError) => error.status === 401);
    assert.equal(asked, 2);
  });
});

describe('batch', () => {
  test('150 calls go in two requests of ≤ 100 and map back in order', async () => {
    const files = await Promise.all(
      [1, 2, 3].map((i) => client.files.create({ name: `batch-${i}-${Date.now()}` }, { fields: ['id'] })),
    );
    const counting = countingFetch();
    const c = createStoreClient({
      baseUrl: service.url,
      getAccessToken: () => 'dev-token-alice',
      fetch: counting.fetch,
    });
    const list = Array.from({ length: 150 }, (_, i) =>
      i === 77 ? calls.getFile('missing-id') : calls.getFile(files[i % 3].id, { fields: ['id'] }),
    );
    const outcomes = await c.batch(list);
    assert.equal(counting.seen.filter((line) => line.includes('/batch/store/v3')).length, 2);
    assert.equal(outcomes.length, 150);
    outcomes.forEach((outcome, i) => {
      if (i === 77) {
        assert.equal(outcome.ok, false);
        assert.equal(outcome.status, 404);
        if (!outcome.ok) assert.equal(outcome.error.message, 'File not found: missing-id.');
      } else {
        assert.deepEqual(outcome, { ok: true, status: 200, value: { id: files[i % 3].id } });
      }
    });
  });

  test('inner calls that fail with 503 or a rate limit are retried', async () => {
    const file = await client.files.create({ name: `share-${Date.now()}` }, { fields: ['id'] });
    await clearFaults(service.url);
    await addFault(service.url, {
      match: { method: 'POST', pathPrefix: `/store/v3/files/${file.id}/permissions` },
      action: { type: 'status', status: 503 },
      times: 2,
    });
    await addFault(service.url, {
      match: { method: 'GET', pathPrefix: '/store/v3/about' },
      action: { type: 'status', status: 403 },
      times: 1,
    });
    const [perm, about] = await client.batch([
      calls.createPermission(
        file.id,
        { type: 'user', role: 'reader', emailAddress: 'bob@example.com' },
        { sendNotificationEmail: false, fields: ['id', 'role'] },
      ),
      calls.about({ fields: ['kind'] }),
    ] as const);
    assert.equal(perm.ok, true);
    if (perm.ok) assert.equal(perm.value.role, 'reader');
    assert.deepEqual(about, { ok: true, status: 200, value: { kind: 'store#about' } });
    // Bob can see it now: the permission really exists.
    const bob = createStoreClient({ baseUrl: service.url, getAccessToken: () => 'dev-token-bob' });
    assert.equal((await bob.files.get(file.id, { fields: ['id'] })).id, file.id);
  });
});

test('an inner call that keeps failing with 503 is sent batchRetries + 1 times, then answered with its 503', async () => {
  await clearFaults(service.url);
  await addFault(service.url, {
    match: { method: 'GET', pathPrefix: '/store/v3/about' },
    action: { type: 'status', status: 503 },
    times: 100,
  });
  const counting = countingFetch();
  const c = createStoreClient({
    baseUrl: service.url,
    getAccessToken: () => 'dev-token-alice',
    fetch: counting.fetch,
    backoff: { baseMs: 1, capMs: 5 },
    batchRetries: 2,
  });
  const [about] = await c.batch([calls.about({ fields: ['kind'] })] as const);
  await clearFaults(service.url);
  assert.equal(about.ok ? 200 : about.status, 503);
  assert.equal(counting.seen.filter((line) => line.includes('/batch/store/v3')).length, 3);
});

describe('getting files back', () => {
  /** Uploads `media` with `metadata` as a multipart create (the service's own path, as any client would). */
  async function upload(metadata: object, media: Uint8Array | string, mediaType: string): Promise<{ id: string }> {
    const encoded = encodeMultipartRelated(metadata, media, mediaType);
    const body = Buffer.concat(encoded.body.map((piece) => Buffer.from(piece)));
    const r = await service.api('POST', '/upload/store/v3/files?uploadType=multipart', {
      body,
      headers: { 'content-type': encoded.contentType },
    });
    assert.equal(r.status, 200, r.text);
    return r.json();
  }

  test('download gives back the stored bytes as a Blob of the stored type, reporting progress to the total', async () => {
    const bytes = new Uint8Array(300_000).map((_, i) => (i * 7) % 251);
    const { id } = await upload({ name: 'bytes.bin' }, bytes, 'application/x-test');
    const progress: { loaded: number; total?: number }[] = [];
    const blob = await client.files.download(id, { onProgress: (p) => progress.push(p) });
    assert.equal(blob.type, 'application/x-test');
    assert.deepEqual(new Uint8Array(await blob.arrayBuffer()), bytes);
    assert.ok(progress.length >= 2);
    assert.deepEqual(progress.at(-1), { loaded: bytes.length, total: bytes.length });
    assert.ok(progress.every((p, i) => i === 0 || p.loaded >= progress[i - 1].loaded));
  });

  test('an empty file downloads as an empty Blob of its type, its progress told once: 0 of 0', async () => {
    const { id } = await upload({ name: 'empty.bin' }, new Uint8Array(0), 'application/x-empty');
    const progress: { loaded: number; total?: number }[] = [];
    const blob = await client.files.download(id, { onProgress: (p) => progress.push(p) });
    assert.equal(blob.size, 0);
    assert.equal(blob.type, 'application/x-empty');
    assert.deepEqual(progress, [{ loaded: 0, total: 0 }]);
  });

  test('a CSV converted to a spreadsheet exports back as CSV with the same cells', async () => {
    const csv = 'name,count\r\napples,3\r\n"pears, green",12\r\n';
    const { id } = await upload({ name: 'fruit', mimeType: 'application/vnd.svc-apps.spreadsheet' }, csv, 'text/csv');
    const about = await client.about({ fields: ['exportFormats'] });
    assert.ok(about.exportFormats?.['application/vnd.svc-apps.spreadsheet']?.includes('text/csv'));
    const exported = await client.files.export(id, 'text/csv');
    assert.match(exported.type, /^text\/csv/);
    const rows = (await exported.text()).trim().split(/\r?\n/);
    assert.deepEqual(rows, ['name,count', 'apples,3', '"pears, green",12']);
  });

  test('download of a native file is refused (403 fileNotDownloadable), of a missing one 404', async () => {
    const { id } = await upload(
      { name: 'sheet', mimeType: 'application/vnd.svc-apps.spreadsheet' },
      'a,b\n1,2\n',
      'text/csv',
    );
    await assert.rejects(
      client.files.download(id),
      (error: StoreError) => error.status === 403 && error.reason === 'fileNotDownloadable',
    );
    await assert.rejects(client.files.download('no-such-file'), (error: StoreError) => error.status === 404);
    await assert.rejects(client.files.export(id, 'application/x-nope'), (error: StoreError) => error.status === 400);
  });
});
