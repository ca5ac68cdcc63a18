/// <reference types="mocha" />
/**
 * A windowed `<store-progress-list>` uses its rows again when the view jumps far: the same row elements, in the same
 * DOM order, show the tasks that scrolled in — none is removed, added or moved (a move re-attaches a row: its style
 * and layout are built again, on the main thread, in the frame of the scroll).
 */
import { expect, fixture, html } from '@open-wc/testing';
import '../../../src/elements/progress-list/define.ts';
import type { StoreProgressList } from '../../../src/elements/progress-list/store-progress-list.ts';
import { ScriptedUploader } from '../../fixtures/scripted-uploader.ts';
import { manyTasks } from '../../fixtures/many-tasks.ts';

const frame = (): Promise<void> => new Promise((done) => requestAnimationFrame(() => done()));
const rows = (el: StoreProgressList): HTMLElement[] => [
  ...el.shadowRoot!.querySelectorAll<HTMLElement>('[role="listitem"]'),
];

describe('<store-progress-list> rows of a long list', () => {
  it('keeps its row elements, in order, through jumps of many screens either way', async () => {
    const el = await fixture<StoreProgressList>(
      html`<store-progress-list .uploader=${new ScriptedUploader({ tasks: manyTasks(10_000) })}></store-progress-list>`,
    );
    let scroller: HTMLElement | null = null;
    for (let i = 0; i < 100 && !(scroller = el.shadowRoot!.querySelector('[part="list"]')); i++) await frame();
    expect(scroller, 'the list renders its rows').to.not.equal(null);
    const firstShown = () => rows(el)[0]!.getAttribute('aria-posinset');
    const jump = async (to: number) => {
      const shown = firstShown();
      scroller!.scrollTop = to;
      for (let i = 0; i < 100 && firstShown() === shown; i++) await frame();
      await el.updateComplete;
      expect(firstShown(), `the rows follow a jump to ${to}px`).to.not.equal(shown);
    };
    // Away from the top first: there the list renders no rows above the view (13 rows, not 17).
    await jump(scroller!.clientHeight * 25);
    const before = rows(el);
    const moved: Node[] = [];
    const watch = new MutationObserver((records) => {
      for (const r of records) moved.push(...[...r.addedNodes, ...r.removedNodes].filter((n) => n instanceof Element));
    });
    watch.observe(scroller!, { childList: true });
    for (const screens of [60, 5, 40]) await jump(scroller!.clientHeight * screens);
    watch.disconnect();
    expect(moved, 'rows removed, added or moved').to.have.length(0);
    const after = rows(el);
    expect(after.length === before.length && after.every((row, i) => row === before[i]), 'the same rows').to.equal(
      true,
    );
  });
});
