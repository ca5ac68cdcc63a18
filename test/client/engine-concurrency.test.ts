// How many uploads run at once when the app sets no `concurrency`: the engine following the rule of
// src/uploader/engine/concurrency-policy.ts (its own test: concurrency-policy.test.ts) against the real service, with
// the protocol its HTTP port reports. What runs at once is counted on the wire, as requests in flight at a proxy in
// front of the service (the port's requests, whatever the engine's events say), and by the engine's events.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { HTTP1_IN_FLIGHT } from '../../src/uploader/engine/concurrency-policy.ts';
import type { HttpPort } from '../../src/uploader/contract/ports.ts';
import type { TaskSnapshot } from '../../src/uploader/contract/types.ts';
import { startService, type ServiceHandle } from '../server/helpers/service.ts';
import { startCountingProxy } from './helpers/counting-proxy.ts';
import { download, harness, md5, randomFile } from './helpers/engine-harness.ts';
import { nodeHttp } from './helpers/node-http-port.ts';

const KiB = 1024;

describe('the engine', () => {
  let service: ServiceHandle;
  before(async () => {
    service = await startService();
  });
  after(async () => {
    await service.stop();
  });

  /** The Node port, telling `protocol` with every answer as the browser's does. */
  const speaking = (protocol: string): HttpPort => ({
    send: (request, hooks) => nodeHttp.send(request, hooks).then((response) => ({ ...response, protocol })),
  });

  /**
   * Uploads `count` small files through a counting proxy and returns the most requests in flight at once at the
   * proxy and the most tasks under way by the engine's events, every task's last snapshot checked.
   */
  async function peak(
    count: number,
    overrides: Parameters<typeof harness>[1],
    holdUntilOver?: number,
  ): Promise<{ peak: number; tasks: number; last: TaskSnapshot[] }> {
    const proxy = await startCountingProxy(service.url);
    // Small files finish fast: on a loaded machine each answer could come back before the next request starts. The
    // first upload's answer (which tells the protocol) goes back at once; later ones wait for the peak or 15 s.
    if (holdUntilOver !== undefined)
      proxy.holdAnswersUntilInFlight((r) => r.url.startsWith('/upload/'), holdUntilOver, 15_000);
    try {
      return await peakThrough(proxy, count, overrides);
    } finally {
      await proxy.close();
    }
  }

  async function peakThrough(
    proxy: Awaited<ReturnType<typeof startCountingProxy>>,
    count: number,
    overrides: Parameters<typeof harness>[1],
  ): Promise<{ peak: number; tasks: number; last: TaskSnapshot[] }> {
    const h = harness(proxy.url, overrides);
    const running = new Set<string>();
    let most = 0;
    const files = Array.from({ length: count }, (_, i) => randomFile(16 * KiB + i));
    await Promise.all(files.map((file, i) => h.engine.add(`t${i}`, file)));
    const stored = await Promise.all(files.map((_, i) => h.engine.done(`t${i}`)));
    for (const { event, snapshot } of h.events) {
      if (event === 'start') running.add(snapshot.id);
      if (event === 'success' || event === 'error') running.delete(snapshot.id);
      most = Math.max(most, running.size);
    }
    for (const [i, file] of files.entries()) {
      assert.equal(stored[i]!.md5Checksum, md5(file.bytes));
      assert.equal(md5(await download(service.url, stored[i]!.id)), md5(file.bytes));
    }
    assert.ok(proxy.requests.length >= count, `the proxy saw ${proxy.requests.length} requests for ${count} uploads`);
    return { peak: proxy.peakInFlight, tasks: most, last: files.map((_, i) => h.engine.snapshot(`t${i}`)!) };
  }

  test('over HTTP/2 more than 6 run at once once the first answer tells the protocol; each task reports it', async () => {
    const { peak: most, tasks, last } = await peak(40, { http: speaking('h2') }, HTTP1_IN_FLIGHT);
    assert.ok(most > HTTP1_IN_FLIGHT && most <= 32, `peak ${most} requests in flight`);
    assert.ok(tasks > HTTP1_IN_FLIGHT && tasks <= 32, `peak ${tasks} tasks under way`);
    assert.deepEqual(new Set(last.map((s) => s.protocol)), new Set(['h2']));
  });

  test('over HTTP/1.1 never more than 6', async () => {
    const { peak: most, tasks, last } = await peak(20, { http: speaking('http/1.1') }, 1);
    assert.ok(most >= 2 && most <= HTTP1_IN_FLIGHT, `peak ${most} requests in flight`);
    assert.ok(tasks <= HTTP1_IN_FLIGHT, `peak ${tasks} tasks under way`);
    assert.deepEqual(new Set(last.map((s) => s.protocol)), new Set(['http/1.1']));
  });

  test('where the port does not tell the protocol, as over HTTP/1.1, and no task claims one', async () => {
    const { peak: most, last } = await peak(12, {});
    assert.ok(most <= HTTP1_IN_FLIGHT, `peak ${most} requests in flight`);
    assert.deepEqual(new Set(last.map((s) => 'protocol' in s)), new Set([false]));
  });

  test("the app's concurrency stays exact over HTTP/2", async () => {
    const { peak: most, tasks } = await peak(12, { http: speaking('h2'), concurrency: 2 });
    assert.equal(most, 2, `${most} requests in flight`);
    assert.equal(tasks, 2, `${tasks} tasks under way`);
  });
});
