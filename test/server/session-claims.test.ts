/**
 * The lock of a resumable session (`server/store/sessions.ts`, `UploadSessionRows.withLock`) as another node's claim
 * reaches it: a signal on the database's `session_claims` topic ("<arrival> <session id>") ends an older holder at
 * once, is remembered only for sessions this node has requests for (none once its requests have ended), and a session
 * that completed while a newer request waited lets that request run (an older one that reaches it then ends no one).
 * Requests on one session run one at a time, in the order they reached it; a session idle for exactly its time to
 * live is still open, one idle longer is not.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createClock } from '../../server/clock.ts';
import { openSqliteFile } from '../../server/metadata/sqlite-metadata.ts';
import { type LockClaim, UploadSessionRows } from '../../server/store/sessions.ts';

function claim(arrival: number): LockClaim & { ended: boolean } {
  const c = {
    arrival,
    ended: false,
    end() {
      c.ended = true;
    },
  };
  return c;
}

function gate(): { opened: Promise<void>; open: () => void } {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

async function setUp() {
  const db = await openSqliteFile(':memory:');
  const rows = new UploadSessionRows(db, createClock(), 60_000, async () => undefined);
  return { db, rows };
}

test("another node's newer claim ends the request that holds the session here", async () => {
  const { db, rows } = await setUp();
  try {
    const holder = claim(10);
    const started = gate();
    const release = gate();
    const held = rows.withLock('session-a', holder, async () => {
      started.open();
      await release.opened;
      return 'written';
    });
    await started.opened;
    assert.equal(holder.ended, false);
    // An older claim changes nothing.
    await db.notify('session_claims', '9 session-a');
    assert.equal(holder.ended, false);
    // A claim for another session changes nothing either.
    await db.notify('session_claims', '20 session-b');
    assert.equal(holder.ended, false);
    await db.notify('session_claims', '20 session-a');
    assert.equal(holder.ended, true, 'the holder was told to end');
    release.open();
    assert.equal(await held, 'written');

    // A request here older than the claim heard is ended before it writes.
    const late = claim(15);
    let ran = false;
    await assert.rejects(
      rows.withLock('session-a', late, async () => {
        ran = true;
      }),
      { name: 'SupersededError', message: 'a newer request for upload session session-a arrived' },
    );
    assert.equal(ran, false);
    assert.equal(late.ended, true);
  } finally {
    await db.close();
  }
});

test('a claim for a session this node has no request for is not remembered', async () => {
  const { db, rows } = await setUp();
  try {
    await db.notify('session_claims', '50 session-c');
    const mine = claim(30);
    assert.equal(await rows.withLock('session-c', mine, async () => 'ran'), 'ran');
    assert.equal(mine.ended, false);
  } finally {
    await db.close();
  }
});

test('a newer request that waited while the session completed runs once the lock is free', async () => {
  const { db, rows } = await setUp();
  try {
    const release = gate();
    const started = gate();
    const first = rows.withLock('session-d', undefined, async () => {
      started.open();
      await release.opened;
      await rows.complete('session-d', { id: 'file-1' });
      return 'completed';
    });
    await started.opened;
    const waiting = claim(40);
    const second = rows.withLock('session-d', waiting, async () => 'answered');
    release.open();
    assert.equal(await first, 'completed');
    assert.equal(await second, 'answered');
    assert.equal(waiting.ended, false);
  } finally {
    await db.close();
  }
});

test('a request that reaches the session while another runs waits for it, even when the one before them is gone', async () => {
  const { db, rows } = await setUp();
  try {
    const seen: string[] = [];
    const first = gate();
    const firstStarted = gate();
    const second = gate();
    const secondStarted = gate();
    const a = rows.withLock('session-e', undefined, async () => {
      firstStarted.open();
      await first.opened;
      seen.push('first ends');
    });
    await firstStarted.opened;
    const b = rows.withLock('session-e', undefined, async () => {
      seen.push('second starts');
      secondStarted.open();
      await second.opened;
      seen.push('second ends');
    });
    first.open();
    await a;
    await secondStarted.opened;
    const c = rows.withLock('session-e', undefined, async () => {
      seen.push('third starts');
    });
    // Every step the lock could take before the second request ends (no timer: the event loop's own turns).
    for (let i = 0; i < 5; i++) await new Promise<void>((resolve) => setImmediate(resolve));
    second.open();
    await Promise.all([b, c]);
    assert.deepEqual(seen, ['first ends', 'second starts', 'second ends', 'third starts']);
  } finally {
    await db.close();
  }
});

test("a session whose requests have all ended forgets them: another node's claim for it is not remembered", async () => {
  const { db, rows } = await setUp();
  try {
    assert.equal(await rows.withLock('session-f', undefined, async () => 'done'), 'done');
    await db.notify('session_claims', '50 session-f');
    const mine = claim(30);
    assert.equal(await rows.withLock('session-f', mine, async () => 'ran'), 'ran');
    assert.equal(mine.ended, false);
  } finally {
    await db.close();
  }
});

test('a session idle for exactly its time to live is still open, listed and found; one millisecond more ends it', async (t) => {
  // The service's clock reads the process's time: held still here, so the idle time is exact.
  t.mock.timers.enable({ apis: ['Date'], now: 1_700_000_000_000 });
  const db = await openSqliteFile(':memory:');
  const released: string[] = [];
  const rows = new UploadSessionRows(db, createClock(), 60_000, async (id) => void released.push(id));
  try {
    await rows.create({
      id: 'session-g',
      user: 'alice@example.com',
      permissionId: undefined,
      client: 'web',
      targetFileId: undefined,
      metadata: { name: 'g.bin' },
      query: '',
      contentType: 'application/octet-stream',
      declaredLength: undefined,
    });
    t.mock.timers.tick(60_000);
    assert.deepEqual(
      (await rows.listOpen(undefined)).map((s) => s.id),
      ['session-g'],
    );
    assert.equal((await rows.get('session-g'))?.state, 'open');
    assert.deepEqual(released, []);
    t.mock.timers.tick(1);
    assert.equal(await rows.get('session-g'), undefined);
    assert.deepEqual(await rows.listOpen(undefined), []);
    assert.deepEqual(released, ['session-g'], 'an expired session’s bytes are released');
  } finally {
    await db.close();
  }
});

test('an older request that reaches a session its holder has just completed does not end the holder', async () => {
  const { db, rows } = await setUp();
  try {
    const holder = claim(10);
    const late = claim(5);
    let older: Promise<string> | undefined;
    const done = await rows.withLock('session-h', holder, async () => {
      await rows.complete('session-h', { id: 'file-h' });
      // Held up before its handler, the older request claims the session only now, while the holder answers.
      older = rows.withLock('session-h', late, async () => 'answered from the completed session');
      return 'completed';
    });
    assert.equal(done, 'completed');
    assert.equal(holder.ended, false, 'the request that completed the session is not ended');
    assert.equal(await older, 'answered from the completed session');
    assert.equal(late.ended, false);
  } finally {
    await db.close();
  }
});
