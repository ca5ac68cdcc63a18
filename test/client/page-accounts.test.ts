// The page uploader across accounts and visits, in Node against the real service: `signOut` and `accountChanged`
// (directly, or through the app's client) leave the list the next account's when they resolve; a later visit lists
// the sessions the first one left and `resumeAllInterrupted` finishes what it can, sorting the rest.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { driveOf } from './helpers/accounts.ts';
import { addFault, clearFaults, download, TOKEN } from './helpers/engine-harness.ts';
import { pageSuite, seededFile } from './helpers/page-uploader.ts';
import { MemorySessionStore } from '../../src/uploader/adapters/memory-session-store.ts';
import { createStoreClient } from '../../src/client/index.ts';
import { UploadError } from '../../src/uploader/contract/upload-error.ts';

const KiB = 1024;
const BOB = 'dev-token-bob';

const suite = pageSuite();
const { page } = suite;

const slowPuts = (ms: number) =>
  addFault(suite.service.url, {
    match: { method: 'PUT', uploadType: 'resumable' },
    action: { type: 'delay', ms },
    times: 400,
  });
const idsOf = (snapshot: { tasks: { id: string }[] }): string[] => snapshot.tasks.map((t) => t.id);
const codeOf = (e: unknown) => (e instanceof UploadError ? e.code : String(e));

test('signOut: when it resolves the list is empty and a change has said so; the running upload is cancelled', async () => {
  // Task events come a macrotask after they are made, as from a worker: the list must not wait for them.
  const p = page({}, undefined, 'dedicated', true);
  const ended = p.uploader.add(seededFile(100, 21));
  await ended.done;
  await slowPuts(200);
  const running = p.uploader.add(seededFile(8 * 256 * KiB, 22));
  await p.when('progress', (s) => s.id === running.id && s.bytesAcknowledged > 0);
  const changes = p.of('change').length;
  let code: string | undefined;
  running.done.catch((e: unknown) => (code = codeOf(e)));
  const release = p.service.holdEvents(); // the list must not wait for the tasks' events
  await p.uploader.signOut();
  await new Promise(setImmediate);
  assert.equal(code, 'auth', 'its done rejected when it left the list');
  assert.deepEqual(idsOf(p.uploader.snapshot), []);
  assert.ok(p.of('change').length > changes);
  assert.deepEqual(p.of('change').at(-1)!.tasks, [], 'the change is fired before signOut resolves, not a frame later');
  release();
  assert.equal(p.uploader.task(running.id), undefined);
  // The uploader goes on for whoever signs in next.
  const next = p.uploader.add(seededFile(100, 23));
  assert.equal((await next.done).name, (next as unknown as { snapshot: { name: string } }).snapshot.name);
  assert.deepEqual(
    p.uploader.snapshot.tasks.map((t) => t.id),
    [next.id],
  );
});

test('accountChanged: the previous account’s tasks leave the list when it resolves (their done rejects auth); the next files are the new account’s', async () => {
  const signedIn = { token: TOKEN };
  const p = page({ getAccessToken: () => signedIn.token }, undefined, 'dedicated', true);
  await slowPuts(150);
  const alices = p.uploader.add(seededFile(6 * 256 * KiB, 24, 'alice-file.bin'));
  await p.when('progress', (s) => s.id === alices.id && s.bytesAcknowledged > 0);
  signedIn.token = BOB;
  const changes = p.of('change').length;
  let code: string | undefined;
  alices.done.catch((e: unknown) => (code = codeOf(e)));
  const release = p.service.holdEvents(); // nothing but the call itself may take Alice's task off the list
  await p.uploader.accountChanged();
  await new Promise(setImmediate);
  assert.equal(code, 'auth', 'its done rejected when it left the list');
  release();
  assert.deepEqual(idsOf(p.uploader.snapshot), []);
  assert.ok(p.of('change').length > changes);
  assert.deepEqual(p.of('change').at(-1)!.tasks, [], 'the change is fired before accountChanged resolves');
  await assert.rejects(alices.done, (e: unknown) => codeOf(e) === 'auth');
  await clearFaults(suite.service.url);
  const bobs = p.uploader.add(seededFile(2000, 25, 'bob-file.bin'));
  const stored = await bobs.done;
  await assert.rejects(download(suite.service.url, stored.id), /404/, 'not stored as Alice’s');
  assert.ok((await driveOf(suite.service.url, BOB)).includes('bob-file.bin'));
  // Alice's upload went on under her account, off this page's list.
  assert.deepEqual(
    p.of('success').map((s) => s.name),
    ['bob-file.bin'],
  );
  // The same account again: nothing leaves.
  await p.uploader.accountChanged();
  assert.deepEqual(
    p.uploader.snapshot.tasks.map((t) => t.id),
    [bobs.id],
  );
});

