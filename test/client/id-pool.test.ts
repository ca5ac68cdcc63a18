// The pool of pre-generated IDs against the real service: batches of 100, the next one asked for while a quarter of
// the current one is left, so takes after the first never find the pool empty; every ID unique and usable.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startService, type ServiceHandle } from '../server/helpers/service.ts';
import { createStoreClient } from '../../src/client/index.ts';
import { IdPool } from '../../src/uploader/engine/id-pool.ts';
import { TOKEN } from './helpers/engine-harness.ts';

let service: ServiceHandle;
before(async () => {
  service = await startService();
});
after(async () => {
  await service.stop();
});

test('IDs come in batches asked for before the pool runs dry, each unique', async () => {
  const client = createStoreClient({ baseUrl: service.url, getAccessToken: () => TOKEN });
  let asked = 0;
  /** How many IDs were left in the pool's last batch when the next one was asked for (never 0 after the first). */
  const leftWhenAsked: number[] = [];
  let taken = 0;
  let received = 0;
  const pool = new IdPool({
    generateIds: async (count?: number) => {
      asked++;
      leftWhenAsked.push(received - taken);
      const ids = await client.generateIds(count);
      received += ids.length;
      return ids;
    },
  });
  const ids: string[] = [];
  for (let i = 0; i < 250; i++) {
    ids.push(await pool.take());
    taken++;
  }
  assert.equal(new Set(ids).size, 250);
  assert.equal(asked, 3);
  assert.deepEqual(
    leftWhenAsked.slice(1).map((left) => left > 0),
    [true, true],
  );
});

test('prefetch asks for a batch only while the pool is empty: once before the first take, never with IDs left', async () => {
  const client = createStoreClient({ baseUrl: service.url, getAccessToken: () => TOKEN });
  let asked = 0;
  const pool = new IdPool({
    generateIds: (count?: number) => {
      asked++;
      return client.generateIds(count);
    },
  });
  pool.prefetch();
  pool.prefetch(); // the same batch, still on its way
  const first = await pool.take();
  assert.equal(asked, 1);
  pool.prefetch(); // 99 left: nothing to ask
  const second = await pool.take();
  assert.equal(asked, 1, 'a prefetch with IDs in the pool asked for another batch');
  assert.notEqual(first, second);
});
