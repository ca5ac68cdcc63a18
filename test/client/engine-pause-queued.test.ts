// A task paused while it waits its turn (concurrency 1, another upload running) is told to the page as a `change` to
// `paused` — the event the uploader's list and the elements follow — and resumes to be stored like any other.
// Real engine, real service over loopback.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startService, type ServiceHandle } from '../server/helpers/service.ts';
import { download, harness, md5, randomFile } from './helpers/engine-harness.ts';

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
