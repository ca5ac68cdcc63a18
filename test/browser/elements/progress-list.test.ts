/// <reference types="mocha" />
import { expect, fixture, html, waitUntil } from '@open-wc/testing';
import '../../../src/elements/progress-list/define.ts';
import type { StoreProgressList } from '../../../src/elements/progress-list/store-progress-list.ts';
import { ScriptedUploader, uploadScript } from '../../fixtures/scripted-uploader.ts';
import { manyTasks } from '../../fixtures/many-tasks.ts';
import { nextEvent, text } from './helpers.ts';

const rows = (el: StoreProgressList): HTMLElement[] => [
  ...el.shadowRoot!.querySelectorAll<HTMLElement>('[role="listitem"]'),
];
const row = (el: StoreProgressList, id: string): HTMLElement =>
  el.shadowRoot!.querySelector<HTMLElement>(`[data-id="${id}"]`)!;
const liveRegion = (el: StoreProgressList): Element => el.shadowRoot!.querySelector('[role="status"]')!;

/** Waits for Lit and for the virtualizer, which lays rows out after measuring them. */
async function settle(el: StoreProgressList): Promise<void> {
  await el.updateComplete;
  const expected = Math.min(el.uploader?.snapshot.tasks.length ?? 0, 1);
  await waitUntil(() => rows(el).length >= expected, 'rows were not rendered');
  await new Promise((r) => requestAnimationFrame(() => r(undefined)));
  await el.updateComplete;
}

