// How many uploads run at once when the app sets no `concurrency` (src/uploader/engine/concurrency-policy.ts): the
// pure rule (the engine following it against the real service: engine-concurrency.test.ts).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { BYTES_IN_FLIGHT, HTTP1_IN_FLIGHT, mayStart } from '../../src/uploader/engine/concurrency-policy.ts';

const KiB = 1024;
const MiB = 1024 * KiB;
const small = (n: number) => Array<number>(n).fill(64 * KiB);

describe('the rule', () => {
  test("over HTTP/1.1, or before the protocol is known, never more than the browser's 6 connections", () => {
    // (A name that merely contains h2 is not HTTP/2.)
    for (const protocol of ['http/1.1', undefined, 'http/1.0', '', 'not-h2']) {
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
