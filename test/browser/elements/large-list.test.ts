/// <reference types="mocha" />
/**
 * 10,000 rows from the real worker uploader against the real service (issue 12): small files added through
 * `<store-dropzone>` (in slices), live progress, scrolling to the end while they upload. Asserts at least 8 rows
 * visible at once in the default 24rem list, the last row reached by keyboard (End), every file stored. Main-thread
 * long tasks are counted and logged; the "none over 50 ms" target is not met yet (see the test).
 */
import { expect, fixture, fixtureCleanup, html, waitUntil } from '@open-wc/testing';
import '../../../src/elements/dropzone/define.ts';
import '../../../src/elements/progress-list/define.ts';
import type { StoreDropzone } from '../../../src/elements/dropzone/store-dropzone.ts';
import type { StoreProgressList } from '../../../src/elements/progress-list/store-progress-list.ts';
import { createUploader } from '../../../src/uploader/index.ts';
import type { Uploader } from '../../../src/uploader/index.ts';
import { ScriptedUploader } from '../../../src/testing/scripted-uploader.ts';
import { manyTasks } from '../../../src/testing/many-tasks.ts';
import { serviceUrl } from '../uploader/helpers.ts';
import './helpers.ts';

const ROWS = 10_000;
const rows = (el: StoreProgressList): HTMLElement[] => [...el.shadowRoot!.querySelectorAll<HTMLElement>('[role="listitem"]')];
const scroller = (el: StoreProgressList): HTMLElement => el.shadowRoot!.querySelector<HTMLElement>('[part="list"]')!;
const frame = (): Promise<void> => new Promise((done) => requestAnimationFrame(() => done()));
const press = (target: Element, key: string): boolean =>
  target.dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true, composed: true, cancelable: true }));
const focusedRow = (el: StoreProgressList): string | null | undefined =>
  (el.shadowRoot!.activeElement as HTMLElement | null)?.closest('[role="listitem"]')?.getAttribute('aria-posinset');

/** Rows whose box intersects the scroller's box by at least half a row. */
function visibleRows(el: StoreProgressList): number {
  const box = scroller(el).getBoundingClientRect();
  return rows(el).filter((r) => {
    const b = r.getBoundingClientRect();
    return Math.min(b.bottom, box.bottom) - Math.max(b.top, box.top) >= b.height / 2;
  }).length;
}

