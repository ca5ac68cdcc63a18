// The page uploader's environment ports where there is no window (Node 20, server-side rendering): connectivity
// says "online" with no `navigator`, follows the `online`/`offline` events of a scope that has them, and holding
// navigation is a no-op instead of a ReferenceError (issue 39's mutants of page/page-environment.ts and
// page/navigation-hold.ts).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { navigatorOnline, watchPage } from '../../src/uploader/page/page-environment.ts';
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

/**
 * Runs `body` with the global scope given `addEventListener`/`removeEventListener` of an EventTarget, as a window
 * has them, and returns that target to dispatch on; Node's own global scope has neither.
 */
function withWindowEvents(body: (target: EventTarget) => void): void {
  const scope = globalThis as { addEventListener?: unknown; removeEventListener?: unknown };
  assert.equal(scope.addEventListener, undefined, 'Node 20 has no global addEventListener');
  const target = new EventTarget();
  scope.addEventListener = target.addEventListener.bind(target);
  scope.removeEventListener = target.removeEventListener.bind(target);
  try {
    body(target);
  } finally {
    delete scope.addEventListener;
    delete scope.removeEventListener;
  }
}

/** A `pageshow` event; `persisted`: the page came back from the back/forward cache. */
const pageshow = (persisted: boolean): Event => Object.assign(new Event('pageshow'), { persisted });

test('watchPage: where there is no window scope it listens to nothing', () => {
  const stop = watchPage(
    () => assert.fail('no connectivity event here'),
    () => assert.fail('no pageshow here'),
  );
  stop();
});

test('watchPage tells connectivity changes and a page back from the back/forward cache, until stopped', () => {
  withWindowEvents((target) => {
    const heard: string[] = [];
    const stop = watchPage(
      (online) => heard.push(online ? 'online' : 'offline'),
      () => heard.push('restored'),
    );
    target.dispatchEvent(pageshow(false)); // a fresh load: nothing to catch up with
    target.dispatchEvent(new Event('offline'));
    target.dispatchEvent(pageshow(true));
    target.dispatchEvent(new Event('online'));
    stop();
    target.dispatchEvent(pageshow(true));
    target.dispatchEvent(new Event('offline'));
    assert.deepEqual(heard, ['offline', 'restored', 'online']);
  });
});
