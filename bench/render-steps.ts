/**
 * The page-side steps the render bench takes over every list it compares (the kit's `<store-progress-list>` and the
 * plain baseline of `render-baseline.ts`), so each is scrolled and driven by keyboard the same way: `scrollToEnd`
 * jumps 25 screens at a time, two frames each, to the end; `homeEnd` focuses the first row in view, presses Home
 * until row 1 has the focus, then End until the last row has it. `frames` collects the long animation frames (over
 * 50 ms) with what ran in them.
 */
import { PAGE_PRELUDE } from './bench-page.ts';

export const PAGE_STEPS = `${PAGE_PRELUDE}
const frame = () => new Promise((done) => requestAnimationFrame(() => done()));
const until = async (test, what, ms = 240000) => { const end = performance.now() + ms; while (!test()) { if (performance.now() > end) throw new Error('timed out: ' + what); await new Promise((d) => setTimeout(d, 50)); } };
const pause = (ms) => new Promise((d) => setTimeout(d, ms));
const frames = [];
const file = (url) => (url ? new URL(url).pathname : '');
new PerformanceObserver((list) => { for (const f of list.getEntries()) if (f.duration > 50) frames.push({ start: Math.round(f.startTime), duration: Math.round(f.duration),
  what: f.scripts.filter((s) => s.duration >= 1).sort((a, b) => b.duration - a.duration).slice(0, 4).map((s) => s.invoker + ' → ' + (s.sourceFunctionName || '(anonymous)') + ' ' + file(s.sourceURL) + ' ' + Math.round(s.duration) + ' ms').join('; ') + (f.renderStart > 0 ? '; rendering ' + Math.round(f.startTime + f.duration - f.renderStart) + ' ms' : '') }); })
  .observe({ type: 'long-animation-frame' });
/** Rows (of those rowEls() gives) whose box is at least half inside the scroller's. */
const inView = (s, rowEls) => { const box = s.getBoundingClientRect(); return rowEls().filter((r) => { const b = r.getBoundingClientRect(); return Math.min(b.bottom, box.bottom) - Math.max(b.top, box.top) >= b.height / 2; }); };
const scrollToEnd = async (s, rowEls) => {
  let minVisibleRows = Infinity;
  let maxRenderedRows = 0;
  while (s.scrollTop + s.clientHeight < s.scrollHeight - 1) {
    s.scrollTop += s.clientHeight * 25;
    await frame();
    await frame();
    minVisibleRows = Math.min(minVisibleRows, inView(s, rowEls).length);
    maxRenderedRows = Math.max(maxRenderedRows, rowEls().length);
  }
  return { minVisibleRows, maxRenderedRows };
};
/** root: where the focus is read (the list's shadow root, or document). */
const homeEnd = async (root, s, rowEls, rows) => {
  inView(s, rowEls)[0].focus();
  const key = (k) => root.activeElement.dispatchEvent(new KeyboardEvent('keydown', { key: k, bubbles: true, composed: true, cancelable: true }));
  const focusedRow = () => root.activeElement?.closest('[role="listitem"]')?.getAttribute('aria-posinset');
  key('Home');
  await until(() => focusedRow() === '1', 'Home', 10000);
  key('End');
  await until(() => focusedRow() === String(rows), 'End', 10000);
};
`;