describe('<store-progress-list>', () => {
  it('says it is empty without tasks', async () => {
    const el = await fixture<StoreProgressList>(
      html`<store-progress-list .uploader=${new ScriptedUploader()}></store-progress-list>`,
    );
    expect(text(el.shadowRoot!.querySelector('[part="empty"]'))).to.equal('No uploads yet.');
  });

  it('renders one row per task with name, size, a real progress bar, speed, time left and state', async () => {
    const uploader = new ScriptedUploader({
      tasks: [
        {
          id: 'a',
          name: 'report.pdf',
          total: 2_000_000,
          state: 'uploading',
          bytesSent: 500_000,
          speed: 1_500_000,
          etaMs: 95_000,
        },
        { id: 'b', name: 'photo.jpg', relativePath: 'holiday/photo.jpg', total: 1000 },
      ],
    });
    const el = await fixture<StoreProgressList>(
      html`<store-progress-list .uploader=${uploader}></store-progress-list>`,
    );
    await settle(el);
    expect(rows(el)).to.have.length(2);
    const a = row(el, 'a');
    expect(text(a.querySelector('[part="name"]'))).to.equal('report.pdf');
    expect(text(a.querySelector('[part="size"]'))).to.equal('2 MB');
    const bar = a.querySelector('[role="progressbar"]')!;
    expect([
      ...['aria-valuemin', 'aria-valuemax', 'aria-valuenow', 'aria-valuetext', 'aria-label'].map((n) =>
        bar.getAttribute(n),
      ),
    ]).to.deep.equal(['0', '100', '25', '25% (500 kB of 2 MB)', 'report.pdf']);
    expect(text(a.querySelector('[part="rate"]'))).to.match(/^1\.5 MB\/s · 1 min 35 sec left$/);
    expect(text(a.querySelector('[part="state"]'))).to.equal('Uploading');
    expect(a.getAttribute('aria-posinset')).to.equal('1');
    expect(a.getAttribute('aria-setsize')).to.equal('2');
    expect(text(row(el, 'b').querySelector('[part="name"]'))).to.equal('holiday/photo.jpg');
    expect(text(row(el, 'b').querySelector('[part="state"]'))).to.equal('Waiting');
    expect(text(el.shadowRoot!.querySelector('[part="summary"]'))).to.equal(
      '0 of 2 uploaded, 500 kB of 2 MB, 2 in progress',
    );
  });

  it('shows each state with its words: retrying with the reason, failed with the message, converted, interrupted', async () => {
    const uploader = new ScriptedUploader({
      tasks: [
        {
          id: 'r',
          name: 'r.bin',
          total: 10,
          state: 'retrying',
          retry: { attempt: 2, delayMs: 4000, cause: 'network' },
        },
        { id: 'f', name: 'f.bin', total: 10, state: 'failed', error: { code: 'integrity', message: 'md5 mismatch' } },
        {
          id: 'c',
          name: 'c.csv',
          total: 10,
          state: 'done',
          convertTo: 'application/vnd.svc-apps.spreadsheet',
          bytesSent: 10,
        },
        { id: 'p', name: 'p.bin', total: 10, state: 'paused' },
        { id: 'v', name: 'v.bin', total: 10, state: 'verifying' },
        { id: 'i', name: 'i.bin', total: 10, state: 'interrupted' },
      ],
    });
    const el = await fixture<StoreProgressList>(
      html`<store-progress-list .uploader=${uploader}></store-progress-list>`,
    );
    await settle(el);
    const state = (id: string) => text(row(el, id).querySelector('[part="state"]'));
    // Icon buttons: the tooltip (title) is the short word, the accessible name says which file.
    const buttons = (id: string) =>
      [...row(el, id).querySelectorAll('button')].map((b) => [b.title, b.getAttribute('aria-label')]);
    expect(state('r')).to.equal('Retrying (try 2) because the connection dropped, in 4 sec');
    expect(state('f')).to.equal('Failed: The stored file does not match what was sent.');
    expect(state('c')).to.equal('Uploaded as Spreadsheet');
    expect(state('v')).to.equal('Verifying');
    expect(buttons('r')).to.deep.equal([
      ['Retry', 'Retry r.bin'],
      ['Cancel', 'Cancel r.bin'],
    ]);
    expect(buttons('f')).to.deep.equal([
      ['Retry', 'Retry f.bin'],
      ['Remove', 'Remove f.bin from the list'],
    ]);
    expect(buttons('c')).to.deep.equal([['Remove', 'Remove c.csv from the list']]);
    expect(buttons('p')).to.deep.equal([
      ['Resume', 'Resume p.bin'],
      ['Cancel', 'Cancel p.bin'],
    ]);
    expect(buttons('v')).to.deep.equal([]);
    expect(buttons('i')).to.deep.equal([
      ['Resume', 'Resume i.bin'],
      ['Choose file', 'Choose file again for i.bin'],
      ['Discard', 'Discard i.bin'],
    ]);
  });

  it('pause and resume call the uploader, and focus stays on the button while its label changes', async () => {
    const uploader = new ScriptedUploader({
      tasks: [{ id: 'a', name: 'a.bin', total: 100, state: 'uploading', bytesSent: 10 }],
    });
    const el = await fixture<StoreProgressList>(
      html`<store-progress-list .uploader=${uploader}></store-progress-list>`,
    );
    await settle(el);
    const button = row(el, 'a').querySelector<HTMLButtonElement>('[data-action="pause"]')!;
    button.focus();
    button.click();
    await settle(el);
    expect(uploader.snapshot.tasks[0].state).to.equal('paused');
    const same = row(el, 'a').querySelector<HTMLButtonElement>('[part~="action-primary"]')!;
    expect(same.getAttribute('aria-label')).to.equal('Resume a.bin');
    expect(el.shadowRoot!.activeElement).to.equal(same);
    same.click();
    row(el, 'a').querySelector<HTMLButtonElement>('[data-action="cancel"]')!.click();
    await settle(el);
    expect(uploader.calls.map((c) => `${c.method}:${c.id}`)).to.deep.equal(['pause:a', 'resume:a', 'cancel:a']);
    expect(text(row(el, 'a').querySelector('[part="state"]'))).to.equal('Cancelled');
  });

  it('fires a cancelable store-task-action; cancelling it leaves the uploader alone', async () => {
    const uploader = new ScriptedUploader({ tasks: [{ id: 'a', name: 'a.bin', total: 1, state: 'failed' }] });
    const el = await fixture<StoreProgressList>(
      html`<store-progress-list .uploader=${uploader}></store-progress-list>`,
    );
    await settle(el);
    el.addEventListener('store-task-action', (e) => e.preventDefault(), { once: true });
    const fired = nextEvent(el, 'store-task-action');
    row(el, 'a').querySelector<HTMLButtonElement>('[data-action="retry"]')!.click();
    const event = await fired;
    expect(event.detail).to.deep.equal({ taskId: 'a', action: 'retry' });
    expect(event.bubbles && event.composed).to.equal(true);
    expect(uploader.calls).to.deep.equal([]);
    row(el, 'a').querySelector<HTMLButtonElement>('[data-action="remove"]')!.click();
    await settle(el);
    expect(uploader.calls.map((c) => c.method)).to.deep.equal(['remove']);
    expect(rows(el)).to.have.length(0);
  });

  it('resumes an interrupted task with a re-chosen file', async () => {
    const uploader = new ScriptedUploader({ tasks: [{ id: 'i', name: 'i.bin', total: 4, state: 'interrupted' }] });
    const el = await fixture<StoreProgressList>(
      html`<store-progress-list .uploader=${uploader}></store-progress-list>`,
    );
    await settle(el);
    const input = el.shadowRoot!.querySelector<HTMLInputElement>('#rechoose')!;
    input.click = () => undefined;
    row(el, 'i').querySelector<HTMLButtonElement>('[data-action="rechoose"]')!.click();
    const dt = new DataTransfer();
    dt.items.add(new File(['abcd'], 'i.bin'));
    input.files = dt.files;
    input.dispatchEvent(new Event('change'));
    await settle(el);
    expect(uploader.calls.map((c) => [c.method, c.id, (c.file as File | undefined)?.name])).to.deep.equal([
      ['resumeInterrupted', 'i', 'i.bin'],
    ]);
    expect(uploader.snapshot.tasks[0].state).to.equal('queued');
  });

  it('announces starts, 25/50/75 % milestones, completions and failures politely, not every tick', async () => {
    const uploader = new ScriptedUploader({
      tasks: [
        { id: 'a', name: 'a.bin', total: 100 },
        { id: 'b', name: 'b.bin', total: 100 },
      ],
    });
    const el = await fixture<StoreProgressList>(
      html`<store-progress-list .uploader=${uploader}></store-progress-list>`,
    );
    await settle(el);
    const region = liveRegion(el);
    expect(region.getAttribute('aria-live')).to.equal('polite');
    const heard: string[] = [];
    const say = async (step: Parameters<ScriptedUploader['apply']>[0]) => {
      const before = el.announcement;
      uploader.apply(step);
      await el.updateComplete;
      if (el.announcement !== before) heard.push(text(region));
    };
    await say({ task: 'a', state: 'uploading', bytesSent: 0 });
    await say({ task: 'a', bytesSent: 10 });
    await say({ task: 'a', bytesSent: 20 });
    await say({ task: 'a', bytesSent: 30 });
    await say({ task: 'a', bytesSent: 60 });
    await say({ task: 'a', bytesSent: 61 });
    await say({ task: 'a', state: 'done' });
    await say({ task: 'b', state: 'uploading' });
    await say({ task: 'b', state: 'failed', error: { code: 'offline', message: '' } });
    expect(heard).to.deep.equal([
      'Uploading a.bin.',
      'a.bin: 25% uploaded.',
      'a.bin: 50% uploaded.',
      'a.bin uploaded.',
      'Uploading b.bin.',
      'b.bin failed: You are offline.',
    ]);
  });

  it('shows what the service accepted, not what was sent, while an upload retries', async () => {
    const uploader = new ScriptedUploader({
      tasks: [
        {
          id: 'r',
          name: 'r.bin',
          total: 1000,
          state: 'retrying',
          bytesSent: 1000,
          bytesAcknowledged: 250,
          retry: { attempt: 3, delayMs: 2000, cause: 'server-error', status: 500 },
        },
      ],
    });
    const el = await fixture<StoreProgressList>(
      html`<store-progress-list .uploader=${uploader}></store-progress-list>`,
    );
    await settle(el);
    const bar = row(el, 'r').querySelector('[role="progressbar"]')!;
    expect(bar.getAttribute('aria-valuenow')).to.equal('25');
  });

  it('speaks French under lang="fr"', async () => {
    const uploader = new ScriptedUploader({
      tasks: [
        {
          id: 'a',
          name: 'a.bin',
          total: 2_500_000,
          state: 'paused',
          bytesSent: 1_000_000,
          bytesAcknowledged: 1_000_000,
        },
      ],
    });
    const wrapper = await fixture(
      html`<div lang="fr"><store-progress-list .uploader=${uploader}></store-progress-list></div>`,
    );
    const el = wrapper.querySelector('store-progress-list')!;
    await settle(el);
    expect(text(row(el, 'a').querySelector('[part="state"]'))).to.equal('En pause');
    const valueText = row(el, 'a').querySelector('[role="progressbar"]')!.getAttribute('aria-valuetext')!;
    // Intl puts no-break spaces between numbers and units.
    expect(valueText.replace(/\s/g, ' ')).to.equal('40 % (1 Mo sur 2,5 Mo)');
  });

  it('virtualizes 10,000 rows: only a screenful is in the DOM, and the last row is reachable', async () => {
    const uploader = new ScriptedUploader({ tasks: manyTasks(10_000) });
    const el = await fixture<StoreProgressList>(
      html`<store-progress-list .uploader=${uploader}></store-progress-list>`,
    );
    await settle(el);
    const rendered = rows(el).length;
    expect(rendered).to.be.greaterThan(0);
    expect(rendered).to.be.lessThan(100);
    expect(text(el.shadowRoot!.querySelector('[part="summary"]'))).to.match(/^3750 of 10000 uploaded/);
    const scroller = el.shadowRoot!.querySelector<HTMLElement>('[part="list"]')!;
    // The virtualizer sizes its content after its first layout: scroll to the end again until that end is final.
    await waitUntil(
      () => {
        scroller.scrollTop = scroller.scrollHeight;
        return rows(el).some((r) => r.getAttribute('aria-posinset') === '10000');
      },
      'the last row never rendered',
      { timeout: 15_000 },
    );
    expect(rows(el).length).to.be.lessThan(100);
  });

  it('follows a script to the end and is accessible (axe) in light, dark and RTL', async () => {
    const uploader = new ScriptedUploader({
      tasks: [
        { id: 'a', name: 'a.bin', total: 1000 },
        { id: 'f', name: 'f.bin', total: 5, state: 'failed' },
      ],
    });
    uploader.enqueue(...uploadScript('a', 1000, 2));
    const el = await fixture<StoreProgressList>(
      html`<store-progress-list dir="rtl" .uploader=${uploader}></store-progress-list>`,
    );
    uploader.step();
    uploader.step();
    await settle(el);
    await expect(el).to.be.accessible();
    uploader.run();
    el.colorScheme = 'dark';
    await settle(el);
    expect(text(row(el, 'a').querySelector('[part="state"]'))).to.equal('Uploaded');
    await expect(el).to.be.accessible();
  });
});

