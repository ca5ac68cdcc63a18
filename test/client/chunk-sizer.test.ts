// The adaptive chunk policy against a model link: each chunk request takes its bytes ÷ bandwidth plus one round trip.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { BLOCK_SIZE } from '../../src/protocol/blocks.ts';
import { ChunkSizer } from '../../src/uploader/engine/chunk-sizer.ts';

const MiB = 1024 * 1024;

/** The chunks an adaptive sizer sends for `total` bytes over a link of `rttMs` and `mbit`, after a session start of `startMs`. */
function chunks(total: number, rttMs: number, mbit: number, startMs = rttMs): number[] {
  const sizer = new ChunkSizer('adaptive');
  sizer.observeRoundTrip(startMs);
  const sizes: number[] = [];
  for (let offset = 0; offset < total;) {
    const end = sizer.next(offset, total);
    sizes.push(end - offset);
    sizer.record(end - offset, ((end - offset) * 8) / (mbit * 1000) + rttMs);
    offset = end;
  }
  return sizes;
}

test('non-final adaptive chunks are whole blocks and the chunks cover the file', () => {
  for (const [rtt, mbit] of [
    [100, 40],
    [20, 200],
    [1, 1000],
    [300, 2],
  ] as const) {
    const total = 64 * MiB + 17;
    const sizes = chunks(total, rtt, mbit);
    assert.equal(
      sizes.reduce((a, b) => a + b, 0),
      total,
    );
    for (const s of sizes.slice(0, -1)) assert.equal(s % BLOCK_SIZE, 0, `${rtt}/${mbit}: ${sizes.join()}`);
  }
});

/** How long `bytes` take at `mbit`, in ms. */
const transferMs = (bytes: number, mbit: number) => (bytes * 8) / (mbit * 1000);

test('each chunk boundary costs at most 2 % of the transfer once the link is measured: ≥ 64 round trips a chunk', () => {
  for (const [rtt, mbit] of [
    [100, 40],
    [60, 200],
    [50, 100],
  ] as const) {
    const sizes = chunks(1024 * MiB, rtt, mbit);
    const middle = sizes.slice(1, -1);
    assert.ok(middle.length >= 2, `${rtt}/${mbit}: ${sizes.map((x) => x / MiB).join()}`);
    // After the first (guessed) chunk, every non-final chunk lasts ≥ 64 round trips, short of less than one block
    // (a chunk is a whole number of blocks, rounded down), and not one block more than that.
    for (const s of middle) {
      const detail = `${rtt}/${mbit}: ${sizes.map((x) => x / MiB).join()}`;
      assert.ok(transferMs(s + BLOCK_SIZE, mbit) > 64 * rtt, detail);
      assert.ok(transferMs(s - BLOCK_SIZE, mbit) < 64 * rtt, detail);
    }
  }
});

test('on a link with a tiny round trip a chunk still lasts about 3 s, not 64 round trips', () => {
  for (const [rtt, mbit] of [
    [1, 100],
    [10, 40],
  ] as const) {
    const sizes = chunks(1024 * MiB, rtt, mbit);
    const middle = sizes.slice(1, -1);
    assert.ok(middle.length >= 2, `${rtt}/${mbit}: ${sizes.map((x) => x / MiB).join()}`);
    for (const s of middle) {
      const detail = `${rtt}/${mbit}: ${sizes.map((x) => x / MiB).join()}`;
      assert.ok(transferMs(s + BLOCK_SIZE, mbit) > 3000, detail);
      assert.ok(transferMs(s - BLOCK_SIZE, mbit) < 3000, detail);
    }
  }
});

test('a 64 MiB file at 100 ms / 40 Mbit/s and at 20 ms / 200 Mbit/s goes in at most 2 requests', () => {
  assert.ok(chunks(64 * MiB, 100, 40).length <= 2);
  assert.ok(chunks(64 * MiB, 20, 200).length <= 2);
  // A session start that also opened the connection (a few round trips) only makes chunks larger.
  assert.ok(chunks(64 * MiB, 20, 200, 80).length <= 2);
});

test('a slow link keeps the first chunk small, and a failure halves the chunk', () => {
  const sizer = new ChunkSizer('adaptive');
  sizer.observeRoundTrip(100);
  const before = sizer.next(0, 1024 * MiB);
  assert.ok(before <= 16 * MiB);
  sizer.shrink();
  assert.equal(sizer.next(0, 1024 * MiB), before / 2);
});

test('whole-file and fixed modes are left alone', () => {
  const whole = new ChunkSizer(undefined);
  whole.observeRoundTrip(50);
  assert.equal(whole.next(0, 64 * MiB), 64 * MiB);
  const fixed = new ChunkSizer(8 * MiB);
  fixed.observeRoundTrip(50);
  fixed.record(8 * MiB, 10);
  assert.equal(fixed.next(0, 64 * MiB), 8 * MiB);
  assert.equal(fixed.next(60 * MiB, 64 * MiB), 64 * MiB);
});

// Each of these pins a rule that mutation testing (npm run mutation) found unchecked.
test('adaptive before any round trip is measured (a resumed session): 1 MiB chunks, a tail of one chunk not folded in', () => {
  const sizer = new ChunkSizer('adaptive');
  assert.equal(sizer.next(0, 64 * MiB), MiB);
  assert.equal(sizer.next(0, 2 * MiB), MiB, 'a tail as long as the chunk gets its own request');
  assert.equal(sizer.next(0, 2 * MiB - 1), 2 * MiB - 1, 'a shorter tail rides with this one');
});

test('a chunk shorter than the current size (the last) teaches nothing', () => {
  const sizer = new ChunkSizer('adaptive');
  sizer.observeRoundTrip(100);
  const size = sizer.next(0, 1024 * MiB);
  sizer.record(size / 2, 1);
  assert.equal(sizer.next(0, 1024 * MiB), size);
});

// A chunk size that is not a multiple of 256 KiB is refused once, by resolveSettings (engine.test.ts).
test('fixed chunks: no tail folded in, not halved by a failure', () => {
  const fixed = new ChunkSizer(8 * MiB);
  assert.equal(fixed.next(0, 12 * MiB), 8 * MiB);
  fixed.shrink();
  assert.equal(fixed.next(0, 64 * MiB), 8 * MiB);
});
