/**
 * The group commit (`server/store/commit-group.ts`) over a real SQLite database, on its paths a batch rarely takes:
 * `durable()` before and after the group commits, follow-up work that throws, the events' transaction failing, and a
 * COMMIT that fails (every waiting answer fails, nothing of the group is heard or done).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { FileEvents, type FileEvent } from '../../server/events.ts';
import { getMeta, setMeta } from '../../server/metadata/migrations.ts';
import { openSqliteFile } from '../../server/metadata/sqlite-metadata.ts';
import { withStorageFaults } from '../../server/storage-faults.ts';
import { CommitGroup } from '../../server/store/commit-group.ts';

const event = (fileId: string): FileEvent => ({
  type: 'update',
  fileId,
  changed: ['properties'],
  parentIds: [],
  byUser: 'alice@example.com',
  seq: 1,
});

/** Runs `fn` with `console.error` captured; returns what it logged (each call's arguments). */
async function capturingErrors(fn: () => Promise<void>): Promise<unknown[][]> {
  const logged: unknown[][] = [];
  const original = console.error;
  console.error = (...args: unknown[]) => void logged.push(args);
  try {
    await fn();
  } finally {
    console.error = original;
  }
  return logged;
}

/** Lets every pending microtask run (no macrotask: an open group closes itself on the next turn). */
async function microtasks(): Promise<void> {
  for (let i = 0; i < 20; i++) await Promise.resolve();
}

async function setUp() {
  const db = await openSqliteFile(':memory:');
  const events = new FileEvents();
  const heard: string[] = [];
  events.on((e) => void heard.push(e.fileId));
  return { db, events, heard, group: new CommitGroup(db, events) };
}

test('durable() resolves at once without a group, and only once the open group committed', async () => {
  const { db, group } = await setUp();
  try {
    assert.equal(group.isOpen, false);
    await group.durable();
    group.open();
    assert.equal(group.isOpen, true);
    await db.transaction(() => setMeta(db, 'in-group', 'yes'));
    let durable = false;
    const waited = group.durable().then(() => (durable = true));
    await microtasks();
    assert.equal(durable, false, 'not durable before the group commits');
    await group.close();
    await waited;
    assert.equal(durable, true);
    assert.equal(group.isOpen, false);
    assert.equal(group.failures, 0);
    assert.equal(await getMeta(db, 'in-group'), 'yes');
  } finally {
    await db.close();
  }
});

test('work after the commit runs in order; one that throws is logged and the next still runs', async () => {
  const { db, group } = await setUp();
  try {
    group.open();
    const done: string[] = [];
    const boom = new Error('removing released content failed');
    group.afterCommit(() => {
      done.push('first');
      throw boom;
    });
    group.afterCommit(() => void done.push('second'));
    assert.equal(done.length, 0, 'nothing runs while the group is open');
    const logged = await capturingErrors(() => group.close());
    assert.deepEqual(done, ['first', 'second']);
    assert.deepEqual(logged, [['store-service: work after a group commit failed:', boom]]);
    await group.durable();
    // Without an open group the work runs at once.
    group.afterCommit(() => void done.push('third'));
    assert.deepEqual(done, ['first', 'second', 'third']);
  } finally {
    await db.close();
  }
});

test("the group's events are fired once it committed; a failing events transaction is logged, the answers stand, later events flow", async () => {
  const { db, events, heard, group } = await setUp();
  try {
    group.open();
    await events.emit(event('held'));
    assert.deepEqual(heard, [], 'held while the group is open');
    await group.close();
    assert.deepEqual(heard, ['held']);

    group.open();
    await db.transaction(() => setMeta(db, 'committed', 'yes'));
    await events.emit(event('lost'));
    let after = false;
    group.afterCommit(() => (after = true));
    // The events' own transaction meets a full database; the group's COMMIT did not.
    const logged = await capturingErrors(() => withStorageFaults({ sqlite: 'SQLITE_FULL' }, () => group.close()));
    assert.equal(logged.length, 1, String(logged));
    assert.equal(logged[0][0], 'store-service: recording the events of a group commit failed:');
    assert.equal((logged[0][1] as { code?: string }).code, 'SQLITE_FULL');
    assert.deepEqual(heard, ['held']);
    assert.equal(after, true, 'the work after the commit still ran');
    await group.durable();
    assert.equal(group.failures, 0, 'the changes are committed: no answer fails');
    assert.equal(await getMeta(db, 'committed'), 'yes');
    // The emitter holds no more: a change outside any group is heard at once, as before the group opened.
    await events.emit(event('after'));
    assert.deepEqual(heard, ['held', 'after'], 'a single call is heard after a failed events transaction');
  } finally {
    await db.close();
  }
});

test('a COMMIT that fails: counted, logged, every waiter rejected, its events and work dropped', async () => {
  const { db, events, heard, group } = await setUp();
  try {
    group.open();
    await events.emit(event('never'));
    let after = false;
    group.afterCommit(() => (after = true));
    const waited = group.durable();
    // The group's transaction ends under it, so its COMMIT has nothing to commit and fails.
    await db.run('ROLLBACK');
    const logged = await capturingErrors(() => group.close());
    assert.equal(group.failures, 1);
    const error = await waited.then(
      () => assert.fail('durable() resolved for a group that did not commit'),
      (e: unknown) => e,
    );
    assert.match(String(error), /no transaction is active/);
    assert.deepEqual(logged, [['store-service: a group commit failed; its calls are answered 500:', error]]);
    assert.deepEqual(heard, [], 'the events of a group that did not commit are never heard');
    assert.equal(after, false, 'the work after it never runs');
    assert.equal(db.group?.busy, false);

    // The next group commits normally, and the count stays where it is.
    group.open();
    await db.transaction(() => setMeta(db, 'next', 'yes'));
    await events.emit(event('next'));
    await group.close();
    await group.durable();
    assert.equal(group.failures, 1);
    assert.deepEqual(heard, ['next']);
    assert.equal(await getMeta(db, 'next'), 'yes');
  } finally {
    await db.close();
  }
});
