/// <reference types="mocha" />
/**
 * 10,000 rows from the real worker uploader against the real service (issue 12): small files added through
 * `<store-dropzone>` (in slices), live progress, scrolling to the end while they upload. Asserts at least 8 rows
 * visible at once in the default 24rem list, the last row reached by keyboard (End), every file stored, and no
 * main-thread task over 50 ms from the first file added to the last one stored.
 */
import { expect, fixture, fixtureCleanup, html, waitUntil } from '@open-wc/testing';
import '../../../src/elements/dropzone/define.ts';
import '../../../src/elements/progress-list/define.ts';
import type { StoreDropzone } from '../../../src/elements/dropzone/store-dropzone.ts';
import type { StoreProgressList } from '../../../src/elements/progress-list/store-progress-list.ts';
import { createUploader } from '../../../src/uploader/index.ts';
import type { Uploader } from '../../../src/uploader/index.ts';
import { ScriptedUploader } from '../../fixtures/scripted-uploader.ts';
import { manyTasks } from '../../fixtures/many-tasks.ts';
import { serviceUrl } from '../uploader/helpers.ts';
import { watchMainThread, type MainThreadReport } from './long-tasks.ts';
import './helpers.ts';

const ROWS = 10_000;
const rows = (el: StoreProgressList): HTMLElement[] => [
  ...el.shadowRoot!.querySelectorAll<HTMLElement>('[role="listitem"]'),
];
const scroller = (el: StoreProgressList): HTMLElement => el.shadowRoot!.querySelector<HTMLElement>('[part="list"]')!;
const frame = (): Promise<void> => new Promise((done) => requestAnimationFrame(() => done()));
const press = (target: Element, key: string): boolean =>
  target.dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true, composed: true, cancelable: true }));
const focusedRow = (el: StoreProgressList): string | null | undefined =>
  (el.shadowRoot!.activeElement as HTMLElement | null)?.closest('[role="listitem"]')?.getAttribute('aria-posinset');

