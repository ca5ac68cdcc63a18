// Uploads belong to the account that chose them (issue 28), in the site's shared worker as it runs them: several
// `UploadWorkerService`s over one `EngineHubs`, in Node against the real reference service. A page sees, hears and
// controls only its account's tasks; a task is sent only with tokens of its own account; a sign-out cancels, finishes
// or keeps the account's uploads; stored sessions carry their account and are listed to it alone.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, afterEach, before, test } from 'node:test';
import { startService, type ServiceHandle } from '../server/helpers/service.ts';
import { MemorySessionStore } from '../../src/uploader/adapters/memory-session-store.ts';
import type { TaskSnapshot } from '../../src/uploader/contract/types.ts';
import type { EngineHubs } from '../../src/uploader/worker/worker-service.ts';
import { attachedPage, sharedWorker } from './helpers/attached-page.ts';
import { addFault, clearFaults, md5, randomFile } from './helpers/engine-harness.ts';
import { driveOf, grantToken, revokeToken } from './helpers/accounts.ts';

const KiB = 1024;
const ALICE = 'dev-token-alice';
const BOB = 'dev-token-bob';

let service: ServiceHandle;
before(async () => {
  service = await startService();
});
afterEach(async () => {
  await clearFaults(service.url);
});
after(async () => {
  await service.stop();
});

/** The hubs of one "shared worker", over one session store (IndexedDB in a browser: one per site). */
/** A page attached to `hubs` whose token is `token()` (it may change, as at a sign-in), with its list as events build it. */
async function page(hubs: EngineHubs, token: () => string, options: { account?: string } = {}) {
  // One at a time, as the sites of the issue ran it: a file that has not started needs a token after the sign-out.
  const attached = await attachedPage(hubs, { baseUrl: service.url, concurrency: 1 }, token, {
    token: token(),
    ...options,
  });
  const add = async (file: ReturnType<typeof randomFile>) => {
    const snapshot = await attached.connection.add(randomUUID(), file.file, file, {}, token());
    attached.listed.set(snapshot.id, snapshot);
    return snapshot;
  };
  return { ...attached, heard: attached.events, add };
}

/** Slows every resumable PUT, so a task is still running when the test acts. */
async function slowly(times = 40): Promise<void> {
  await addFault(service.url, {
    match: { method: 'PUT', uploadType: 'resumable' },
    action: { type: 'delay', ms: 60 },
    times,
  });
}

test('two accounts at once in one worker: each page lists and hears only its own tasks, each file lands in its chooser’s drive', async () => {
  const { hubs } = sharedWorker();
  const alice = await page(hubs, () => ALICE);
  const bob = await page(hubs, () => BOB);
  await slowly();
  const a = randomFile(6 * 256 * KiB, `alice-${randomUUID()}.bin`);
  const b = randomFile(6 * 256 * KiB, `bob-${randomUUID()}.bin`);
  const [ta, tb] = await Promise.all([alice.add(a), bob.add(b)]);
  const [doneA, doneB] = await Promise.all([
    alice.when((e, s) => e === 'success' && s.id === ta.id),
    bob.when((e, s) => e === 'success' && s.id === tb.id),
  ]);
  assert.equal(doneA.file?.md5Checksum, md5(a.bytes));
  assert.equal(doneB.file?.md5Checksum, md5(b.bytes));
  // Neither page heard a single event of the other's task, nor lists it; `tasks()` is the account's too.
  assert.ok(alice.heard.every(([, s]) => s.id !== tb.id));
  assert.ok(bob.heard.every(([, s]) => s.id !== ta.id));
  assert.deepEqual(
    alice.connection.tasks().map((t) => t.name),
    [a.name],
  );
  assert.deepEqual(
    bob.connection.tasks().map((t) => t.name),
    [b.name],
  );
  // Commands by ID reach only the page's own account's tasks.
  await assert.rejects(bob.connection.pause(ta.id), /no upload task/);
  assert.ok((await driveOf(service.url, ALICE)).includes(a.name));
  assert.ok(!(await driveOf(service.url, ALICE)).includes(b.name));
  assert.ok((await driveOf(service.url, BOB)).includes(b.name));
  assert.ok(!(await driveOf(service.url, BOB)).includes(a.name));
});

