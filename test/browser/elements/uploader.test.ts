/// <reference types="mocha" />
import { expect, fixture, html, waitUntil } from '@open-wc/testing';
import '../../../src/elements/uploader/define.ts';
import type { StoreUploader } from '../../../src/elements/uploader/store-uploader.ts';
import type { StoreConversionPicker } from '../../../src/elements/conversion-picker/store-conversion-picker.ts';
import type { ShareGrant } from '../../../src/elements/events.ts';
import { ScriptedUploader } from '../../fixtures/scripted-uploader.ts';
import { makeFile, nextEvent, text, chooseFiles as chooseInZone } from './helpers.ts';

const FORMATS = {
  'text/csv': ['application/vnd.svc-apps.spreadsheet'],
  'image/png': ['application/vnd.svc-apps.document'],
};

function chooseFiles(el: StoreUploader, files: File[]): void {
  chooseInZone(el.shadowRoot!.querySelector('store-dropzone')!, files);
}

/** Focusable controls in composed-tree order (how Tab walks them when no positive tabindex is used). */
function focusables(root: Element | ShadowRoot, out: string[] = []): string[] {
  for (const node of Array.from(root.children)) {
    const el = node as HTMLElement;
    if (el.matches('button:not([disabled]), input:not([hidden]), select:not([disabled])') && el.tabIndex >= 0) {
      const label = el.tagName === 'BUTTON' ? el : (el as HTMLInputElement).labels?.[0];
      out.push(el.getAttribute('aria-label') ?? text(label));
    }
    if (el.shadowRoot) focusables(el.shadowRoot, out);
    focusables(el, out);
  }
  return out;
}

const flush = () => new Promise((r) => setTimeout(r, 0));

