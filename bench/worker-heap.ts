/**
 * The JS heap of a worker, read over the Chrome DevTools Protocol from the browser's own session: shared workers and
 * dedicated workers are both targets of the browser (`shared_worker`, `worker`). Playwright's `CDPSession` sends only
 * on its own session, so the worker's session is a non-flat one (`flatten: false`) and its commands travel inside
 * `Target.sendMessageToTarget` / `Target.receivedMessageFromTarget`.
 */
import type { CDPSession, Page } from 'playwright-core';

/** A worker's target, found by type and script URL in the browser context of `page`. */
export async function findWorkerTarget(
  cdp: CDPSession,
  page: Page,
  type: 'shared_worker' | 'worker',
  url: RegExp,
): Promise<string> {
  const { targetInfos } = await cdp.send('Target.getTargets');
  const context = targetInfos.find((t) => t.type === 'page' && t.url === page.url())?.browserContextId;
  const found = targetInfos.find((t) => t.type === type && url.test(t.url) && t.browserContextId === context);
  if (!found) throw new Error(`no ${type} target ${url} in ${JSON.stringify(targetInfos.map((t) => [t.type, t.url]))}`);
  return found.targetId;
}

/** Bytes of JS heap the worker uses after two full garbage collections (`Runtime.getHeapUsage`'s `usedSize`). */
export async function workerHeapAfterGc(cdp: CDPSession, targetId: string): Promise<number> {
  const { sessionId } = await cdp.send('Target.attachToTarget', { targetId, flatten: false });
  let lastId = 0;
  const call = (method: string) =>
    new Promise<Record<string, unknown>>((resolve, reject) => {
      const id = ++lastId;
      const heard = (event: { sessionId: string; message: string }) => {
        const message = JSON.parse(event.message) as { id?: number; result?: Record<string, unknown>; error?: unknown };
        if (event.sessionId !== sessionId || message.id !== id) return;
        cdp.off('Target.receivedMessageFromTarget', heard);
        if (message.error) reject(new Error(`${method}: ${JSON.stringify(message.error)}`));
        else resolve(message.result ?? {});
      };
      cdp.on('Target.receivedMessageFromTarget', heard);
      cdp.send('Target.sendMessageToTarget', { sessionId, message: JSON.stringify({ id, method }) }).catch(reject);
    });
  try {
    await call('HeapProfiler.collectGarbage');
    await call('HeapProfiler.collectGarbage');
    return (await call('Runtime.getHeapUsage')).usedSize as number;
  } finally {
    await cdp.send('Target.detachFromTarget', { sessionId }).catch(() => undefined);
  }
}

/** The same for a page's own main thread. */
export async function pageHeapAfterGc(page: Page): Promise<number> {
  const cdp = await page.context().newCDPSession(page);
  try {
    await cdp.send('HeapProfiler.collectGarbage');
    await cdp.send('HeapProfiler.collectGarbage');
    return (await cdp.send('Runtime.getHeapUsage')).usedSize;
  } finally {
    await cdp.detach();
  }
}
