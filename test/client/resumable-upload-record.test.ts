// What a resumable upload's stored session keeps for the next page life, against the real service over loopback: a
// converting upload cut short is resumed by a new engine as the conversion it was — its snapshot says what it
// converts to — and ends as the native file (issue 39's mutant of engine/resumable-upload.ts, the record's
// convertTo).
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { SPREADSHEET_MIME as SPREADSHEET } from '../../src/protocol/native.ts';
import { startService, type ServiceHandle } from '../server/helpers/service.ts';
import { filesNamed, harness } from './helpers/engine-harness.ts';

const KiB = 1024;

let service: ServiceHandle;
before(async () => {
  service = await startService();
});
after(async () => {
  await service.stop();
});

test('a converting upload cut short is resumed in a new page life as that conversion, and stored converted', async () => {
  const rows = ['fruit,count'];
  for (let i = 0; rows.join('\r\n').length < 300 * KiB; i++) rows.push(`fruit-${i},${i % 97}`);
  const csv = `${rows.join('\r\n')}\r\n`;
  const name = `fruit-${Date.now()}.csv`;
  const file = () => ({ file: new Blob([csv], { type: 'text/csv' }), name, type: 'text/csv', lastModified: 1 });
  const first = harness(service.url, { resumableThreshold: 0, chunkSize: 256 * KiB });
  await first.engine.add('a', file(), { convertTo: SPREADSHEET });
  await first.when((e, s) => e === 'progress' && s.bytesAcknowledged >= 256 * KiB);
  await first.engine.destroy();

  // Same store, new engine, the same file added again without options (a page reload that finds it): it resumes.
  const second = harness(service.url, { resumableThreshold: 0, chunkSize: 256 * KiB, store: first.store });
  const snap = await second.engine.add('b', file());
  assert.ok(snap.bytesAcknowledged >= 256 * KiB, `resumed, not started over: ${snap.bytesAcknowledged}`);
  assert.equal(snap.convertTo, SPREADSHEET, 'the resumed task says it converts');
  const stored = await second.engine.done('b');
  assert.equal(stored.mimeType, SPREADSHEET);
  assert.equal(second.engine.snapshot('b')?.convertTo, SPREADSHEET);
  assert.deepEqual(await filesNamed(service.url, stored.name ?? ''), [{ id: stored.id }]);
});
