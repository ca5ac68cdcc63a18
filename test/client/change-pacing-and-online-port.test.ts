// Two small parts of the page side, run as they are: the page's `change` pacing for a long list (at most one per
// 100 ms once it has more than 200 tasks; issue 39's survivor of page/change-signal.ts) and the hand-driven
// connectivity port's unsubscribe (issue 39's survivor of adapters/manual-online.ts).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ManualOnline } from '../../src/uploader/adapters/manual-online.ts';
import { ChangeSignal } from '../../src/uploader/page/change-signal.ts';

/** The long-list interval (page/change-signal.ts); timers never fire early, so a gap below it is the pacing's fault. */
const LONG_LIST_INTERVAL_MS = 100;

/** Fire times of a signal that is scheduled again at each fire, until it fired `count` times. */
function fires(size: number, count: number): Promise<number[]> {
  return new Promise((resolve) => {
    const at: number[] = [];
    const signal = new ChangeSignal(
      () => {
        at.push(performance.now());
        if (at.length === count) resolve(at);
        else signal.schedule();
      },
      { size },
    );
    signal.schedule();
  });
}

test('a list longer than 200 tasks changes at most once per 100 ms, however often something changes', async () => {
  const at = await fires(201, 4);
  const gaps = at.slice(1).map((t, i) => t - at[i]!);
  for (const gap of gaps) assert.ok(gap >= LONG_LIST_INTERVAL_MS - 1, `gaps ${gaps.map(Math.round).join(', ')} ms`);
});

test('the connectivity port stops telling a listener once it unsubscribed', () => {
  const port = new ManualOnline(true);
  const heard: boolean[] = [];
  const stop = port.subscribe((online) => heard.push(online));
  port.set(false);
  stop();
  port.set(true);
  assert.deepEqual(heard, [false]);
  assert.equal(port.isOnline(), true);
});
