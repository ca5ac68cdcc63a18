// `signOut()` without options cancels the account's uploads with the service (its documented default, 'cancel'), in
// Node against the real service: the running upload stores no file and leaves no open session, as against 'finish',
// where it would end with the tokens already given.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { addFault, filesNamed } from './helpers/engine-harness.ts';
import { pageSuite, seededFile } from './helpers/page-uploader.ts';

const KiB = 1024;
const suite = pageSuite();

test('signOut() with no options cancels the running upload with the service: no file, no open session', async () => {
  const p = suite.page({}, undefined, 'dedicated', true);
  await addFault(suite.service.url, {
    match: { method: 'PUT', uploadType: 'resumable' },
    action: { type: 'delay', ms: 200 },
    times: 400,
  });
  const name = 'signed-out-while-running.bin';
  const running = p.uploader.add(seededFile(8 * 256 * KiB, 31, name));
  running.done.catch(() => undefined);
  await p.when('progress', (s) => s.id === running.id && s.bytesAcknowledged > 0);
  await p.uploader.signOut();
  assert.deepEqual(await filesNamed(suite.service.url, name), [], 'the upload was cancelled, not finished');
  const open = await fetch(`${suite.service.url}/__admin/sessions`);
  assert.deepEqual(((await open.json()) as { sessions: { name: string }[] }).sessions, []);
});
