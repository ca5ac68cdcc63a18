/**
 * A batch's group commit never outlives the event-loop turn it opened in (`server/store/commit-group.ts`): while one
 * of its inner calls waits for real I/O (a delay fault), other requests commit and are answered on their own, not
 * held until the batch ends.
 */
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { encodeBatchRequest } from '../../src/protocol/batch-codec.ts';
import { type ServiceHandle, startService } from './helpers/service.ts';

let svc: ServiceHandle;
before(async () => {
  svc = await startService();
});
after(() => svc.stop());

describe('the group commit of a batch', () => {
  it('a batch whose call waits on a delay holds no other request: a create meanwhile is answered first', async () => {
    const made = await svc.api('POST', '/store/v3/files?fields=id', { body: { name: 'shared-later.txt' } });
    assert.equal(made.status, 200, made.text);
    const fileId = (made.json() as { id: string }).id;
    const fault = await svc.api('POST', '/__admin/faults', {
      token: null,
      body: {
        match: { method: 'POST', pathPrefix: `/store/v3/files/${fileId}/permissions` },
        action: { type: 'delay', ms: 30_000 },
        times: 2, // kept listed (with its hit) after the one call it delays
      },
    });
    assert.equal(fault.status, 200, fault.text);
    const faultId = (fault.json() as { faults: { id: number }[] }).faults[0]?.id;

    const enc = encodeBatchRequest([
      {
        method: 'POST',
        path: `/store/v3/files/${fileId}/permissions`,
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ type: 'user', role: 'reader', emailAddress: 'dave@example.com' }),
        contentId: 'late',
      },
    ]);
    let batchAnswered = false;
    const batch = request(`${svc.url}/batch/store/v3`, {
      method: 'POST',
      headers: { Authorization: 'Bearer dev-token-alice', 'Content-Type': enc.contentType },
    });
    batch.on('response', (res) => {
      batchAnswered = true;
      res.resume();
    });
    batch.on('error', () => undefined);
    batch.end(enc.body);
    try {
      // The inner call has met its delay once the fault counts a hit.
      const deadline = Date.now() + 20_000;
      for (;;) {
        const faults = (await svc.api('GET', '/__admin/faults', { token: null })).json() as {
          faults: { id: number; hits: number }[];
        };
        if (faults.faults.find((f) => f.id === faultId)?.hits === 1) break;
        assert.ok(Date.now() < deadline, `the batch's call never met its delay: ${JSON.stringify(faults)}`);
        await new Promise((resolve) => setImmediate(resolve));
      }
      const other = await svc.api('POST', '/store/v3/files?fields=id,name', { body: { name: 'meanwhile.txt' } });
      assert.equal(other.status, 200, other.text);
      assert.equal(batchAnswered, false, 'the batch is still waiting on its delayed call');
      const read = await svc.api('GET', `/store/v3/files/${(other.json() as { id: string }).id}?fields=name`);
      assert.deepEqual(read.json(), { name: 'meanwhile.txt' });
    } finally {
      batch.destroy();
    }
  });
});
