// The page's list as `uploader.snapshot` hands it out (src/uploader/page/task-table.ts): a snapshot an app kept (a
// framework's state, the previous render's props) stays as it was when the list changes after it — adds, progress and
// ends show in the next snapshot, never in one handed out before.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { pageSuite, seededFile } from './helpers/page-uploader.ts';

const suite = pageSuite();

test('a snapshot kept by the app does not change when files are added and uploaded after it', async () => {
  const p = suite.page();
  const first = p.uploader.add(seededFile(1000, 41, 'first.bin'));
  const kept = p.uploader.snapshot;
  const keptIds = kept.tasks.map((t) => t.id);
  const keptStates = kept.tasks.map((t) => t.state);
  assert.deepEqual(keptIds, [first.id]);
  const second = p.uploader.add(seededFile(2000, 42, 'second.bin'));
  await Promise.all([first.done, second.done]);
  await p.ever('change', (s) => s.tasks.length === 2 && s.tasks.every((t) => t.state === 'done'));
  const now = p.uploader.snapshot;
  assert.deepEqual(
    now.tasks.map((t) => [t.id, t.state]),
    [
      [first.id, 'done'],
      [second.id, 'done'],
    ],
  );
  assert.deepEqual(
    kept.tasks.map((t) => t.id),
    keptIds,
    'the kept snapshot lists what it listed',
  );
  assert.deepEqual(
    kept.tasks.map((t) => t.state),
    keptStates,
    'with the states it had',
  );
  assert.notEqual(kept.tasks, now.tasks);
});
