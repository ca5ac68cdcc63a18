// Session records written before the file's bytes were named `file` (issue 38) hold the kept copy as `blob`: a page
// reloaded after the upgrade must still list them as resumable without the file and resume them from the copy. In
// Node against the real service, over a session store holding a record in the old shape.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { SessionRecord } from '../../src/uploader/contract/ports.ts';
import { startService, type ServiceHandle } from '../server/helpers/service.ts';
import { download, harness, md5, randomFile } from './helpers/engine-harness.ts';

const KiB = 1024;
const MiB = 1024 * KiB;

let service: ServiceHandle;
before(async () => {
  service = await startService();
});
after(async () => {
  await service.stop();
});

test('a record that keeps its copy as `blob` (the old name) resumes from that copy, stored byte-identically', async () => {
  const first = harness(service.url, { resumableThreshold: 0, chunkSize: 256 * KiB });
  const file = randomFile(MiB + 7);
  await first.engine.add('a', file);
  await first.when((e, s) => e === 'progress' && s.bytesAcknowledged >= 256 * KiB);
  await first.engine.destroy();
  const [record] = await first.store.list();
  assert.ok(record?.file, 'the copy was kept (a file under the default quota)');
  const acknowledged = record.acknowledged;

  // As the earlier version stored it: the copy under `blob`, no `file`.
  const { file: copy, ...rest } = record;
  await first.store.put({ ...rest, blob: copy } as SessionRecord);

  const second = harness(service.url, { resumableThreshold: 0, chunkSize: 256 * KiB, store: first.store });
  const [listed] = await second.engine.interrupted();
  assert.equal(listed?.canResumeWithoutFile, true, 'listed as resumable without choosing the file');
  // What the worker hands the page to resume with (`interruptedSource`): the kept copy.
  const kept = (await second.engine.record('a'))?.file;
  assert.equal(kept?.size, file.file.size);

  const snap = await second.engine.add(
    'b',
    { file: kept!, name: file.name, type: file.type, lastModified: 1_700_000_000_000 },
    {},
    'a',
  );
  assert.equal(snap.bytesAcknowledged, acknowledged, 'resumed where the service stood, not from byte 0');
  await second.when((e, s) => e === 'progress' && s.bytesAcknowledged > acknowledged);
  const rewritten = (await first.store.get('a')) as (SessionRecord & { blob?: Blob }) | undefined;
  if (rewritten) assert.ok(!('blob' in rewritten), 'the record is written back with the new name only');
  const stored = await second.engine.done('b');
  assert.equal(md5(await download(service.url, stored.id)), md5(file.bytes));
  assert.deepEqual(await first.store.list(), [], 'the record is gone with its upload');
});
