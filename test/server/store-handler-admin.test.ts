/**
 * `createStoreHandler({ admin })` (`server/handler/create-store-handler.ts`): the admin endpoints (clock, faults,
 * tokens) answer below the base path only when the app asks for them.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { createStoreHandler } from '../../server/handler/index.ts';

const BASE = '/api/store';

/** GET of `path` below the base path of a handler made with `admin`, over a real loopback server. */
async function adminAnswer(admin: boolean | undefined): Promise<{ status: number; body: string }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'store-handler-admin-'));
  const store = await createStoreHandler({
    dataDir,
    basePath: BASE,
    authenticate: () => undefined,
    ...(admin !== undefined && { admin }),
  });
  const server = createServer((req, res) => store.node(req, res, () => res.writeHead(418).end()));
  try {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const r = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}${BASE}/__admin/faults`);
    return { status: r.status, body: await r.text() };
  } finally {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    await store.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

describe('the handler’s admin endpoints', () => {
  it('answer with admin: true', async () => {
    const r = await adminAnswer(true);
    assert.equal(r.status, 200, r.body);
    assert.deepEqual(JSON.parse(r.body), { faults: [] });
  });

  it('are not there by default', async () => {
    const r = await adminAnswer(undefined);
    assert.equal(r.status, 404, r.body);
  });
});
