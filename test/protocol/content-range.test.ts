import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  formatChunkRange,
  formatContentRangeResponse,
  formatStatusQuery,
  formatStoredRange,
  formatStreamRange,
  formatUnsatisfiedRange,
  parseContentRange,
  parseStoredRange,
  resolveByteRange,
} from '../../src/protocol/content-range.ts';

describe('parseContentRange', () => {
  it('parses chunks, streams and status queries', () => {
    assert.deepEqual(parseContentRange('bytes 0-262143/1000000'), {
      kind: 'chunk',
      first: 0,
      last: 262143,
      total: 1000000,
    });
    assert.deepEqual(parseContentRange('bytes 5-9/*'), { kind: 'chunk', first: 5, last: 9, total: undefined });
    assert.deepEqual(parseContentRange('bytes 10-*/20'), { kind: 'chunk', first: 10, last: undefined, total: 20 });
    assert.deepEqual(parseContentRange('bytes */20'), { kind: 'status', total: 20 });
    assert.deepEqual(parseContentRange('bytes */*'), { kind: 'status', total: undefined });
    assert.deepEqual(parseContentRange('  Bytes 0-0/1 '), { kind: 'chunk', first: 0, last: 0, total: 1 });
  });

  it('rejects malformed values', () => {
    for (const bad of [
      '',
      'bytes',
      'bytes 5-1/10',
      'bytes=0-1/2',
      'bytes 0-1',
      'items 0-1/2',
      'bytes -1-2/3',
      'bytes 0-*/*',
      'bytes 1.5-2/3',
      'bytes 0-99999999999999999/*',
    ]) {
      assert.equal(parseContentRange(bad), undefined, bad);
    }
  });
});

describe('formatting', () => {
  it('formats request and response headers', () => {
    assert.equal(formatChunkRange(0, 9, 10), 'bytes 0-9/10');
    assert.equal(formatChunkRange(0, 9), 'bytes 0-9/*');
    assert.equal(formatStreamRange(10, 20), 'bytes 10-*/20');
    assert.equal(formatStatusQuery(), 'bytes */*');
    assert.equal(formatStatusQuery(7), 'bytes */7');
    assert.equal(formatStoredRange(0), undefined);
    assert.equal(formatStoredRange(262144), 'bytes=0-262143');
    assert.equal(formatContentRangeResponse({ start: 2, end: 4 }, 10), 'bytes 2-4/10');
    assert.equal(formatUnsatisfiedRange(10), 'bytes */10');
  });

  it('round-trips with the parsers', () => {
    assert.equal(parseStoredRange(formatStoredRange(1000)), 1000);
    assert.equal(parseStoredRange(undefined), 0);
    assert.equal(parseStoredRange(null), 0);
    assert.equal(parseStoredRange(''), 0, 'an empty Range header says nothing is stored, as an absent one');
    assert.equal(parseStoredRange('bytes=5-9'), undefined);
    assert.equal(parseStoredRange('garbage'), undefined);
    assert.deepEqual(parseContentRange(formatChunkRange(3, 4, 5)), { kind: 'chunk', first: 3, last: 4, total: 5 });
  });
});

describe('resolveByteRange', () => {
  it('resolves single ranges, suffixes and open ends; flags unsatisfiable; ignores junk', () => {
    assert.deepEqual(resolveByteRange('bytes=0-4', 10), { start: 0, end: 4 });
    assert.deepEqual(resolveByteRange('bytes=5-', 10), { start: 5, end: 9 });
    assert.deepEqual(resolveByteRange('bytes=-3', 10), { start: 7, end: 9 });
    assert.deepEqual(resolveByteRange('bytes=-30', 10), { start: 0, end: 9 });
    assert.deepEqual(resolveByteRange('bytes=8-100', 10), { start: 8, end: 9 });
    assert.equal(resolveByteRange('bytes=10-', 10), 'unsatisfiable');
    assert.equal(resolveByteRange('bytes=-0', 10), 'unsatisfiable');
    assert.equal(resolveByteRange('bytes=0-1,3-4', 10), undefined);
    assert.equal(resolveByteRange('bytes=4-2', 10), undefined);
    assert.equal(resolveByteRange('lines=1-2', 10), undefined);
  });
});
