/**
 * A batch's inner calls share one group commit (`server/store/commit-group.ts`). These tests hold it to what separate
 * commits promised: an answered change survives `kill -9` of the service the moment the answer arrives, a failing
 * inner call takes only its own change with it, and push bookkeeping hears of every change.
 */
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { after, before, describe, it } from 'node:test';
import {
  encodeBatchRequest,
  parseBatchResponse,
  type BatchRequestInit,
  type ParsedBatchResponse,
} from '../../src/protocol/batch-codec.ts';
import { multipartBoundary } from '../../src/protocol/multipart.ts';
import { startService, type ServiceHandle } from './helpers/service.ts';

const ALICE = 'dev-token-alice';
const BOB = 'dev-token-bob';

let svc: ServiceHandle;
before(async () => {
  svc = await startService();
});
after(() => svc.stop());

async function newFile(name: string, token = ALICE): Promise<string> {
  const r = await svc.api('POST', '/store/v3/files?fields=id', { token, body: { name } });
  assert.equal(r.status, 200, r.text);
  return r.json().id as string;
}

function permissionCall(fileId: string, body: unknown, contentId: string): BatchRequestInit {
  return {
    method: 'POST',
    path: `/store/v3/files/${fileId}/permissions?fields=id,emailAddress,role`,
    headers: { 'Content-Type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
    contentId,
  };
}

const grant = (email: string, role = 'reader') => ({ type: 'user', role, emailAddress: email });

/**
 * Sends a batch and sends `SIGKILL` to the service the moment the response's status line and headers arrive, before
 * its body is read; then returns the parsed parts (the answer was written whole, so its bytes are already here).
 */
function batchThenKill(
  calls: BatchRequestInit[],
): Promise<{ status: number; parts: ParsedBatchResponse[]; killed: Promise<void> }> {
  const enc = encodeBatchRequest(calls);
  return new Promise((resolve, reject) => {
    const req = request(
      `${svc.url}/batch/store/v3`,
      { method: 'POST', headers: { Authorization: `Bearer ${ALICE}`, 'Content-Type': enc.contentType } },
      (res) => {
        // `kill` sends the signal before its first await: nothing more runs in the service after this line.
        const killed = svc.kill('SIGKILL');
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('error', reject);
        res.on('end', () => {
          const boundary = multipartBoundary(res.headers['content-type'], 'mixed');
          resolve({ status: res.statusCode ?? 0, parts: parseBatchResponse(Buffer.concat(chunks), boundary), killed });
        });
      },
    );
    req.on('error', reject);
    req.end(enc.body);
  });
}

async function grantees(fileId: string, token = ALICE): Promise<Map<string, string>> {
  const r = await svc.api('GET', `/store/v3/files/${fileId}/permissions`, { token });
  assert.equal(r.status, 200, r.text);
  return new Map(
    (r.json().permissions as { emailAddress: string; role: string }[]).map((p) => [p.emailAddress, p.role]),
  );
}

const json = (part: ParsedBatchResponse) => JSON.parse(Buffer.from(part.body).toString('utf8'));

describe('a batch answered 200 survives kill -9', () => {
  it('100 permission creates: every one answered 200 exists after the restart', async () => {
    const fileId = await newFile('durable-batch');
    const calls = Array.from({ length: 100 }, (_, i) =>
      permissionCall(fileId, grant(`kill${i}@example.com`, i % 2 ? 'writer' : 'reader'), `k${i}`),
    );
    const { status, parts, killed } = await batchThenKill(calls);
    await killed;
    assert.equal(status, 200);
    assert.equal(parts.length, 100);
    await svc.restart();
    const stored = await grantees(fileId);
    parts.forEach((part, i) => {
      assert.equal(part.status, 200, `part ${i}`);
      const answered = json(part) as { emailAddress: string; role: string };
      assert.equal(
        stored.get(answered.emailAddress),
        answered.role,
        `permission ${answered.emailAddress} answered 200 is stored`,
      );
    });
    assert.equal(stored.size, 101, 'the owner and the 100 grants');
  });

  it('an inner call that waits for real I/O (a delay fault) still commits before the batch answers', async () => {
    const fileId = await newFile('durable-batch-delayed');
    const fault = await svc.api('POST', '/__admin/faults', {
      token: null,
      body: {
        match: { method: 'POST', pathPrefix: `/store/v3/files/${fileId}/permissions` },
        action: { type: 'delay', ms: 50 },
        skip: 5,
      },
    });
    assert.equal(fault.status, 200, fault.text);
    const calls = Array.from({ length: 10 }, (_, i) => permissionCall(fileId, grant(`late${i}@example.com`), `d${i}`));
    const { parts, killed } = await batchThenKill(calls);
    await killed;
    await svc.restart();
    const stored = await grantees(fileId);
    assert.deepEqual(
      parts.map((p) => p.status),
      calls.map(() => 200),
    );
    for (let i = 0; i < 10; i++) assert.equal(stored.get(`late${i}@example.com`), 'reader', `late${i}`);
  });
});

describe('one failing inner call fails alone', () => {
  it('a batch mixing good and bad calls commits exactly the good ones, answers in request order', async () => {
    const mine = await newFile('mixed-mine');
    const bobs = await newFile('mixed-bobs', BOB);
    const share = await svc.api('POST', `/store/v3/files/${bobs}/permissions`, {
      token: BOB,
      body: grant('alice@example.com', 'reader'),
    });
    assert.equal(share.status, 200, share.text);
    const before = await grantees(bobs, BOB);

    const calls = [
      permissionCall(mine, grant('good0@example.com'), 'c0'),
      permissionCall('no-such-file', grant('lost@example.com'), 'c1'), // 404: no such file
      permissionCall(mine, grant('good1@example.com', 'writer'), 'c2'),
      permissionCall(bobs, grant('sneaky@example.com'), 'c3'), // 403: alice only reads bob's file
      permissionCall(mine, { type: 'user', emailAddress: 'norole@example.com' }, 'c4'), // 400: no role
      permissionCall(mine, '{"type":"user",', 'c5'), // 400: not JSON
      permissionCall(mine, grant('alice@example.com', 'reader'), 'c6'), // 403: the owner's own permission
      permissionCall(mine, grant('good2@example.com'), 'c7'),
      permissionCall('no-such-file', '{"type":', 'c8'), // 404 outranks the bad body
      permissionCall(bobs, { type: 'user' }, 'c9'), // 403 outranks the bad body
    ];
    const enc = encodeBatchRequest(calls);
    const r = await svc.api('POST', '/batch/store/v3', {
      headers: { 'Content-Type': enc.contentType },
      body: enc.body,
    });
    assert.equal(r.status, 200, r.text);
    const parts = parseBatchResponse(r.body, multipartBoundary(r.headers['content-type'] as string, 'mixed'));
    assert.deepEqual(
      parts.map((p) => [p.contentId, p.status]),
      [
        ['<response-c0>', 200],
        ['<response-c1>', 404],
        ['<response-c2>', 200],
        ['<response-c3>', 403],
        ['<response-c4>', 400],
        ['<response-c5>', 400],
        ['<response-c6>', 403],
        ['<response-c7>', 200],
        ['<response-c8>', 404],
        ['<response-c9>', 403],
      ],
    );
    assert.deepEqual([...(await grantees(mine)).entries()].sort(), [
      ['alice@example.com', 'owner'],
      ['good0@example.com', 'reader'],
      ['good1@example.com', 'writer'],
      ['good2@example.com', 'reader'],
    ]);
    assert.deepEqual(await grantees(bobs, BOB), before, "bob's file is untouched");
  });

  it("every change reaches push bookkeeping: each grantee's change log lists the files shared in one batch", async () => {
    const token = await svc.api('GET', '/store/v3/changes/startPageToken', { token: BOB });
    assert.equal(token.status, 200, token.text);
    const files = [await newFile('log-a'), await newFile('log-b'), await newFile('log-c')];
    const calls = files.map((id, i) => permissionCall(id, grant('bob@example.com'), `l${i}`));
    calls.splice(1, 0, permissionCall('no-such-file', grant('bob@example.com'), 'bad'));
    const enc = encodeBatchRequest(calls);
    const r = await svc.api('POST', '/batch/store/v3', {
      headers: { 'Content-Type': enc.contentType },
      body: enc.body,
    });
    assert.equal(r.status, 200, r.text);
    const changes = await svc.api('GET', `/store/v3/changes?pageToken=${token.json().startPageToken}`, { token: BOB });
    assert.equal(changes.status, 200, changes.text);
    const seen = (changes.json().changes as { fileId: string; removed: boolean }[])
      .filter((c) => !c.removed)
      .map((c) => c.fileId);
    assert.deepEqual([...seen].sort(), [...files].sort());
  });
});
