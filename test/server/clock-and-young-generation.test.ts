/**
 * Two small process-level parts of the service, called directly: the test clock (`server/clock.ts`), which moves
 * only forward by a finite number of ms and tells its listener the new offset, and the young generation's rule
 * (`server/young-generation.ts`): once the command turned it on, every 2 MiB of body bytes seen runs one minor
 * collection (seen here as the process's own `gc` performance entries), and before that it does nothing.
 */
import assert from 'node:assert/strict';
import { constants, type PerformanceEntry, PerformanceObserver, performance } from 'node:perf_hooks';
import { test } from 'node:test';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { createClock } from '../../server/clock.ts';
import { bodyBytesSeen, keepYoungGenerationSmall } from '../../server/young-generation.ts';

test('the clock moves forward by what it is told, tells its listener, and refuses a negative or non-finite step', () => {
  const told: number[] = [];
  const clock = createClock(1000, (offset) => told.push(offset));
  clock.advance(0);
  clock.advance(250);
  assert.equal(clock.offsetMs, 1250);
  assert.deepEqual(told, [1000, 1250]);
  const before = Date.now();
  const now = clock.now();
  const after = Date.now();
  assert.ok(now >= before + 1250 && now <= after + 1250, `${before} ${now} ${after}`);
  for (const bad of [-1, -0.5, Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY]) {
    assert.throws(() => clock.advance(bad), {
      name: 'RangeError',
      message: 'advance needs a finite, non-negative number of ms',
    });
  }
  assert.equal(clock.offsetMs, 1250, 'a refused step moves nothing');
  assert.deepEqual(told, [1000, 1250]);
});

test('a clock without a listener advances too', () => {
  const clock = createClock();
  clock.advance(42);
  assert.equal(clock.offsetMs, 42);
  clock.follow(10);
  assert.equal(clock.offsetMs, 42, 'following never moves it back');
});

test('body bytes run a minor collection every 2 MiB once the rule is on, and nothing before', async () => {
  const EVERY = 2 * 1024 * 1024;
  // A full collection of our own (`gc()` with no options) marks the end of each step: the observer hands entries over in order, so once it
  // has the marker's, it has every collection that came before.
  setFlagsFromString('--expose-gc');
  const marker = runInNewContext('gc') as () => void;
  setFlagsFromString('--no-expose-gc');
  const entries: PerformanceEntry[] = [];
  let seen: (() => void) | undefined;
  const observer = new PerformanceObserver((list) => {
    entries.push(...list.getEntries());
    seen?.();
  });
  observer.observe({ entryTypes: ['gc'] });
  // The observer's deliveries do not keep the process running on their own.
  const alive = setInterval(() => undefined, 60_000);
  const kind = (e: PerformanceEntry) => (e as PerformanceEntry & { detail: { kind: number } }).detail.kind;
  /** Runs `step`, then counts the minor collections that started while it ran. */
  const minorDuring = async (step: () => void) => {
    const from = performance.now();
    step();
    const to = performance.now();
    marker();
    await new Promise<void>((resolve) => {
      seen = () => {
        if (entries.some((e) => e.startTime >= to && kind(e) === constants.NODE_PERFORMANCE_GC_MAJOR)) resolve();
      };
      seen();
    });
    const minor = entries.filter(
      (e) => e.startTime >= from && e.startTime <= to && kind(e) === constants.NODE_PERFORMANCE_GC_MINOR,
    );
    entries.length = 0;
    return minor.length;
  };
  try {
    // Not turned on (a server that mounts the handler): nothing happens, however many bytes.
    assert.equal(await minorDuring(() => bodyBytesSeen(3 * EVERY)), 0);
    keepYoungGenerationSmall();
    assert.equal(await minorDuring(() => bodyBytesSeen(EVERY - 1)), 0, 'one byte short of 2 MiB: no collection yet');
    assert.equal(await minorDuring(() => bodyBytesSeen(1)), 1, 'the 2 MiB-th byte: one minor collection');
    assert.equal(await minorDuring(() => bodyBytesSeen(EVERY - 1)), 0, 'the count starts again after it');
  } finally {
    observer.disconnect();
    clearInterval(alive);
  }
});
