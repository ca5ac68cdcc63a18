// A task paused while it waits its turn (concurrency 1, another upload running) is told to the page as a `change` to
// `paused` — the event the uploader's list and the elements follow — and resumes to be stored like any other.
// Real engine, real service over loopback.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startService, type ServiceHandle } from '../server/helpers/service.ts';
import { withTimeout } from '../../src/uploader/contract/with-timeout.ts';
import { download, filesNamed, harness, md5, randomFile } from './helpers/engine-harness.ts';

const within = <T>(wait: Promise<T>, what: string) => withTimeout(wait, 60_000, () => new Error(`${what} within 60 s`));

let service: ServiceHandle;
before(async () => {
  service = await startService();
});
after(async () => {
  await service.stop();
});

test('pausing a queued task is a change event to paused; resumed, it is stored', async () => {
  const h = harness(service.url, { concurrency: 1 });
  const first = randomFile(2 * 1024 * 1024);
  const second = randomFile(64 * 1024);
  await h.engine.add('first', first);
  await h.engine.add('second', second);
  assert.equal(h.engine.snapshots().find((s) => s.id === 'second')?.state, 'queued');
  const paused = h.when((_event, s) => s.id === 'second' && s.state === 'paused');
  h.engine.pause('second');
  await paused;
  const told = h.events.filter((e) => e.snapshot.id === 'second' && e.snapshot.state === 'paused');
  assert.deepEqual(
    told.map((e) => e.event),
    ['change'],
  );
  h.engine.resume('second');
  const stored = await h.engine.done('second');
  assert.equal(md5(await download(service.url, stored.id)), md5(second.bytes));
  await h.engine.done('first');
});

// Pausing or cancelling the running task must take nothing else off the queue: the tasks waiting their turn all go.
for (const command of ['pause', 'cancel'] as const) {
  test(`${command} of the running task leaves every queued task its turn: both are stored`, async () => {
    const h = harness(service.url, { concurrency: 1 });
    const running = randomFile(2 * 1024 * 1024);
    const [second, third] = [randomFile(32 * 1024), randomFile(48 * 1024)];
    const started = h.when((_e, s) => s.id === 'running' && s.state === 'uploading');
    await h.engine.add('running', running);
    await h.engine.add('second', second);
    await h.engine.add('third', third);
    await within(started, 'the first task did not start uploading');
    if (command === 'pause') h.engine.pause('running');
    else await h.engine.cancel('running');
    for (const [id, file] of [
      ['second', second],
      ['third', third],
    ] as const) {
      const stored = await within(h.engine.done(id), `${id} was not stored`);
      assert.equal(md5(await download(service.url, stored.id)), md5(file.bytes));
    }
    const left = h.engine.snapshots().find((s) => s.id === 'running');
    assert.equal(left?.state, command === 'pause' ? 'paused' : 'cancelled');
  });
}

test('a cancelled task at the head of the queue is never sent; the task behind it is stored', async () => {
  const h = harness(service.url, { concurrency: 1 });
  const [running, head, behind] = [randomFile(1024 * 1024), randomFile(40 * 1024), randomFile(24 * 1024)];
  const started = h.when((_e, s) => s.id === 'running' && s.state === 'uploading');
  await h.engine.add('running', running);
  await h.engine.add('head', head);
  await h.engine.add('behind', behind);
  await within(started, 'the first task did not start uploading');
  await h.engine.cancel('head');
  await within(h.engine.done('running'), 'the running task was not stored');
  const stored = await within(h.engine.done('behind'), 'the task behind was not stored');
  assert.equal(md5(await download(service.url, stored.id)), md5(behind.bytes));
  assert.deepEqual(await filesNamed(service.url, head.name), [], 'the cancelled task stored nothing');
  assert.equal(h.engine.snapshots().find((s) => s.id === 'head')?.state, 'cancelled');
});

test('a task paused while queued does not start when its turn would have come: the task behind it goes first', async () => {
  const h = harness(service.url, { concurrency: 1 });
  const [running, held, behind] = [randomFile(1024 * 1024), randomFile(40 * 1024), randomFile(24 * 1024)];
  const started = h.when((_e, s) => s.id === 'running' && s.state === 'uploading');
  await h.engine.add('running', running);
  await h.engine.add('held', held);
  await h.engine.add('behind', behind);
  await within(started, 'the first task did not start uploading');
  h.engine.pause('held');
  await within(h.engine.done('running'), 'the running task was not stored');
  await within(h.engine.done('behind'), 'the task behind was not stored');
  assert.equal(h.engine.snapshots().find((s) => s.id === 'held')?.state, 'paused');
  assert.deepEqual(await filesNamed(service.url, held.name), [], 'the paused task sent nothing');
  assert.equal(
    h.events.some((e) => e.snapshot.id === 'held' && e.snapshot.state === 'uploading'),
    false,
    'the paused task never started',
  );
});

test('a resume while a paused task is being cancelled, or once it is, does nothing: the task ends cancelled, its file never stored', async () => {
  const h = harness(service.url, { resumableThreshold: 0, chunkSize: 256 * 1024, stallTimeoutMs: 60_000 });
  const file = randomFile(1024 * 1024 + 3);
  await h.engine.add('t', file);
  await within(
    h.when((e, s) => e === 'progress' && s.bytesAcknowledged >= 256 * 1024),
    'the first chunk acknowledged',
  );
  h.engine.pause('t');
  await within(
    h.when((_e, s) => s.state === 'paused'),
    'paused',
  );
  const from = h.events.length;
  // The cancel deletes the session with the service; the resume comes while it does.
  const cancelling = h.engine.cancel('t');
  h.engine.resume('t');
  await within(cancelling, 'the cancel');
  // And a resume once it is cancelled.
  h.engine.resume('t');
  await assert.rejects(h.engine.done('t'), { code: 'cancelled' });
  assert.deepEqual(
    h.events.slice(from).map((e) => e.snapshot.state),
    ['cancelled'],
  );
  assert.equal(h.engine.snapshot('t')?.state, 'cancelled');
  assert.deepEqual(await h.store.list(), []);
  await h.engine.destroy();
  assert.deepEqual(await filesNamed(service.url, file.name), []);
});

test('a resume of a task already stored does nothing: no event, no second file', async () => {
  const h = harness(service.url, { stallTimeoutMs: 60_000 });
  const file = randomFile(64 * 1024);
  await h.engine.add('t', file);
  const stored = await within(h.engine.done('t'), 'the upload');
  const from = h.events.length;
  h.engine.resume('t');
  assert.equal((await h.engine.done('t')).id, stored.id);
  assert.deepEqual(await filesNamed(service.url, file.name), [{ id: stored.id }]);
  assert.deepEqual(
    h.events.slice(from).map((e) => [e.event, e.snapshot.state]),
    [],
  );
  assert.equal(h.engine.snapshot('t')?.state, 'done');
  await h.engine.destroy();
});
