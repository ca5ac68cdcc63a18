// How many uploads run at once when the app sets no `concurrency` (src/uploader/engine/concurrency-policy.ts): the
// pure rule, and the engine following it against the real service, with the protocol its HTTP port reports.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { BYTES_IN_FLIGHT, HTTP1_IN_FLIGHT, mayStart } from '../../src/uploader/engine/concurrency-policy.ts';
import type { HttpPort } from '../../src/uploader/ports.ts';
import type { TaskSnapshot } from '../../src/uploader/types.ts';
import { startService, type ServiceHandle } from '../server/helpers/service.ts';
import { download, harness, md5, randomFile } from './helpers/engine-harness.ts';
import { nodeHttp } from './helpers/node-http-port.ts';

const KiB = 1024;
const MiB = 1024 * KiB;
const small = (n: number) => Array<number>(n).fill(64 * KiB);

describe('the rule', () => {
  test("over HTTP/1.1, or before the protocol is known, never more than the browser's 6 connections", () => {
    for (const protocol of ['http/1.1', undefined, 'http/1.0', '']) {
      assert.equal(mayStart(64 * KiB, small(HTTP1_IN_FLIGHT - 1), protocol), true, String(protocol));
      assert.equal(mayStart(64 * KiB, small(HTTP1_IN_FLIGHT), protocol), false, String(protocol));
    }
  });

  test('over HTTP/2 and HTTP/3, 32 small files at once', () => {
    for (const protocol of ['h2', 'h3']) {
      assert.equal(mayStart(64 * KiB, small(31), protocol), true);
      assert.equal(mayStart(64 * KiB, small(32), protocol), false);
      assert.equal(mayStart(1, small(32), protocol), false, 'an empty file still costs a request');
    }
  });

  test('large files fill the link: two at once, small ones beside them up to the bytes in flight', () => {
    const big = 64 * MiB;
    assert.equal(mayStart(big, [], 'h2'), true, 'alone, any file starts');
    assert.equal(mayStart(big, [big], 'h2'), true);
    assert.equal(mayStart(big, [big, big], 'h2'), false);
    assert.equal(mayStart(64 * KiB, [big, big, ...small(7)], 'h2'), true);
    assert.equal(mayStart(64 * KiB, [big, big, ...small(8)], 'h2'), false);
    assert.equal(mayStart(big, small(20), 'h2'), true);
    assert.equal(mayStart(big, small(21), 'h2'), false, 'a large file waits while many small ones run');
    assert.equal(
      mayStart(8 * MiB, [8 * MiB, 8 * MiB, 8 * MiB], 'h2'),
      true,
      `${BYTES_IN_FLIGHT / MiB} MiB: four of 8 MiB`,
    );
    assert.equal(mayStart(8 * MiB, [8 * MiB, 8 * MiB, 8 * MiB, 8 * MiB], 'h2'), false);
    assert.equal(mayStart(big, [big], 'http/1.1'), true);
    assert.equal(mayStart(big, [big, big], 'http/1.1'), false);
  });

  test("the app's concurrency is exact: protocol and sizes are not looked at", () => {
    assert.equal(mayStart(64 * KiB, small(2), 'h2', 3), true);
    assert.equal(mayStart(64 * KiB, small(3), 'h2', 3), false);
    assert.equal(mayStart(64 * MiB, [64 * MiB, 64 * MiB, 64 * MiB], 'http/1.1', 8), true);
    assert.equal(mayStart(64 * KiB, small(40), 'http/1.1', 50), true);
  });
});

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

  /** Uploads `count` small files and returns the most tasks under way at once, every task's last snapshot checked. */
  async function peak(
    count: number,
    overrides: Parameters<typeof harness>[1],
  ): Promise<{ peak: number; last: TaskSnapshot[] }> {
    const h = harness(service.url, overrides);
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
    return { peak: most, last: files.map((_, i) => h.engine.snapshot(`t${i}`)!) };
  }

  test('over HTTP/2 more than 6 run at once once the first answer tells the protocol; each task reports it', async () => {
    const { peak: most, last } = await peak(40, { http: speaking('h2') });
    assert.ok(most > HTTP1_IN_FLIGHT && most <= 32, `peak ${most}`);
    assert.deepEqual(new Set(last.map((s) => s.protocol)), new Set(['h2']));
  });

  test('over HTTP/1.1 never more than 6', async () => {
    const { peak: most, last } = await peak(20, { http: speaking('http/1.1') });
    assert.ok(most >= 2 && most <= HTTP1_IN_FLIGHT, `peak ${most}`);
    assert.deepEqual(new Set(last.map((s) => s.protocol)), new Set(['http/1.1']));
  });

  test('where the port does not tell the protocol, as over HTTP/1.1, and no task claims one', async () => {
    const { peak: most, last } = await peak(12, {});
    assert.ok(most <= HTTP1_IN_FLIGHT, `peak ${most}`);
    assert.deepEqual(new Set(last.map((s) => 'protocol' in s)), new Set([false]));
  });

  test("the app's concurrency stays exact over HTTP/2", async () => {
    const { peak: most } = await peak(12, { http: speaking('h2'), concurrency: 2 });
    assert.equal(most, 2);
  });
});