describe('<store-uploader>', () => {
  it('adds dropped files to its uploader, converting where asked, with controls in a sensible tab order', async () => {
    const uploader = new ScriptedUploader();
    const el = await fixture<StoreUploader>(
      html`<store-uploader .uploader=${uploader} .importFormats=${FORMATS}></store-uploader>`,
    );
    const checkbox = el.shadowRoot!.querySelector<HTMLInputElement>('[part="conversion"] input[type="checkbox"]')!;
    checkbox.click();
    await el.updateComplete;
    el.shadowRoot!.querySelector<HTMLSelectElement>('#ocr')!.value = 'fr';
    el.shadowRoot!.querySelector<HTMLSelectElement>('#ocr')!.dispatchEvent(new Event('change'));
    chooseFiles(el, [
      makeFile('a.csv', 3, 'text/csv'),
      makeFile('b.zip', 4, 'application/zip'),
      makeFile('scan.png', 2, 'image/png'),
    ]);
    const adds = () => uploader.calls.filter((c) => c.method === 'add');
    await waitUntil(() => adds().length === 3);
    expect(adds().map((c) => [(c.file as File).name, c.options])).to.deep.equal([
      ['a.csv', { convertTo: 'application/vnd.svc-apps.spreadsheet' }],
      ['b.zip', {}],
      ['scan.png', { convertTo: 'application/vnd.svc-apps.document', ocrLanguage: 'fr' }],
    ]);
    // The list renders its first rows once their code has loaded (the first time a list has a row).
    await el.shadowRoot!.querySelector('store-progress-list')!.updateComplete;
    const order = focusables(el.shadowRoot!);
    expect(order.slice(0, 4)).to.deep.equal([
      'Convert files to native formats where possible',
      'Text recognition language',
      'Browse files',
      'Browse folder',
    ]);
    // Then the list: its bulk actions in the header, then the first row's controls.
    expect(order.slice(4, 8)).to.deep.equal(['Pause all', 'Cancel all', 'Pause a.csv', 'Cancel a.csv']);
  });

  it('lets the page cancel store-files-add', async () => {
    const uploader = new ScriptedUploader();
    const el = await fixture<StoreUploader>(
      html`<store-uploader .uploader=${uploader} @store-files-add=${(e: Event) => e.preventDefault()}></store-uploader>`,
    );
    chooseFiles(el, [makeFile('a.txt', 1)]);
    await flush();
    await flush();
    expect(uploader.calls).to.deep.equal([{ method: 'interrupted' }]);
  });

  it('per-file conversion: files wait with a picker each until "Upload" is pressed', async () => {
    const uploader = new ScriptedUploader();
    const el = await fixture<StoreUploader>(
      html`<store-uploader conversion="per-file" .uploader=${uploader} .importFormats=${FORMATS}></store-uploader>`,
    );
    chooseFiles(el, [makeFile('a.csv', 3, 'text/csv'), makeFile('b.csv', 4, 'text/csv')]);
    await waitUntil(() => el.shadowRoot!.querySelectorAll('store-conversion-picker').length === 2);
    expect(el.checkValidity()).to.equal(false);
    const [first] = [...el.shadowRoot!.querySelectorAll<StoreConversionPicker>('store-conversion-picker')];
    first.value = 'application/vnd.svc-apps.spreadsheet';
    const upload = [...el.shadowRoot!.querySelectorAll('button')].find(
      (b) => b.textContent.trim() === 'Upload 2 files',
    )!;
    upload.click();
    expect(
      uploader.calls.filter((c) => c.method === 'add').map((c) => [(c.file as File).name, c.options]),
    ).to.deep.equal([
      ['a.csv', { convertTo: 'application/vnd.svc-apps.spreadsheet' }],
      ['b.csv', {}],
    ]);
    await el.updateComplete;
    expect(el.shadowRoot!.querySelector('[part="pending"]')).to.equal(null);
  });

  it('is form-associated: invalid while uploads are pending, then submits the uploaded file IDs', async () => {
    const uploader = new ScriptedUploader({ autoComplete: true });
    const form = await fixture<HTMLFormElement>(
      html`<form><store-uploader name="ids" .uploader=${uploader}></store-uploader></form>`,
    );
    const el = form.querySelector('store-uploader')!;
    expect(el.checkValidity()).to.equal(true);
    chooseFiles(el, [makeFile('a.txt', 10), makeFile('b.txt', 20)]);
    await waitUntil(() => uploader.snapshot.tasks.length === 2);
    expect(form.checkValidity()).to.equal(false);
    expect(el.validity.customError).to.equal(true);
    expect(el.validationMessage).to.equal('Wait until the uploads have finished.');
    expect(new FormData(form).getAll('ids')).to.deep.equal([]);
    const changed = nextEvent(el, 'change');
    uploader.run();
    await changed;
    expect(form.checkValidity()).to.equal(true);
    expect(new FormData(form).getAll('ids')).to.deep.equal(['file-task-1', 'file-task-2']);
    expect(el.value).to.deep.equal(['file-task-1', 'file-task-2']);
  });

  it('"Resume all" resumes what it can in one click, notes a changed file and leaves it and the ones needing a file', async () => {
    const uploader = new ScriptedUploader({
      interrupted: [
        { id: 'a', name: 'a.bin', type: '', total: 10, bytesAcknowledged: 4, updatedAt: 0, canResumeWithoutFile: true },
        { id: 'b', name: 'b.bin', type: '', total: 10, bytesAcknowledged: 4, updatedAt: 0, canResumeWithoutFile: true },
        {
          id: 'c',
          name: 'c.bin',
          type: '',
          total: 10,
          bytesAcknowledged: 4,
          updatedAt: 0,
          canResumeWithoutFile: false,
        },
      ],
      changedOnResume: ['b'],
    });
    const el = await fixture<StoreUploader>(html`<store-uploader .uploader=${uploader}></store-uploader>`);
    const all = () => el.shadowRoot!.querySelector<HTMLButtonElement>('[part="resume-all"]');
    await waitUntil(() => all() !== null);
    expect(text(all())).to.equal('Resume all');
    all()!.focus();
    all()!.click();
    const item = (id: string) => el.shadowRoot!.querySelector(`[part="interrupted"] li[data-id="${id}"]`);
    await waitUntil(() => !item('a'));
    expect(uploader.calls.filter((c) => c.method.startsWith('resume')).map((c) => [c.method, c.id])).to.deep.equal([
      ['resumeAllInterrupted', undefined],
      ['resumeInterrupted', 'a'],
    ]);
    expect(item('b')!.getAttribute('data-error')).to.equal('file-changed');
    expect(text(item('b')!.querySelector('[part="interrupted-changed"]'))).to.equal(
      'b.bin changed since its upload began: choose it again or discard it.',
    );
    expect(item('b')!.querySelector('[data-action="rechoose"]')).to.not.equal(null);
    expect(text(el.shadowRoot!.querySelector('[part="interrupted"] [role="status"]'))).to.equal(
      'b.bin changed since its upload began: choose it again or discard it.',
    );
    expect(item('c')!.querySelector('[data-action="rechoose"]')).to.not.equal(null);
    // Nothing is left to resume without a file: the button goes, and focus stays inside the list.
    expect(all()).to.equal(null);
    await waitUntil(
      () => (el.shadowRoot!.activeElement as HTMLElement | null)?.closest('[part="interrupted"]') != null,
    );
  });

  it('offers interrupted uploads for resume: resume with a kept handle, re-choose otherwise, or discard', async () => {
    const uploader = new ScriptedUploader({
      interrupted: [
        {
          id: 'u1',
          name: 'big.iso',
          type: '',
          total: 4_000_000,
          bytesAcknowledged: 1_048_576,
          updatedAt: 0,
          canResumeWithoutFile: true,
        },
        {
          id: 'u2',
          name: 'video.mp4',
          type: 'video/mp4',
          total: 3,
          bytesAcknowledged: 0,
          updatedAt: 0,
          canResumeWithoutFile: false,
        },
        {
          id: 'u3',
          name: 'old.bin',
          type: '',
          total: 1,
          bytesAcknowledged: 0,
          updatedAt: 0,
          canResumeWithoutFile: false,
        },
      ],
    });
    const el = await fixture<StoreUploader>(html`<store-uploader .uploader=${uploader}></store-uploader>`);
    await waitUntil(() => el.shadowRoot!.querySelectorAll('[part="interrupted"] li').length === 3);
    const item = (id: string) => el.shadowRoot!.querySelector(`[part="interrupted"] li[data-id="${id}"]`);
    expect(text(item('u1')!.querySelector('span'))).to.equal('big.iso: 1 MB of 4 MB stored');
    expect([...item('u2')!.querySelectorAll('button')].map((b) => b.getAttribute('aria-label'))).to.deep.equal([
      'Choose file again for video.mp4',
      'Discard video.mp4',
    ]);
    item('u1')!.querySelector<HTMLButtonElement>('[data-action="resume"]')!.click();
    await waitUntil(() => !item('u1'));
    const input = el.shadowRoot!.querySelector<HTMLInputElement>('#rechoose')!;
    input.click = () => undefined;
    item('u2')!.querySelector<HTMLButtonElement>('[data-action="rechoose"]')!.click();
    const dt = new DataTransfer();
    dt.items.add(new File(['abc'], 'video.mp4', { type: 'video/mp4' }));
    input.files = dt.files;
    input.dispatchEvent(new Event('change'));
    await waitUntil(() => !item('u2'));
    item('u3')!.querySelector<HTMLButtonElement>('[data-action="discard"]')!.click();
    await waitUntil(() => !el.shadowRoot!.querySelector('[part="interrupted"]'));
    expect(uploader.calls.slice(1).map((c) => [c.method, c.id, (c.file as File | undefined)?.name])).to.deep.equal([
      ['resumeInterrupted', 'u1', undefined],
      ['resumeInterrupted', 'u2', 'video.mp4'],
      ['discardInterrupted', 'u3', undefined],
    ]);
    expect(uploader.snapshot.tasks.map((t) => [t.id, t.state])).to.deep.equal([
      ['u1', 'queued'],
      ['u2', 'queued'],
    ]);
  });

  it('shares every uploaded file with the typed people in one call, and says what was wrong with bad input', async () => {
    const uploader = new ScriptedUploader({
      tasks: [
        { id: 'a', name: 'a.txt', total: 1, state: 'done', file: { id: 'F1' } },
        { id: 'b', name: 'b.txt', total: 1, state: 'done', file: { id: 'F2' } },
      ],
    });
    const shared: [string[], ShareGrant[]][] = [];
    const share = async (ids: string[], grants: ShareGrant[]) => void shared.push([ids, grants]);
    const el = await fixture<StoreUploader>(
      html`<store-uploader share .uploader=${uploader} .shareFiles=${share}></store-uploader>`,
    );
    const form = el.shadowRoot!.querySelector<HTMLFormElement>('[part="share"]')!;
    const emails = form.querySelector<HTMLInputElement>('#emails')!;
    expect(emails.labels?.[0]?.textContent).to.equal('E-mail addresses or domains');
    emails.value = 'ann@example.com, not an address';
    form.requestSubmit();
    await el.updateComplete;
    expect(text(form.querySelector('[role="alert"]'))).to.equal('"not" is neither an e-mail address nor a domain.');
    expect(emails.getAttribute('aria-invalid')).to.equal('true');
    expect(shared).to.deep.equal([]);
    emails.value = 'ann@example.com, Example.org';
    form.querySelector<HTMLSelectElement>('#role')!.value = 'writer';
    const done = nextEvent(el, 'store-share-complete');
    form.querySelector<HTMLButtonElement>('button[type="submit"]')!.click();
    const event = await done;
    const grants = [
      { type: 'user', emailAddress: 'ann@example.com', role: 'writer' },
      { type: 'domain', domain: 'example.org', role: 'writer' },
    ];
    expect(shared).to.deep.equal([[['F1', 'F2'], grants]]);
    expect(event.detail).to.deep.equal({ fileIds: ['F1', 'F2'], grants, failed: 0 });
    await el.updateComplete;
    expect(text(form.querySelector('[role="status"]'))).to.equal('Shared with 2 people.');
    expect(text(form.querySelector('[role="alert"]'))).to.equal('');
  });

  it('is accessible (axe) with interrupted uploads, progress and the share step, in light, dark, RTL and French', async () => {
    const uploader = new ScriptedUploader({
      tasks: [
        { id: 'a', name: 'a.txt', total: 100, state: 'uploading', bytesSent: 40, speed: 1000, etaMs: 60000 },
        { id: 'b', name: 'b.txt', total: 1, state: 'done', file: { id: 'F2' } },
      ],
      interrupted: [
        {
          id: 'u1',
          name: 'big.iso',
          type: '',
          total: 4,
          bytesAcknowledged: 1,
          updatedAt: 0,
          canResumeWithoutFile: true,
        },
      ],
    });
    const el = await fixture<StoreUploader>(
      html`<store-uploader share .uploader=${uploader} .importFormats=${FORMATS}></store-uploader>`,
    );
    await waitUntil(() => el.shadowRoot!.querySelector('[part="interrupted"]'));
    await expect(el).to.be.accessible();
    el.colorScheme = 'dark';
    el.setAttribute('dir', 'rtl');
    el.setAttribute('lang', 'fr');
    el.requestUpdate();
    await el.updateComplete;
    expect(text(el.shadowRoot!.querySelector('[part="share"] legend'))).to.equal('Partager avec');
    await expect(el).to.be.accessible();
  });
});