test('an uploader made with the app’s client moves with client.accountChanged(), until it is destroyed', async () => {
  const signedIn = { token: TOKEN };
  let asked = 0;
  const client = createStoreClient({
    baseUrl: suite.service.url,
    getAccessToken: () => {
      asked++;
      return signedIn.token;
    },
  });
  const p = page({ client });
  const alices = p.uploader.add(seededFile(300, 26, 'client-alice.bin'));
  await alices.done;
  signedIn.token = BOB;
  await client.accountChanged();
  assert.deepEqual(idsOf(p.uploader.snapshot), [], 'the ended task of Alice’s left too');
  const bobs = p.uploader.add(seededFile(300, 27, 'client-bob.bin'));
  await bobs.done;
  assert.ok((await driveOf(suite.service.url, BOB)).includes('client-bob.bin'));
  p.uploader.destroy();
  signedIn.token = TOKEN;
  const before = asked;
  await client.accountChanged(); // unbound: the destroyed uploader is not moved, nor asks for the token
  assert.equal(asked, before, 'the destroyed uploader asked for a token');
  assert.deepEqual(
    p.uploader.snapshot.tasks.map((t) => t.id),
    [bobs.id],
  );
});

test('a later visit lists the sessions left and resumeAllInterrupted resumes the kept one, sorting the other to choose again', async () => {
  const store = new MemorySessionStore();
  // A file up to 1 MiB is kept with its session; the larger one is not.
  const persist = { blobQuotaBytes: 1024 * KiB };
  const first = page({ persist, concurrency: 2 }, store);
  await slowPuts(200);
  const kept = seededFile(4 * 256 * KiB, 28, 'kept.bin');
  const large = seededFile(6 * 256 * KiB, 29, 'large.bin');
  const tasks = [first.uploader.add(kept), first.uploader.add(large)];
  for (const task of tasks) await first.ever('progress', (s) => s.id === task.id && s.bytesAcknowledged > 0);
  // A dedicated engine stops and keeps each session for the next visit (the page hears nothing more of them).
  first.uploader.destroy();
  await first.ended();
  await clearFaults(suite.service.url);

  const next = page({ persist }, store);
  const found = await next.ever('interrupted-found');
  assert.deepEqual(found.map((u) => [u.name, u.canResumeWithoutFile]).sort(), [
    ['kept.bin', true],
    ['large.bin', false],
  ]);
  const result = await next.uploader.resumeAllInterrupted();
  assert.deepEqual(
    result.needFile.map((u) => u.name),
    ['large.bin'],
  );
  assert.deepEqual(result.changed, []);
  assert.equal(result.resumed.length, 1);
  const resumed = await result.resumed[0]!.done;
  assert.deepEqual(await download(suite.service.url, resumed.id), Buffer.from(await kept.arrayBuffer()));

  // The large one: another file is refused as file-changed, the same file chosen again finishes it.
  const largeId = result.needFile[0]!.id;
  await assert.rejects(
    next.uploader.resumeInterrupted(largeId, seededFile(6 * 256 * KiB, 30, 'large.bin')),
    (e) => codeOf(e) === 'file-changed',
  );
  const again = await next.uploader.resumeInterrupted(largeId, large);
  const stored = await again.done;
  assert.deepEqual(await download(suite.service.url, stored.id), Buffer.from(await large.arrayBuffer()));
  assert.deepEqual(await next.uploader.interrupted(), []);
  await assert.rejects(next.uploader.resumeInterrupted(largeId), (e) => codeOf(e) === 'not-found');
});

test('discardInterrupted forgets a session left by an earlier visit', async () => {
  const store = new MemorySessionStore();
  const first = page({}, store);
  await slowPuts(200);
  const task = first.uploader.add(seededFile(4 * 256 * KiB, 31, 'left.bin'));
  await first.when('progress', (s) => s.id === task.id && s.bytesAcknowledged > 0);
  first.uploader.destroy();
  await first.ended();
  const next = page({}, store);
  const [left] = await next.uploader.interrupted();
  assert.equal(left?.name, 'left.bin');
  await next.uploader.discardInterrupted(left!.id);
  assert.deepEqual(await next.uploader.interrupted(), []);
  assert.deepEqual(await next.uploader.resumeAllInterrupted(), { resumed: [], changed: [], needFile: [] });
});
