/**
 * Runs `work` on each item in slices of about `budgetMs`, yielding to the browser between slices, so adding
 * 10,000 files never blocks the main thread for one long task (each `uploader.add` hands a file to the worker and
 * costs tens of microseconds; 10,000 of them in one loop was a 100 ms task). The budget is small because the work
 * queues about as much again in microtasks (the hand-over to the worker), which run before the slice ends.
 */
export async function inSlices<T>(items: readonly T[], work: (item: T) => void, budgetMs = 4): Promise<void> {
  let sliceStart = performance.now();
  for (const item of items) {
    if (performance.now() - sliceStart > budgetMs) {
      await yieldToBrowser();
      sliceStart = performance.now();
    }
    work(item);
  }
}

type Scheduler = { yield?: () => Promise<void> };

/** `scheduler.yield()` where the browser has it (continuation first in line), else a message-channel turn. */
function yieldToBrowser(): Promise<void> {
  const scheduler = (globalThis as { scheduler?: Scheduler }).scheduler;
  if (scheduler?.yield) return scheduler.yield();
  return new Promise((done) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => done();
    channel.port2.postMessage(undefined);
  });
}
