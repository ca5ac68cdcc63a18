// The progress of a multipart upload, against the real service over loopback: the bytes sent grow as the request's
// body goes out, below the file's size until the whole file is out, never counting the multipart framing (issue
// 39's mutant of engine/multipart-upload.ts, the bytes sent capped at the file's size).
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startService, type ServiceHandle } from '../server/helpers/service.ts';
import { startCountingProxy } from './helpers/counting-proxy.ts';
import { download, harness, md5, randomFile } from './helpers/engine-harness.ts';

const MiB = 1024 * 1024;

let service: ServiceHandle;
before(async () => {
  service = await startService();
});
after(async () => {
  await service.stop();
});

test('a multipart upload reports bytes sent below the file size while its body goes out, then the whole file', async () => {
  // A proxy that reads request bodies at 1 MiB/s: the 4 MiB body takes seconds to go out, so progress snapshots
  // (ten a second at most) come while it does, however loaded the machine.
  const proxy = await startCountingProxy(service.url, MiB);
  try {
    const h = harness(proxy.url, { resumableThreshold: 64 * MiB });
    const file = randomFile(4 * MiB);
    await h.engine.add('t1', file);
    assert.equal(h.engine.snapshot('t1')?.strategy, 'multipart');
    const stored = await h.engine.done('t1');
    assert.equal(md5(await download(service.url, stored.id)), md5(file.bytes));
    const sent = h.events.filter((e) => e.event === 'progress').map((e) => e.snapshot.bytesSent);
    assert.ok(
      sent.some((n) => n > 0 && n < file.bytes.length),
      `a part of the file was shown sent before the whole: ${JSON.stringify(sent)}`,
    );
    assert.ok(
      sent.every((n) => n <= file.bytes.length),
      'never more than the file',
    );
    assert.equal(h.engine.snapshot('t1')?.bytesSent, file.bytes.length);
  } finally {
    await proxy.close();
  }
});
