// The progress meter on a hand-driven clock: byte counts, speed and ETA, and the pace of its snapshots.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ProgressMeter } from '../../src/uploader/engine/progress-meter.ts';
import type { ClockPort } from '../../src/uploader/contract/ports.ts';
import type { TaskSnapshot } from '../../src/uploader/contract/types.ts';

/** A clock moved by the test; `sleep` resolves when the test moves it past the sleep's end. */
class HandClock implements ClockPort {
  at = 1000;
  private sleepers: { until: number; resolve: () => void }[] = [];
  now(): number {
    return this.at;
  }
  sleep(ms: number, signal: AbortSignal): Promise<void> {
    return new Promise((resolve, reject) => {
      if (signal.aborted) return reject(signal.reason as Error);
      this.sleepers.push({ until: this.at + ms, resolve });
      signal.addEventListener('abort', () => reject(signal.reason as Error), { once: true });
    });
  }
  /** Moves time forward and lets every sleep that ended run. */
  async advance(ms: number): Promise<void> {
    this.at += ms;
    const due = this.sleepers.filter((s) => s.until <= this.at);
    this.sleepers = this.sleepers.filter((s) => s.until > this.at);
    for (const s of due) s.resolve();
    // The heartbeat's loop reaches its next sleep a few microtasks after its wake-up.
    for (let i = 0; i < 10; i++) await Promise.resolve();
  }
  get sleeping(): number {
    return this.sleepers.length;
  }
}

function meter(total = 10_000) {
  const clock = new HandClock();
  const snapshot = {
    state: 'uploading',
    total,
    bytesSent: 0,
    bytesAcknowledged: 0,
    speed: 0,
    inOtherTab: false,
  } as unknown as TaskSnapshot;
  const emitted: number[] = [];
  const m = new ProgressMeter(snapshot, clock, () => emitted.push(clock.now()));
  return { clock, snapshot, emitted, m };
}

test('bytes sent follow the request, bounded by what was acknowledged and by the total', () => {
  const { snapshot, m } = meter(10_000);
  m.sent(400);
  assert.equal(snapshot.bytesSent, 400);
  m.sent(20_000);
  assert.equal(snapshot.bytesSent, 10_000, 'never past the total');
  m.acknowledged(3000);
  assert.equal(snapshot.bytesAcknowledged, 3000);
  assert.equal(snapshot.bytesSent, 3000, 'an acknowledgement resets the bytes sent to what was kept');
  m.sent(1000);
  assert.equal(snapshot.bytesSent, 3000, 'never below what was acknowledged');
});

test('at most ten snapshots a second from byte counts; every acknowledgement sends one at once', async () => {
  const { clock, emitted, m } = meter();
  m.sent(1);
  assert.deepEqual(emitted, [1000]);
  await clock.advance(99);
  m.sent(2);
  assert.deepEqual(emitted, [1000], '99 ms later: none');
  await clock.advance(1);
  m.sent(3);
  assert.deepEqual(emitted, [1000, 1100], '100 ms later: one');
  await clock.advance(10);
  m.acknowledged(3);
  assert.deepEqual(emitted, [1000, 1100, 1110]);
  await clock.advance(99);
  m.sent(4);
  assert.equal(emitted.length, 3, 'the pace counts from the acknowledgement too');
});

test('speed: measured over at least 250 ms, then smoothed 0.7 old + 0.3 new; ETA from it', async () => {
  const { clock, snapshot, m } = meter(100_000);
  m.sent(1000);
  assert.equal(snapshot.speed, 0, 'one sample is no speed');
  assert.equal(snapshot.etaMs, undefined);
  await clock.advance(249);
  m.sent(5000);
  assert.equal(snapshot.speed, 0, 'under 250 ms: not measured yet');
  await clock.advance(1);
  m.sent(6000);
  // 5000 bytes in 250 ms.
  assert.equal(snapshot.speed, 20_000);
  assert.equal(snapshot.etaMs, ((100_000 - 6000) * 1000) / 20_000);
  await clock.advance(500);
  m.sent(11_000);
  // 5000 bytes in 500 ms: 10,000 B/s, smoothed.
  assert.equal(snapshot.speed, 0.7 * 20_000 + 0.3 * 10_000);
  assert.equal(snapshot.etaMs, ((100_000 - 11_000) * 1000) / 17_000);
  await clock.advance(300);
  m.sent(11_000);
  assert.equal(snapshot.speed, 17_000, 'no bytes moved: the speed is not changed');
  await clock.advance(300);
  m.sent(14_000);
  // Measured from the sample 300 ms ago (taken even though nothing moved then).
  assert.equal(snapshot.speed, 0.7 * 17_000 + 0.3 * 10_000);
});

test('a heartbeat sends a snapshot every 125 ms while nothing else did, only while uploading here, until aborted', async () => {
  const { clock, snapshot, emitted, m } = meter();
  const stop = new AbortController();
  const beating = m.heartbeat(stop.signal);
  assert.equal(clock.sleeping, 1);
  await clock.advance(124);
  assert.deepEqual(emitted, []);
  await clock.advance(1);
  assert.deepEqual(emitted, [1125]);
  await clock.advance(100);
  m.sent(10);
  assert.deepEqual(emitted, [1125, 1225], 'bytes sent 100 ms later');
  await clock.advance(25);
  // The heartbeat woke at 1250: the last snapshot was 25 ms ago, so none.
  assert.deepEqual(emitted, [1125, 1225]);
  await clock.advance(125);
  assert.deepEqual(emitted, [1125, 1225, 1375]);
  snapshot.inOtherTab = true;
  await clock.advance(125);
  assert.equal(emitted.length, 3, 'not while another tab runs the upload');
  snapshot.inOtherTab = false;
  snapshot.state = 'paused';
  await clock.advance(125);
  assert.equal(emitted.length, 3, 'not while the task is not uploading');
  snapshot.state = 'uploading';
  await clock.advance(125);
  assert.equal(emitted.length, 4);
  stop.abort(new Error('attempt ended'));
  await beating;
  await clock.advance(1000);
  assert.equal(emitted.length, 4, 'nothing after the abort');
});

test('the heartbeat counts from the last snapshot of any kind: exactly 125 ms after it, one goes out', async () => {
  const { clock, emitted, m } = meter();
  const stop = new AbortController();
  await clock.advance(250);
  // A snapshot at 1250, then a heartbeat started with it: it wakes at 1375, exactly 125 ms later.
  m.acknowledged(1);
  const beating = m.heartbeat(stop.signal);
  await clock.advance(124);
  assert.deepEqual(emitted, [1250]);
  await clock.advance(1);
  assert.deepEqual(emitted, [1250, 1375]);
  // An acknowledgement 5 ms later: the wake-up at 1500 is 120 ms after it, so none.
  await clock.advance(5);
  m.acknowledged(2);
  await clock.advance(120);
  assert.deepEqual(emitted, [1250, 1375, 1380]);
  stop.abort(new Error('attempt ended'));
  await beating;
});
