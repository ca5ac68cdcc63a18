/// <reference types="mocha" />
// What the elements load only when a user gets to it (issue 14, 20 KiB up front), seen from a page: the dropzone's
// intake at the first sign of intent, the English words of rows with the first row, the per-file conversion list
// when files wait for it. A page must never see the difference: files are checked and added, overrides merge over
// every English word, and `builtInLanguage('en')` is whole. Its own file, so that the page starts without them.
import { expect, fixture, html, waitUntil } from '@open-wc/testing';
import '../../../src/elements/dropzone/define.ts';
import '../../../src/elements/progress-list/define.ts';
import '../../../src/elements/uploader/define.ts';
import { builtInLanguage } from '../../../src/elements/i18n/languages.ts';
import type { StoreDropzone } from '../../../src/elements/dropzone/store-dropzone.ts';
import type { StoreProgressList } from '../../../src/elements/progress-list/store-progress-list.ts';
import type { StoreUploader } from '../../../src/elements/uploader/store-uploader.ts';
import { ScriptedUploader } from '../../fixtures/scripted-uploader.ts';
import { chooseFiles, makeFile, nextEvent, text } from './helpers.ts';

const fetched = (module: RegExp) =>
  performance.getEntriesByType('resource').filter((e) => module.test(new URL(e.name).pathname)).length;
const INTAKE = /\/headless\/intake\/intake\.ts$/;
const ENGLISH_LATER = /\/i18n\/en-later\.ts$/;
const PENDING_FILES = /\/uploader\/pending-files\.ts$/;

describe('parts loaded on demand', () => {
  it('loads the intake on intent and the words of rows with the first row; both still work as if always there', async () => {
    const uploader = new ScriptedUploader();
    const page = await fixture(html`<div>
      <store-dropzone .uploader=${uploader} accept=".pdf"></store-dropzone>
      <store-progress-list .uploader=${uploader} .i18n=${{ states: { queued: 'In line' } }}></store-progress-list>
    </div>`);
    const list = page.querySelector<StoreProgressList>('store-progress-list')!;
    const zone = page.querySelector<StoreDropzone>('store-dropzone')!;
    expect(text(zone.shadowRoot!.querySelector('[part="browse-button"]'))).to.equal('Browse files');
    expect(text(list.shadowRoot!.querySelector('[part="empty"]'))).to.equal('No uploads yet.');
    expect([fetched(INTAKE), fetched(ENGLISH_LATER)]).to.deep.equal([0, 0]);

    zone.dispatchEvent(new PointerEvent('pointerenter'));
    await waitUntil(() => fetched(INTAKE) === 1, 'a pointer over the dropzone did not load its intake');
    expect(fetched(ENGLISH_LATER)).to.equal(0);

    // Checked by the intake: one refused, one added.
    const added = nextEvent(zone, 'store-files-add');
    chooseFiles(zone, [makeFile('notes.txt', 3), makeFile('report.pdf', 10, 'application/pdf')]);
    expect((await added).detail.files.map((f) => f.relativePath)).to.deep.equal(['report.pdf']);
    expect(zone.rejected.map((r) => [r.relativePath, r.reason])).to.deep.equal([['notes.txt', 'type']]);

    await waitUntil(() => list.shadowRoot!.querySelector('[part~="row"]'), 'no row');
    await list.updateComplete;
    const row = list.shadowRoot!.querySelector('[part~="row"]')!;
    // The page's override, and English beside it from the half that loaded with the row.
    expect(text(row.querySelector('[part="state"]'))).to.equal('In line');
    expect(row.querySelector('[part~="action"]')!.getAttribute('aria-label')).to.match(/^(Pause|Cancel) report\.pdf$/);
    expect(text(list.shadowRoot!.querySelector('[part="summary"]'))).to.match(/^0 of 1 uploaded/);
    expect([fetched(INTAKE), fetched(ENGLISH_LATER)]).to.deep.equal([1, 1]);
  });

  it('loads the per-file conversion list only once files wait for a choice', async () => {
    const uploader = new ScriptedUploader();
    const el = await fixture<StoreUploader>(html`<store-uploader conversion="per-file" .uploader=${uploader}
      .importFormats=${{ 'text/csv': ['application/vnd.svc-apps.spreadsheet'] }}></store-uploader>`);
    expect(fetched(PENDING_FILES)).to.equal(0);
    chooseFiles(el.shadowRoot!.querySelector('store-dropzone')!, [makeFile('a.csv', 3, 'text/csv')]);
    await waitUntil(
      () => el.shadowRoot!.querySelector('[part="pending"] store-conversion-picker'),
      'the waiting file was not listed',
    );
    expect(fetched(PENDING_FILES)).to.equal(1);
    expect(text(el.shadowRoot!.querySelector('[part="pending"] button.primary'))).to.equal('Upload 1 file');
  });

  it('gives every English word through builtInLanguage("en")', async () => {
    const en = (await builtInLanguage('en'))!;
    expect(en.dropzone.browse).to.equal('Browse files');
    expect(en.states.done).to.equal('Uploaded');
    expect(en.uploader.shareButton(2)).to.equal('Share 2 files');
    expect(en.uploader.noUploader).to.match(/^No uploader/);
  });
});