describe('<store-progress-list> bulk actions', () => {
  it('shows each bulk button only while it would act, and each calls the uploader', async () => {
    const uploader = new ScriptedUploader({
      tasks: [
        { id: 'u', name: 'u.bin', total: 100, state: 'uploading' },
        { id: 'p', name: 'p.bin', total: 100, state: 'paused' },
        { id: 'f', name: 'f.bin', total: 100, state: 'failed' },
        { id: 'd', name: 'd.bin', total: 100, state: 'done' },
      ],
    });
    const el = await fixture<StoreProgressList>(
      html`<store-progress-list .uploader=${uploader}></store-progress-list>`,
    );
    await settle(el);
    const group = el.shadowRoot!.querySelector('[part="bulk-actions"]')!;
    expect(group.getAttribute('role')).to.equal('group');
    expect(group.getAttribute('aria-label')).to.equal('All uploads');
    const names = () =>
      [...el.shadowRoot!.querySelectorAll<HTMLButtonElement>('[part="bulk-action"]')].map((b) => b.textContent.trim());
    expect(names()).to.deep.equal(['Pause all', 'Resume all', 'Retry failed', 'Cancel all', 'Clear finished']);
    const click = async (name: string) => {
      [...el.shadowRoot!.querySelectorAll<HTMLButtonElement>('[part="bulk-action"]')]
        .find((b) => b.textContent.trim() === name)!
        .click();
      await settle(el);
    };
    await click('Clear finished');
    expect(uploader.calls.filter((c) => c.method === 'remove').map((c) => c.id)).to.deep.equal(['d']);
    await click('Retry failed');
    expect(uploader.calls.at(-1)?.method).to.equal('retryFailed');
    await click('Cancel all');
    expect(uploader.calls.at(-1)?.method).to.equal('cancelAll');
    expect(names()).to.deep.equal(['Clear finished']);
    await expect(el).to.be.accessible();
  });
});