test('sign-out and sign-in on one page: the first account’s tasks leave the list, and a refused token is never replaced by the next account’s', async () => {
  const { hubs } = sharedWorker();
  const aliceToken = `tok-${randomUUID()}`;
  await grantToken(service.url, aliceToken, 'alice@example.com');
  let current = aliceToken;
  const tab = await page(hubs, () => current);
  await slowly(200);
  const big = randomFile(24 * 256 * KiB, `alice-big-${randomUUID()}.bin`);
  const second = randomFile(3 * 256 * KiB, `alice-second-${randomUUID()}.bin`);
  const tBig = await tab.add(big);
  const tSecond = await tab.add(second);
  await tab.when((e, s) => e === 'progress' && s.id === tBig.id && s.bytesAcknowledged > 0);
  // Alice signs out (her token is revoked at the service) and Bob signs in on the same page.
  await revokeToken(service.url, aliceToken);
  current = BOB;
  await tab.connection.rebind(BOB);
  const switched = tab.heard.length;
  assert.equal(tab.listed.size, 0, 'Bob’s page lists none of Alice’s uploads');
  assert.deepEqual(tab.connection.tasks(), []);
  // Alice's tasks need a token now; Bob's page is attached and gives one readily, but it is not Alice's.
  const aliceHub = [...tab.heard].filter(([e]) => e === 'left').map(([, s]) => s.id);
  assert.deepEqual(aliceHub.sort(), [tBig.id, tSecond.id].sort());
  const bobFile = randomFile(2 * 256 * KiB, `bob-${randomUUID()}.bin`);
  const tBob = await tab.add(bobFile);
  await tab.when((e, s) => e === 'success' && s.id === tBob.id);
  assert.ok(tab.heard.slice(switched).every(([, s]) => s.id !== tBig.id && s.id !== tSecond.id));
  // Alice comes back (another page, her own token): her uploads end in her drive, never in Bob's.
  const aliceAgain = await page(hubs, () => ALICE);
  const [endBig, endSecond] = await Promise.all([ended(aliceAgain, tBig.id), ended(aliceAgain, tSecond.id)]);
  assert.equal(endBig.file?.md5Checksum, md5(big.bytes));
  assert.equal(endSecond.file?.md5Checksum, md5(second.bytes));
  const aliceDrive = await driveOf(service.url, ALICE);
  assert.ok(aliceDrive.includes(big.name) && aliceDrive.includes(second.name));
  const bobDrive = await driveOf(service.url, BOB);
  assert.ok(!bobDrive.includes(big.name) && !bobDrive.includes(second.name), 'nothing of Alice’s in Bob’s drive');
  assert.ok(bobDrive.includes(bobFile.name));
});

test('a token getter that gives another account’s token for a running task: the task waits with auth, and nothing is sent', async () => {
  const { hubs } = sharedWorker();
  const aliceToken = `tok-${randomUUID()}`;
  await grantToken(service.url, aliceToken, 'alice@example.com');
  let current = aliceToken;
  const tab = await page(hubs, () => current, { account: 'u-alice' });
  // A second page of the account that can no longer give a token (signed out there): it stays, and hears the wait.
  let signedOutThere = false;
  const observer = await page(
    hubs,
    () => {
      if (signedOutThere) throw new Error('signed out in this tab');
      return aliceToken;
    },
    { account: 'u-alice' },
  );
  await slowly(200);
  const first = randomFile(8 * 256 * KiB, `alice-first-${randomUUID()}.bin`);
  const file = randomFile(4 * 256 * KiB, `alice-${randomUUID()}.bin`);
  const running = await tab.add(first);
  const task = await tab.add(file);
  await tab.when((e, s) => e === 'progress' && s.id === running.id && s.bytesAcknowledged > 0);
  // The app still names Alice's account but its getter now gives Bob's token: the engine checks, and waits. (The
  // running session goes on: a session URI is a capability; the second file needs a token to start.)
  current = BOB;
  signedOutThere = true;
  await revokeToken(service.url, aliceToken);
  const paused = await observer.when((_e, s) => s.id === task.id && s.state === 'paused');
  assert.equal(paused.error?.code, 'auth');
  assert.match(paused.error?.message ?? '', /signed out in this tab/);
  assert.ok(!tab.listed.has(task.id), 'the page whose token is Bob’s no longer lists it');
  assert.ok(!(await driveOf(service.url, BOB)).includes(file.name));
  // A page of Alice's account with her new token goes on with it.
  const fresh = await page(hubs, () => ALICE, { account: 'u-alice' });
  const done = await ended(fresh, task.id);
  assert.equal(done.file?.md5Checksum, md5(file.bytes));
  assert.ok((await driveOf(service.url, ALICE)).includes(file.name));
  assert.ok(!(await driveOf(service.url, BOB)).includes(file.name));
});

