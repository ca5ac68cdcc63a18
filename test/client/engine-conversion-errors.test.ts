// The code a task fails with when the service refuses a converting upload with a 400 (engine/error-code.ts), against
// the real service over loopback: `conversion` when the refusal is the conversion's (a source type it cannot convert),
// `bad-request` when the request itself is refused (a media type that is not one), as for a plain upload.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { SPREADSHEET_MIME as SPREADSHEET } from '../../src/protocol/native.ts';
import { startService, type ServiceHandle } from '../server/helpers/service.ts';
import { harness } from './helpers/engine-harness.ts';

let service: ServiceHandle;
before(async () => {
  service = await startService();
});
after(async () => {
  await service.stop();
});

/** Uploads `bytes` of `type` with `options` and returns the error the task failed with. */
async function failure(type: string, options: { convertTo?: string }, resumableThreshold: number) {
  const h = harness(service.url, { resumableThreshold, stallTimeoutMs: 60_000 });
  try {
    const file = { file: new Blob(['a,b\r\n1,2\r\n']), name: 'sheet.bin', type, lastModified: 1 };
    await h.engine.add('t', file, options);
    await assert.rejects(h.engine.done('t'));
    const failed = h.events.find((e) => e.event === 'error')?.snapshot;
    assert.equal(failed?.state, 'failed');
    return failed.error;
  } finally {
    await h.engine.destroy();
  }
}

for (const [how, resumableThreshold] of [
  ['in one request', 1024 * 1024],
  ['in a resumable session', 0],
] as const) {
  test(`a converting upload ${how} of a type the service cannot convert fails with conversion`, async () => {
    const error = await failure('application/x-no-such-format', { convertTo: SPREADSHEET }, resumableThreshold);
    assert.equal(error?.code, 'conversion', JSON.stringify(error));
    assert.equal(error?.status, 400);
    assert.match(error.message, /not supported/);
  });
}

test('a converting upload in a resumable session refused for its media type, not its conversion, fails with bad-request', async () => {
  const error = await failure('not a media type', { convertTo: SPREADSHEET }, 0);
  assert.equal(error?.code, 'bad-request', JSON.stringify(error));
  assert.equal(error?.status, 400);
});
