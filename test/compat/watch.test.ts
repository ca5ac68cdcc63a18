/**
 * Push channels made by the real clients: `files.watch` and `channels.stop` from Google's Python client and from
 * `@googleapis/drive`, with the messages delivered over real HTTPS to the development relay (trusted through
 * `trustCa`) and read from its event stream. Tests wait for the messages, never for time.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { auth, drive, type drive_v3 } from '@googleapis/drive';
import { type RunningRelay, startRelay } from '../../server/relay/start.ts';
import { type ServiceHandle, startService } from '../server/helpers/service.ts';
import { type TestSubscription, subscribeToRelay } from '../server/push-helpers.ts';
import { type PathProxy, startPathProxy } from './path-proxy.ts';

const HERE = import.meta.dirname;

describe('files.watch and channels.stop from the real clients', { timeout: 120_000 }, () => {
  let dir: string;
  let relay: RunningRelay;
  let svc: ServiceHandle;
  let sub: TestSubscription;
  let proxy: PathProxy;
  let client: drive_v3.Drive;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'compat-watch-'));
    relay = await startRelay({ port: 0, host: 'localhost', certDir: join(dir, 'certs') });
    svc = await startService({
      config: { verifiedDomains: [relay.url], registeredDomains: [relay.url], trustCa: [relay.caPath] },
    });
    sub = await subscribeToRelay(relay.url, readFileSync(relay.caPath, 'utf8'));
    proxy = await startPathProxy(svc.url);
    const oauth = new auth.OAuth2();
    oauth.setCredentials({ access_token: 'dev-token-alice' });
    client = drive({ version: 'v3', rootUrl: `${proxy.url}/`, auth: oauth, retry: false });
  });
  after(async () => {
    sub.close();
    await proxy.close();
    await svc.stop();
    await relay.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** Runs one scenario of python_edges.py with extra arguments (bounded by `timeout`). */
  const python = (...args: string[]): Promise<any> =>
    new Promise((resolve, reject) => {
      const all = [
        join(HERE, 'python_edges.py'),
        svc.url,
        'dev-token-alice',
        join(HERE, 'store-v3-discovery.json'),
        ...args,
      ];
      execFile('/usr/bin/python3', all, { timeout: 60_000 }, (err, stdout, stderr) =>
        err ? reject(new Error(`${err.message}\n${stderr}`)) : resolve(JSON.parse(stdout)),
      );
    });

  it('Python client: watch answers api#channel; sync then update reach the receiver; stop answers 204', async () => {
    const r = await python('watch', sub.address, sub.token);
    assert.equal(r.channel.kind, 'api#channel');
    assert.equal(r.channel.id, 'python-channel-1');
    assert.notEqual(r.channel.resourceId, r.fileId, 'resourceId is opaque');
    const [sync, update] = await sub.take('python-channel-1', 2);
    assert.equal(sync?.state, 'sync');
    assert.equal(sync?.messageNumber, 1);
    assert.equal(update?.state, 'update');
    assert.deepEqual(update?.changed, ['properties']);
    // The client turns the empty 204 into an empty result.
    const stopped = await python('stop', 'python-channel-1', r.channel.resourceId);
    assert.equal(stopped.stopped, '');
  });

  it('@googleapis/drive: watch, the messages, and channels.stop', async () => {
    const made = await client.files.create({ requestBody: { name: 'watched-by-node.txt' }, fields: 'id' });
    const fileId = made.data.id as string;
    const channel = await client.files.watch({
      fileId,
      requestBody: { id: 'node-channel-1', type: 'web_hook', address: sub.address, token: sub.token },
    });
    assert.equal(channel.status, 200);
    assert.equal(channel.data.kind, 'api#channel');
    await sub.take('node-channel-1', 1);
    await client.files.update({ fileId, requestBody: { name: 'renamed-by-node.txt' } });
    const [, update] = await sub.take('node-channel-1', 2);
    assert.equal(update?.state, 'update');
    const stopped = await client.channels.stop({
      requestBody: { id: 'node-channel-1', resourceId: channel.data.resourceId as string },
    });
    assert.equal(stopped.status, 204);
  });
});