/** How many tasks are in each state, with the codes and messages of the failed ones. */
function statesOf(uploader: Uploader): string {
  const counts = new Map<string, number>();
  for (const t of uploader.snapshot.tasks) {
    const why = t.error ? ` (${t.error.code}: ${t.error.message})` : t.retry ? ` (retry: ${t.retry.cause})` : '';
    const key = t.state + why;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  const open = uploader.snapshot.tasks.filter((t) => t.state !== 'done').slice(0, 2);
  return [...counts].map(([key, n]) => `${n} ${key}`).join(', ') + `; first not done: ${JSON.stringify(open)}`;
}

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
      const el = await fixture<StoreProgressList>(
        html`<store-progress-list .uploader=${uploader}></store-progress-list>`,
      );
      await el.updateComplete;
      await waitUntil(
        () => rows(el).length > 0 && rows(el)[0].offsetHeight > 0,
        `rows of ${count}: ${rows(el).length} rows, list ${scroller(el)?.clientHeight}px, ${scroller(el)?.getAttribute('style')}`,
      );
      await frame();
      const rowHeight = rows(el)[0].offsetHeight;
      const rem = parseFloat(getComputedStyle(document.documentElement).fontSize);
      expect(rowHeight, 'row height').to.be.within(40, 60);
      expect(scroller(el).clientHeight, `list height at ${count} rows`).to.be.closeTo(
        Math.min(count * rowHeight, 24 * rem),
        2,
      );
      expect(visibleRows(el), `visible rows at ${count}`).to.equal(Math.min(count, 8));
    }
  });

  it('moves focus with ↑/↓/Home/End and reaches the last of 10,000 virtualized rows', async () => {
    const uploader = new ScriptedUploader({ tasks: manyTasks(ROWS) });
    const el = await fixture<StoreProgressList>(
      html`<store-progress-list .uploader=${uploader}></store-progress-list>`,
    );
    await waitUntil(() => rows(el).length > 0);
    rows(el)[0].focus();
    press(rows(el)[0], 'ArrowDown');
    await waitUntil(() => focusedRow(el) === '2', 'ArrowDown did not move to row 2');
    press(el.shadowRoot!.activeElement!, 'End');
    await waitUntil(() => focusedRow(el) === String(ROWS), 'End did not reach the last row');
    expect(rows(el).length).to.be.lessThan(100);
    press(el.shadowRoot!.activeElement!, 'Home');
    await waitUntil(() => focusedRow(el) === '1', 'Home did not go back to the first row');
  });

  it('renders the rows around the view, in order, while scrolled a little at a time, and keeps the view full as the list shrinks', async () => {
    const uploader = new ScriptedUploader({ tasks: manyTasks(1000) });
    const el = await fixture<StoreProgressList>(
      html`<store-progress-list .uploader=${uploader}></store-progress-list>`,
    );
    await waitUntil(() => rows(el).length > 0 && rows(el)[0].offsetHeight > 0);
    const s = scroller(el);
    const rowHeight = rows(el)[0].offsetHeight;
    const positions = () => rows(el).map((r) => Number(r.getAttribute('aria-posinset')));
    for (let step = 0; step < 30; step++) {
      s.scrollTop += Math.round(rowHeight * 0.77);
      await frame();
      await frame();
      const shown = positions();
      expect(shown, 'contiguous rows in order').to.deep.equal(shown.map((_, i) => shown[0] + i));
      const top = Math.floor(s.scrollTop / rowHeight) + 1;
      expect(shown, `rows ${top}–${top + 8} in view at ${s.scrollTop}px`).to.include.members(
        [top, top + 8].map((n) => Math.min(n, 1000)),
      );
      expect(visibleRows(el)).to.be.at.least(8);
      expect(shown.length).to.be.lessThan(25);
    }
    // Scrolled to the end, the finished rows go: the view stays full and ends with the new last row.
    s.scrollTop = s.scrollHeight;
    await frame();
    await frame();
    for (const task of uploader.snapshot.tasks) if (task.state === 'done') uploader.remove(task.id);
    const left = uploader.snapshot.tasks.length;
    await waitUntil(
      () => positions().includes(left) && rows(el)[0].getAttribute('aria-setsize') === String(left),
      'the list did not follow the removals',
    );
    await frame();
    await frame();
    expect(visibleRows(el)).to.equal(8);
    expect(s.scrollTop + s.clientHeight).to.be.closeTo(s.scrollHeight, 1);
  });

  it('uses the rows that scroll out for those that scroll in, but never hands the focused row to another task', async () => {
    const uploader = new ScriptedUploader({ tasks: manyTasks(1000) });
    const el = await fixture<StoreProgressList>(
      html`<store-progress-list .uploader=${uploader}></store-progress-list>`,
    );
    await waitUntil(() => rows(el).length > 0 && rows(el)[0]!.offsetHeight > 0);
    const s = scroller(el);
    const before = rows(el);
    const focused = before[2]!;
    focused.focus();
    const focusedId = focused.dataset['id'];
    s.scrollTop = s.scrollHeight / 2;
    await waitUntil(() => rows(el)[0]!.getAttribute('aria-posinset') !== '1', 'the jump did not render new rows');
    const after = rows(el);
    expect(after.map((r) => r.dataset['id'])).to.not.include(focusedId);
    // Every row now on screen but one is a row of before, showing another task; the focused one was not used again.
    expect(after.filter((r) => before.includes(r)).length, 'rows used again').to.equal(before.length - 1);
    expect(after, 'the focused row is not used for another task').to.not.include(focused);
  });

  it('10,000 real uploads: added in slices, live progress while scrolling to the end, ≥ 8 rows visible, last row by keyboard, no task over 50 ms', async function () {
    // Long enough for 10,000 uploads with both cores busy (about 50 a second at load 18); a stall fails sooner, below.
    this.timeout(600_000);
    // Making 10,000 File objects is the test's own work: done before the main thread is watched.
    const files = Array.from(
      { length: ROWS },
      (_, i) => new File([`file ${i}\n`], `f${String(i).padStart(5, '0')}.txt`, { type: 'text/plain' }),
    );
    // The default host: the site's shared worker in Chromium (the page's own worker runs the same engine; bench/README.md,
    // render, compares the two), with an engine of this test's own there (its `shareKey`), so no other suite's tasks join.
    const uploader: Uploader = createUploader({
      baseUrl: await serviceUrl(),
      getAccessToken: () => 'dev-token-alice',
      concurrency: 6,
      shareKey: crypto.randomUUID(),
    });
    await uploader.interrupted();
    expect(uploader.host, "the engine runs in the site's shared worker").to.match(/^shared/);
    const wrapper = await fixture(
      html`<div><store-dropzone multiple></store-dropzone><store-progress-list></store-progress-list></div>`,
    );
    const dropzone = wrapper.querySelector<StoreDropzone>('store-dropzone')!;
    const list = wrapper.querySelector<StoreProgressList>('store-progress-list')!;
    dropzone.uploader = uploader;
    list.uploader = uploader;
    await list.updateComplete;
    const watch = await watchMainThread();
    let report: MainThreadReport;
    const phases: string[] = [];
    const phase = (name: string) => phases.push(`${name} ${Math.round(performance.now())}`);
    try {
      phase('add');
      await dropzone.addFiles(files.map((file) => ({ file, relativePath: file.name })));
      expect(uploader.snapshot.tasks).to.have.length(ROWS);
      await waitUntil(() => rows(list).length > 0, 'no rows');

      // Scroll to the end in steps while uploads run (the first has finished, so they are under way; a fast scroll may
      // end before the next one does), checking the rows on screen at each step.
      await waitUntil(() => uploader.snapshot.tasks.some((t) => t.state === 'done'), 'no upload finished', {
        timeout: 60_000,
      });
      phase('scroll');
      const s = scroller(list);
      let minVisible = Infinity;
      while (s.scrollTop + s.clientHeight < s.scrollHeight - 1) {
        s.scrollTop += s.clientHeight * 25;
        await frame();
        await frame();
        minVisible = Math.min(minVisible, visibleRows(list));
      }
      expect(
        rows(list).some((r) => r.getAttribute('aria-posinset') === String(ROWS)),
        'the last row is rendered at the end',
      ).to.equal(true);
      expect(minVisible, 'rows visible at once').to.be.at.least(8);

      // Back to the top with the keyboard, then End to the last row.
      phase('keyboard');
      const first = rows(list)[0];
      first.focus();
      press(first, 'Home');
      await waitUntil(() => focusedRow(list) === '1', 'Home did not reach the first row');
      press(list.shadowRoot!.activeElement!, 'End');
      await waitUntil(() => focusedRow(list) === String(ROWS), 'End did not reach the last row');
      phase('upload');
      await new Promise<void>((done, fail) => {
        // The property is that every upload ends, not how fast a loaded machine gets there: the limit is on a stall,
        // 90 s in which no upload ends (far above the engine's own stall retry). The failure says where the uploads
        // stand (how many in each state, and why any failed).
        const stalled = () => {
          uploader.removeEventListener('change', check);
          fail(new Error(`no upload ended in 90 s: ${statesOf(uploader)}; phases (ms): ${phases.join(', ')}`));
        };
        let timer = setTimeout(stalled, 90_000);
        let ended = 0;
        const check = () => {
          const now = uploader.snapshot.tasks.filter((t) => t.state === 'done').length;
          if (now > ended) {
            ended = now;
            clearTimeout(timer);
            timer = setTimeout(stalled, 90_000);
          }
          if (now < ROWS) return;
          clearTimeout(timer);
          uploader.removeEventListener('change', check);
          done();
        };
        uploader.addEventListener('change', check);
        check();
      });
      await frame();
      await frame();
      phase('end');
    } finally {
      report = await watch.stop();
      uploader.destroy();
    }
    // Asserted: no task where the main thread itself worked over 50 ms — our scripts and the style, layout, paint
    // and garbage collection they cause, as on-CPU time of the renderer's main thread (sampled every ~1 ms). A task's wall
    // time is reported beside it but not asserted: with other suites on these two cores a 10 ms task often waits
    // 40 ms for a CPU (bench/README.md, render). The CPU at each end of a task is interpolated between the samples
    // around it, so it may be off by up to the gap between them at each end: a task fails when it worked over 50 ms
    // even at the low end of that. With samples 1 ms apart that is 52 ms; a sampler starved of a core (a CI run at
    // load 16 sampled 61 ms apart and read 63 ms for a task of 165 ms of wall time) cannot fail a task it did not see.
    const { longTasks, loadAverage, sampleGapMs } = report;
    const working = longTasks.filter((t) => t.cpuMs === null || t.cpuMs - 2 * (t.gapMs ?? 0) > 50);
    console.log(
      `host ${uploader.host}; load average ${loadAverage.join(' → ')}; CPU sampled every ${sampleGapMs.median} ms (at worst ${sampleGapMs.max}); phases (ms): ${phases.join(', ')}\n` +
        `tasks over 50 ms of wall time: ${longTasks.length}, of which over 50 ms of main-thread CPU: ${working.length}` +
        longTasks
          .map(
            (t) => `\n  at ${t.at}: ${t.wallMs} ms wall, ${t.cpuMs} ms CPU (samples ≤ ${t.gapMs} ms apart): ${t.what}`,
          )
          .join(''),
    );
    expect(working, 'main-thread tasks with over 50 ms of CPU time').to.deep.equal([]);
  });
});
