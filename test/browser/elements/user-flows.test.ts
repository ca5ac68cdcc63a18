/// <reference types="mocha" />
// What a page author and a keyboard user meet: events heard on `document`, forms that wait for uploads and reset,
// theming through `::part()` and `--store-*` from outside, focus that never falls to <body> when a control goes away.
import { expect, fixture, html, waitUntil } from '@open-wc/testing';
import '../../../src/elements/index.ts';
import type { StoreUploader } from '../../../src/elements/uploader/store-uploader.ts';
import type { StoreDropzone } from '../../../src/elements/dropzone/store-dropzone.ts';
import type { StoreProgressList } from '../../../src/elements/progress-list/store-progress-list.ts';
import type { StoreConversionPicker } from '../../../src/elements/conversion-picker/store-conversion-picker.ts';
import type { StoreEventName } from '../../../src/elements/events.ts';
import { ScriptedUploader } from '../../fixtures/scripted-uploader.ts';
import { chooseFiles, makeFile, nextEvent, text } from './helpers.ts';

const FORMATS = { 'text/csv': ['application/vnd.svc-apps.spreadsheet'] };

const innerZone = (el: StoreUploader): StoreDropzone => el.shadowRoot!.querySelector('store-dropzone')!;
const innerList = (el: StoreUploader): StoreProgressList => el.shadowRoot!.querySelector('store-progress-list')!;

/** The element that has focus, looking through every shadow root. */
function deepActive(): Element | null {
  let active: Element | null = document.activeElement;
  while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement;
  return active;
}

/** True when `node` is `host` or inside it, across shadow roots. */
function inside(node: Node | null, host: Element): boolean {
  while (node) {
    if (node === host) return true;
    node = node.parentNode ?? (node instanceof ShadowRoot ? node.host : null);
  }
  return false;
}

/** Records every event of `names` that reaches `document`. */
function listenOnDocument(names: string[]): { heard: Event[]; stop(): void } {
  const heard: Event[] = [];
  const record = (e: Event) => heard.push(e);
  for (const n of names) document.addEventListener(n, record);
  return { heard, stop: () => names.forEach((n) => document.removeEventListener(n, record)) };
}

