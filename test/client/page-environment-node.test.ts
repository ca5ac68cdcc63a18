// The page uploader's environment ports where there is no window (Node 20, server-side rendering): connectivity
// says "online" with no `navigator`, follows the `online`/`offline` events of a scope that has them, and holding
// navigation is a no-op instead of a ReferenceError (issue 39's mutants of page/page-environment.ts and
// page/navigation-hold.ts).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { navigatorOnline } from '../../src/uploader/page/page-environment.ts';
import { holdingNavigation, holdNavigation } from '../../src/uploader/page/navigation-hold.ts';

test('with no navigator, connectivity is online; a scope without events gives a subscription that does nothing', () => {
  assert.equal(typeof (globalThis as { navigator?: unknown }).navigator, 'undefined', 'Node 20 has no navigator');
  const port = navigatorOnline(undefined);
  assert.equal(port.isOnline(), true);
  const heard: boolean[] = [];
  const stop = port.subscribe((online) => heard.push(online));
  stop();
  assert.deepEqual(heard, []);
});

test("a scope's offline and online events reach the subscriber, in order, until it stops listening", () => {
  const scope = new EventTarget();
  const heard: boolean[] = [];
  const stop = navigatorOnline(scope).subscribe((online) => heard.push(online));
  scope.dispatchEvent(new Event('offline'));
  scope.dispatchEvent(new Event('online'));
  stop();
  scope.dispatchEvent(new Event('offline'));
  assert.deepEqual(heard, [false, true]);
});

test('holding navigation where there is no window does nothing and lets the work through', async () => {
  const release = holdNavigation();
  release();
  release();
  assert.equal(await holdingNavigation(Promise.resolve('added')), 'added');
});
