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
    assert.deepEqual(
      parseContentRange('bytes   4-4/5'),
      { kind: 'chunk', first: 4, last: 4, total: 5 },
      'runs of spaces',
    );
    assert.deepEqual(parseContentRange('BYTES */0'), { kind: 'status', total: 0 });
    assert.deepEqual(parseContentRange('bytes 0-*/0'), { kind: 'chunk', first: 0, last: undefined, total: 0 });
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
      // Whatever follows a well-formed range, or precedes it, makes the whole header malformed.
      'bytes 0-1/2x',
      'bytes 0-1/2 3',
      'xbytes 0-1/2',
      'bytes */5/6',
      // Sixteen digits fit the pattern but not a safe integer: no position past 2^53 - 1 is read.
      'bytes 9999999999999999-9999999999999999/*',
      'bytes 0-9999999999999999/*',
      'bytes 0-1/9999999999999999',
      'bytes */9999999999999999',
      'bytes 9999999999999999-*/9999999999999999',
      'bytes 9999999999999999-*/5',
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
    assert.equal(parseStoredRange(' BYTES=0-0 '), 1, 'read in any case, without the white space around it');
    assert.equal(parseStoredRange('bytes=0-9x'), undefined, 'nothing may follow the last byte');
    assert.equal(parseStoredRange('xbytes=0-9'), undefined, 'nothing may precede the unit');
    assert.equal(parseStoredRange('bytes=0-9999999999999999'), undefined, 'past a safe integer');
    assert.equal(parseStoredRange('bytes=0-9007199254740990'), 9007199254740991);
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

  it('reads the edges: a one-byte range, an empty content, a range with neither end, and the header in any case', () => {
    assert.deepEqual(resolveByteRange('bytes=4-4', 10), { start: 4, end: 4 }, 'first = last is one byte');
    assert.deepEqual(resolveByteRange('bytes=9-9', 10), { start: 9, end: 9 }, 'the last byte');
    assert.deepEqual(resolveByteRange('bytes=0-', 1), { start: 0, end: 0 });
    assert.equal(resolveByteRange('bytes=-', 10), undefined, 'no start and no end is ignored, not unsatisfiable');
    assert.equal(resolveByteRange('bytes=-5', 0), 'unsatisfiable', 'a suffix of nothing');
    assert.equal(resolveByteRange('bytes=0-', 0), 'unsatisfiable');
    assert.deepEqual(resolveByteRange(' BYTES=1-2 ', 10), { start: 1, end: 2 });
    assert.equal(resolveByteRange('bytes=1-2x', 10), undefined);
    assert.equal(resolveByteRange('xbytes=1-2', 10), undefined);
    assert.deepEqual(resolveByteRange('bytes=-10', 10), { start: 0, end: 9 }, 'a suffix as long as the content');
    assert.deepEqual(resolveByteRange('bytes=-1', 10), { start: 9, end: 9 });
  });
});
