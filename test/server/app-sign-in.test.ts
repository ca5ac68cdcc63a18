/**
 * The app's own sign-in (`createStoreHandler({ authenticate })`, `server/handler/app-sign-in.ts`): a user the app
 * names without a client belongs to the client "app", the project its push channels are kept under (spec §5).
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createStoreHandler, type StoreHandler } from '../../server/handler/index.ts';

const BASE = '/api/store';

let url: string;
let store: StoreHandler;
let stop: () => Promise<void>;
before(async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'app-sign-in-'));
  store = await createStoreHandler({
    dataDir,
    basePath: BASE,
    authenticate: ({ headers }) =>
      headers.get('cookie') === 'session=carol' ? { email: 'carol@example.com', name: 'Carol' } : undefined,
  });
  const server = createServer((req, res) => store.node(req, res, () => res.writeHead(404).end()));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}${BASE}`;
  stop = async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    await store.close();
    rmSync(dataDir, { recursive: true, force: true });
  };
});
after(() => stop());

describe('the app’s sign-in', () => {
  it('a user named without a client is of the project "app": a channel it has not is not found there', async () => {
    const r = await fetch(`${url}/store/v3/channels/stop`, {
      method: 'POST',
      headers: { cookie: 'session=carol', 'content-type': 'application/json' },
      body: JSON.stringify({ id: 'no-such-channel', resourceId: 'no-such-resource' }),
    });
    assert.equal(r.status, 404);
    const body = (await r.json()) as { error: { message: string } };
    assert.equal(body.error.message, "Channel 'no-such-channel' not found for project 'app'");
  });
});