describe('<store-progress-list> with many rows', () => {
  it('grows with its rows up to 24rem at every row count, with and without the virtualizer', async () => {
    for (const count of [1, 5, 8, 12, 200, 201, 10_000]) {
      fixtureCleanup();
      const uploader = new ScriptedUploader({ tasks: manyTasks(count) });
      const el = await fixture<StoreProgressList>(html`<store-progress-list .uploader=${uploader}></store-progress-list>`);
      await el.updateComplete;
      await waitUntil(() => rows(el).length > 0 && rows(el)[0]!.offsetHeight > 0, `rows of ${count}: ${rows(el).length} rows, list ${scroller(el)?.clientHeight}px, ${scroller(el)?.getAttribute('style')}`);
      await frame();
      const rowHeight = rows(el)[0]!.offsetHeight;
      const rem = parseFloat(getComputedStyle(document.documentElement).fontSize);
      expect(rowHeight, 'row height').to.be.within(40, 60);
      expect(scroller(el).clientHeight, `list height at ${count} rows`).to.be.closeTo(Math.min(count * rowHeight, 24 * rem), 2);
      expect(visibleRows(el), `visible rows at ${count}`).to.equal(Math.min(count, 8));
    }
  });

  it('moves focus with ↑/↓/Home/End and reaches the last of 10,000 virtualized rows', async () => {
    const uploader = new ScriptedUploader({ tasks: manyTasks(ROWS) });
    const el = await fixture<StoreProgressList>(html`<store-progress-list .uploader=${uploader}></store-progress-list>`);
    await waitUntil(() => rows(el).length > 0);
    rows(el)[0]!.focus();
    press(rows(el)[0]!, 'ArrowDown');
    await waitUntil(() => focusedRow(el) === '2', 'ArrowDown did not move to row 2');
    press(el.shadowRoot!.activeElement!, 'End');
    await waitUntil(() => focusedRow(el) === String(ROWS), 'End did not reach the last row');
    expect(rows(el).length).to.be.lessThan(100);
    press(el.shadowRoot!.activeElement!, 'Home');
    await waitUntil(() => focusedRow(el) === '1', 'Home did not go back to the first row');
  });

  it('10,000 real uploads: added in slices, live progress while scrolling to the end, ≥ 8 rows visible, last row by keyboard', async function () {
    this.timeout(300_000);
    const longTasks: number[] = [];
    const observer = new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) longTasks.push(entry.duration);
    });
    observer.observe({ type: 'longtask' });
    const uploader: Uploader = createUploader({ baseUrl: await serviceUrl(), getAccessToken: () => 'dev-token-alice', concurrency: 6 });
    try {
      const wrapper = await fixture(html`<div><store-dropzone multiple></store-dropzone><store-progress-list></store-progress-list></div>`);
      const dropzone = wrapper.querySelector<StoreDropzone>('store-dropzone')!;
      const list = wrapper.querySelector<StoreProgressList>('store-progress-list')!;
      dropzone.uploader = uploader;
      list.uploader = uploader;
      const files = Array.from({ length: ROWS }, (_, i) => new File([`file ${i}\n`], `f${String(i).padStart(5, '0')}.txt`, { type: 'text/plain' }));
      await dropzone.addFiles(files.map((file) => ({ file, relativePath: file.name })));
      expect(uploader.snapshot.tasks).to.have.length(ROWS);
      await waitUntil(() => rows(list).length > 0, 'no rows');

      // Scroll to the end in steps while uploads run, checking the rows on screen at each step.
      const s = scroller(list);
      let minVisible = Infinity;
      let sawProgress = false;
      while (s.scrollTop + s.clientHeight < s.scrollHeight - 1) {
        s.scrollTop += s.clientHeight * 25;
        await frame();
        await frame();
        minVisible = Math.min(minVisible, visibleRows(list));
        sawProgress ||= uploader.snapshot.tasks.some((t) => t.state === 'done');
      }
      // The virtualizer sizes its content after a layout: scroll to the end again until that end is final.
      await waitUntil(
        () => {
          s.scrollTop = s.scrollHeight;
          return rows(list).some((r) => r.getAttribute('aria-posinset') === String(ROWS));
        },
        'the last row never rendered',
        { timeout: 15_000 },
      );
      expect(minVisible, 'rows visible at once').to.be.at.least(8);
      expect(sawProgress, 'uploads moved while scrolling').to.equal(true);

      // Back to the top with the keyboard, then End to the last row.
      const first = rows(list).find((r) => r.getAttribute('aria-posinset') !== null)!;
      first.focus();
      press(first, 'Home');
      await waitUntil(() => focusedRow(list) === '1', 'Home did not reach the first row');
      press(list.shadowRoot!.activeElement!, 'End');
      await waitUntil(() => focusedRow(list) === String(ROWS), 'End did not reach the last row');
      await waitUntil(() => uploader.snapshot.tasks.every((t) => t.state === 'done'), 'not every upload finished', { timeout: 240_000, interval: 500 });
      await frame();
      // Not met yet (issue 12): each re-layout of the ~50 rendered rows by the virtualizer and a jump of 25 screens
      // still take 50–200 ms tasks on this shared 2-core machine (bench/README.md, render). Until they are under
      // 50 ms the figure is reported by `npm run bench -- render`, not asserted here.
      console.log(`long tasks over 50 ms: ${longTasks.filter((d) => d > 50).length}`);
    } finally {
      observer.disconnect();
      uploader.destroy();
    }
  });
});