describe('elements as a page meets them', () => {
  it('every store-* event reaches a document listener, bubbling and composed, with its typed detail', async () => {
    const names: StoreEventName[] = [
      'store-files-add',
      'store-files-reject',
      'store-task-action',
      'store-share-complete',
    ];
    const doc = listenOnDocument(names);
    try {
      const uploader = new ScriptedUploader({
        tasks: [
          { id: 'd', name: 'd.txt', total: 1, state: 'done', file: { id: 'F1' } },
          { id: 'e', name: 'e.txt', total: 1, state: 'failed' },
        ],
      });
      const el = await fixture<StoreUploader>(
        html`<store-uploader share accept=".txt" .uploader=${uploader} .shareFiles=${async () => undefined}></store-uploader>`,
      );
      await waitUntil(() => el.shadowRoot!.querySelector('[part="share"]'));
      chooseFiles(innerZone(el), [makeFile('a.txt', 1), makeFile('b.png', 1, 'image/png')]);
      await waitUntil(() => uploader.calls.some((c) => c.method === 'add'));
      await innerList(el).updateComplete;
      innerList(el).shadowRoot!.querySelector<HTMLButtonElement>('[data-id="e"] [data-action="remove"]')!.click();
      const form = el.shadowRoot!.querySelector<HTMLFormElement>('[part="share"]')!;
      form.querySelector<HTMLInputElement>('#emails')!.value = 'ann@example.com';
      form.requestSubmit();
      await waitUntil(() => doc.heard.some((e) => e.type === 'store-share-complete'));
      expect(doc.heard.map((e) => [e.type, e.bubbles, e.composed])).to.deep.equal([
        ['store-files-reject', true, true],
        ['store-files-add', true, true],
        ['store-task-action', true, true],
        ['store-share-complete', true, true],
      ]);
      const detail = (type: string) => (doc.heard.find((e) => e.type === type) as CustomEvent).detail;
      expect(
        detail('store-files-reject').files.map((f: { relativePath: string; reason: string }) => [
          f.relativePath,
          f.reason,
        ]),
      ).to.deep.equal([['b.png', 'type']]);
      expect(detail('store-files-add').files.map((f: { relativePath: string }) => f.relativePath)).to.deep.equal([
        'a.txt',
      ]);
      expect(detail('store-task-action')).to.deep.equal({ taskId: 'e', action: 'remove' });
      expect(detail('store-share-complete').fileIds).to.deep.equal(['F1']);
    } finally {
      doc.stop();
    }
  });

  it('cancelling store-files-add on document stops the upload', async () => {
    const uploader = new ScriptedUploader();
    const cancel = (e: Event) => e.preventDefault();
    document.addEventListener('store-files-add', cancel);
    try {
      const el = await fixture<StoreUploader>(html`<store-uploader .uploader=${uploader}></store-uploader>`);
      const first = nextEvent(document, 'store-files-add');
      chooseFiles(innerZone(el), [makeFile('a.txt', 1)]);
      await first;
      // A second choice, not cancelled, is handled after the first: once it is added, the first was decided.
      document.removeEventListener('store-files-add', cancel);
      chooseFiles(innerZone(el), [makeFile('b.txt', 1)]);
      await waitUntil(() => uploader.calls.some((c) => c.method === 'add'), 'the second choice was never added');
      expect(
        uploader.calls.filter((c) => c.method === 'add').map((c) => (c as { file: File }).file.name),
      ).to.deep.equal(['b.txt']);
    } finally {
      document.removeEventListener('store-files-add', cancel);
    }
  });

  it("the uploader's change means its value changed: inner pickers' changes do not leak out as the uploader's", async () => {
    const uploader = new ScriptedUploader();
    const el = await fixture<StoreUploader>(
      html`<store-uploader conversion="per-file" .uploader=${uploader} .importFormats=${FORMATS}></store-uploader>`,
    );
    chooseFiles(innerZone(el), [makeFile('a.csv', 3, 'text/csv')]);
    await waitUntil(() => el.shadowRoot!.querySelector('store-conversion-picker'));
    const picker = el.shadowRoot!.querySelector<StoreConversionPicker>('store-conversion-picker')!;
    await picker.updateComplete;
    const doc = listenOnDocument(['change']);
    try {
      const select = picker.shadowRoot!.querySelector<HTMLSelectElement>('[part="select"]')!;
      select.value = 'application/vnd.svc-apps.spreadsheet';
      select.dispatchEvent(new Event('change'));
      expect(picker.value).to.equal('application/vnd.svc-apps.spreadsheet');
      expect(doc.heard).to.deep.equal([]);
    } finally {
      doc.stop();
    }
  });

  it('in a form: submit is blocked with a message while uploads are pending, then sends the IDs; reset clears them', async () => {
    const uploader = new ScriptedUploader({ autoComplete: true });
    const form = await fixture<HTMLFormElement>(html`<form>
      <store-uploader name="files" .uploader=${uploader}></store-uploader>
      <store-conversion-picker name="kind" mime-type="text/csv" .importFormats=${FORMATS}></store-conversion-picker>
      <button>Send</button>
    </form>`);
    const el = form.querySelector('store-uploader')!;
    const picker = form.querySelector('store-conversion-picker')!;
    const submitted: FormData[] = [];
    form.addEventListener('submit', (e) => {
      e.preventDefault();
      submitted.push(new FormData(form));
    });
    chooseFiles(innerZone(el), [makeFile('a.txt', 10)]);
    await waitUntil(() => uploader.snapshot.tasks.length === 1);
    form.querySelector('button')!.click();
    expect(submitted).to.have.length(0);
    expect(el.validationMessage).to.equal('Wait until the uploads have finished.');
    expect(el.matches(':invalid')).to.equal(true);
    // The browser shows the message on the control it focuses: one inside the uploader, not the Send button.
    expect(inside(deepActive(), el)).to.equal(true);
    uploader.run();
    await waitUntil(() => el.checkValidity());
    picker.value = 'application/vnd.svc-apps.spreadsheet';
    await picker.updateComplete;
    form.querySelector('button')!.click();
    expect(submitted).to.have.length(1);
    expect(submitted[0].getAll('files')).to.deep.equal(['file-task-1']);
    expect(submitted[0].get('kind')).to.equal('application/vnd.svc-apps.spreadsheet');
    form.reset();
    await el.updateComplete;
    await picker.updateComplete;
    expect(el.value).to.deep.equal([]);
    expect(new FormData(form).getAll('files')).to.deep.equal([]);
    expect(new FormData(form).get('kind')).to.equal('');
    // A later upload counts again; the reset ones stay out.
    chooseFiles(innerZone(el), [makeFile('b.txt', 10)]);
    await waitUntil(() => uploader.snapshot.tasks.length === 2);
    uploader.run();
    await waitUntil(() => el.value.length === 1);
    expect(new FormData(form).getAll('files')).to.deep.equal(['file-task-2']);
  });

  it('::part() and --store-* set from the page style the inner dropzone and progress list of the uploader', async () => {
    const style = document.createElement('style');
    style.textContent = `
      .themed { --store-color-accent: rgb(1, 2, 3); }
      .themed::part(browse-button) { background-color: rgb(200, 0, 0); }
      .themed::part(progress-bar) { background-color: rgb(0, 200, 0); }
      .themed::part(dropzone-base) { border-color: rgb(0, 0, 200); }
    `;
    document.head.append(style);
    try {
      const uploader = new ScriptedUploader({
        tasks: [{ id: 'a', name: 'a.bin', total: 10, state: 'uploading', bytesSent: 5 }],
      });
      const el = await fixture<StoreUploader>(
        html`<store-uploader class="themed" .uploader=${uploader}></store-uploader>`,
      );
      const zone = innerZone(el);
      await zone.updateComplete;
      const list = innerList(el);
      await list.updateComplete;
      const css = (node: Element | null) => getComputedStyle(node!);
      expect(css(zone.shadowRoot!.querySelector('[part="browse-button"]')).backgroundColor).to.equal('rgb(200, 0, 0)');
      expect(css(zone.shadowRoot!.querySelector('[part="base"]')).borderTopColor).to.equal('rgb(0, 0, 200)');
      expect(css(list.shadowRoot!.querySelector('[part="progress-bar"]')).backgroundColor).to.equal('rgb(0, 200, 0)');
      // The accent token reaches the folder button's text, two shadow roots down.
      expect(css(zone.shadowRoot!.querySelector('[part="folder-button"]')).color).to.equal('rgb(1, 2, 3)');
    } finally {
      style.remove();
    }
  });

  it('a forced dark uploader is dark inside too, per-file pickers included', async () => {
    const uploader = new ScriptedUploader();
    const el = await fixture<StoreUploader>(
      html`<store-uploader color-scheme="dark" conversion="per-file" .uploader=${uploader} .importFormats=${FORMATS}></store-uploader>`,
    );
    chooseFiles(innerZone(el), [makeFile('a.csv', 3, 'text/csv')]);
    await waitUntil(() => el.shadowRoot!.querySelector('store-conversion-picker'));
    const picker = el.shadowRoot!.querySelector<StoreConversionPicker>('store-conversion-picker')!;
    await picker.updateComplete;
    const bg = (node: Element | null) => getComputedStyle(node!).backgroundColor;
    const dark = 'rgb(23, 23, 27)';
    expect(bg(el.shadowRoot!.querySelector('[part="base"]'))).to.equal(dark);
    expect(bg(innerZone(el).shadowRoot!.querySelector('[part="base"]'))).to.equal(dark);
    expect(bg(picker.shadowRoot!.querySelector('[part="base"]'))).to.equal(dark);
  });

  it('Escape dismisses the list of refused files, and focus goes back to "Browse files"', async () => {
    const zone = await fixture<StoreDropzone>(html`<store-dropzone accept=".csv"></store-dropzone>`);
    chooseFiles(zone, [makeFile('x.txt', 1)]);
    await waitUntil(() => zone.shadowRoot!.querySelector('.dismiss'), 'the refusal was not listed');
    const dismiss = zone.shadowRoot!.querySelector<HTMLButtonElement>('.dismiss')!;
    dismiss.focus();
    dismiss.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true, composed: true }));
    await zone.updateComplete;
    expect(zone.shadowRoot!.querySelectorAll('[part="rejections"] li')).to.have.length(0);
    expect(deepActive()?.getAttribute('part')).to.equal('browse-button');
  });

  it('removing a row moves focus to the next row (or the list), never to the page', async () => {
    const uploader = new ScriptedUploader({
      tasks: [
        { id: 'a', name: 'a.bin', total: 1, state: 'done' },
        { id: 'b', name: 'b.bin', total: 1, state: 'done' },
      ],
    });
    const list = await fixture<StoreProgressList>(
      html`<store-progress-list .uploader=${uploader}></store-progress-list>`,
    );
    const button = (id: string) =>
      list.shadowRoot!.querySelector<HTMLButtonElement>(`[data-id="${id}"] [data-action="remove"]`);
    button('a')!.focus();
    button('a')!.click();
    await waitUntil(() => !button('a'));
    await list.updateComplete;
    expect(deepActive() === button('b')).to.equal(true);
    button('b')!.click();
    await waitUntil(() => !button('b'));
    await list.updateComplete;
    expect(deepActive() === list.shadowRoot!.querySelector('[part="empty"]')).to.equal(true);
    expect(text(deepActive())).to.equal('No uploads yet.');
  });

  it('failed rows tie their error text to the row and to its progress bar', async () => {
    const uploader = new ScriptedUploader({
      tasks: [{ id: 'f', name: 'f.bin', total: 5, state: 'failed', error: { code: 'too-large', message: '' } }],
    });
    const list = await fixture<StoreProgressList>(
      html`<store-progress-list .uploader=${uploader}></store-progress-list>`,
    );
    const row = list.shadowRoot!.querySelector('[data-id="f"]')!;
    const bar = row.querySelector('[role="progressbar"]')!;
    const described = bar.getAttribute('aria-describedby')!;
    expect(text(list.shadowRoot!.getElementById(described))).to.equal('Failed: The file is too large for the service.');
    expect(row.contains(list.shadowRoot!.getElementById(described))).to.equal(true);
  });

  it('right to left: the progress bar fills from the right, and row buttons mirror', async () => {
    const uploader = new ScriptedUploader({
      tasks: [{ id: 'a', name: 'a.bin', total: 100, state: 'uploading', bytesSent: 30 }],
    });
    const list = await fixture<StoreProgressList>(
      html`<store-progress-list dir="rtl" .uploader=${uploader}></store-progress-list>`,
    );
    const row = list.shadowRoot!.querySelector('[data-id="a"]')!;
    const track = row.querySelector('[part="progress"]')!.getBoundingClientRect();
    const bar = row.querySelector('[part="progress-bar"]')!.getBoundingClientRect();
    expect(Math.round(bar.right)).to.equal(Math.round(track.right));
    expect(Math.round(bar.width)).to.equal(Math.round(track.width * 0.3));
    const [pause, cancel] = [...row.querySelectorAll('button')].map((b) => b.getBoundingClientRect());
    expect(pause.left).to.be.greaterThan(cancel.left);
  });
});