test('sign-out with cancel: the account’s tasks are cancelled, its stored sessions deleted and their service sessions ended', async () => {
  const { hubs, store } = sharedWorker();
  const alice = await page(hubs, () => ALICE);
  const bob = await page(hubs, () => BOB);
  await slowly(400);
  const a = randomFile(24 * 256 * KiB, `alice-${randomUUID()}.bin`);
  const b = randomFile(24 * 256 * KiB, `bob-${randomUUID()}.bin`);
  const ta = await alice.add(a);
  const tb = await bob.add(b);
  await alice.when((e, s) => e === 'progress' && s.id === ta.id && s.bytesAcknowledged > 0);
  await bob.when((e, s) => e === 'progress' && s.id === tb.id && s.bytesAcknowledged > 0);
  const aliceSession = (await store.list()).find((r) => r.name === a.name)?.sessionUri;
  assert.ok(aliceSession, 'Alice’s session was stored');
  await alice.connection.signOut('cancel');
  assert.equal(alice.listed.size, 0);
  const left = await store.list();
  assert.ok(!left.some((r) => r.name === a.name), 'no record of Alice’s is left');
  assert.ok(
    left.some((r) => r.name === b.name),
    'Bob’s record is untouched',
  );
  const status = await fetch(aliceSession, { method: 'PUT', headers: { 'content-range': 'bytes */*' } });
  assert.equal(status.status, 404, 'Alice’s service session is gone');
  await bob.when((e, s) => e === 'success' && s.id === tb.id);
  assert.ok(!(await driveOf(service.url, ALICE)).includes(a.name));
});

test('stored sessions carry their account: another account’s page, and a record of no account, are never listed', async () => {
  const store = new MemorySessionStore();
  const first = sharedWorker(store);
  const alice = await page(first.hubs, () => ALICE);
  await slowly(400);
  const a = randomFile(24 * 256 * KiB, `alice-${randomUUID()}.bin`);
  const ta = await alice.add(a);
  await alice.when((e, s) => e === 'progress' && s.id === ta.id && s.bytesAcknowledged > 0);
  await alice.connection.pause(ta.id);
  await alice.when((_e, s) => s.id === ta.id && s.state === 'paused');
  alice.connection.detach();
  const [record] = await store.list();
  assert.match(record.principal ?? '', /^user:/);
  // A record from before accounts were kept: no principal.
  await store.put({ ...record, id: randomUUID(), name: 'legacy.bin', principal: undefined });
  // A "next page life" (a new worker over the same store).
  const next = sharedWorker(store);
  const bob = await page(next.hubs, () => BOB);
  assert.deepEqual(await bob.connection.interrupted(), []);
  const aliceAgain = await page(next.hubs, () => ALICE);
  const names = (await aliceAgain.connection.interrupted()).map((u) => u.name);
  assert.deepEqual(names, [a.name], 'Alice’s own interrupted upload, and not the record of no account');
});

/** The task's end as `p` sees it: listed ended already when it attached, or heard when it ends. */
function ended(p: Awaited<ReturnType<typeof page>>, id: string): Promise<TaskSnapshot> {
  const now = p.listed.get(id);
  if (now && ['done', 'failed', 'cancelled'].includes(now.state)) return Promise.resolve(now);
  return p.when((e, s) => s.id === id && (e === 'success' || e === 'error'));
}
