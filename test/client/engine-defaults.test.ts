// The engine runs the documented defaults: it takes the settings `resolveSettings` made from an app's options as they
// come, so an option the app left out behaves as README's options table says — here `persist.blobQuotaBytes`, whose
// 64 MiB the engine once replaced with 0 when its config came without it. Against the real service in Node.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { DEFAULT_SETTINGS } from '../../src/uploader/contract/settings.ts';
import { startService, type ServiceHandle } from '../server/helpers/service.ts';
import { harness, randomFile } from './helpers/engine-harness.ts';

const KiB = 1024;
const MiB = 1024 * KiB;

let service: ServiceHandle;
before(async () => {
  service = await startService();
});
after(async () => {
  await service.stop();
});

test('README gives the file-copy quota that the defaults hold', () => {
  const readme = readFileSync(join(import.meta.dirname, '../../README.md'), 'utf8');
  const row = readme.split('\n').find((line) => line.startsWith('| `persist` |'));
  const mib = /blobQuotaBytes }` \(default \*\*(\d+) MiB\*\*/.exec(row ?? '')?.[1];
  assert.equal(Number(mib) * MiB, DEFAULT_SETTINGS.blobQuotaBytes);
});

for (const [label, extra, kept] of [
  ['a file of the default quota is copied into its session record', 0, true],
  ['a file one byte over the default quota is not', 1, false],
] as const) {
  test(`with no persist option, ${label}`, { timeout: 120_000 }, async () => {
    // Only what makes the upload resumable and observable is set; `persist` and its quota are left to the defaults.
    const h = harness(service.url, { resumableThreshold: 0, chunkSize: 256 * KiB });
    const file = randomFile(DEFAULT_SETTINGS.blobQuotaBytes + extra);
    await h.engine.add('t', file);
    await h.when((e, s) => e === 'progress' && s.bytesAcknowledged >= 256 * KiB);
    h.engine.pause('t');
    const paused = await h.when((_e, s) => s.state === 'paused');
    const [record] = await h.store.list();
    assert.equal(record?.acknowledged, paused.bytesAcknowledged);
    assert.equal(record.file?.size, kept ? file.file.size : undefined);
    await h.engine.cancel('t');
  });
}
