/// <reference types="mocha" />
import { expect, fixture, html } from '@open-wc/testing';
import '../../../src/elements/conversion-picker/define.ts';
import type { StoreConversionPicker } from '../../../src/elements/conversion-picker/store-conversion-picker.ts';
import { text } from './helpers.ts';

const FORMATS = {
  'text/csv': ['application/vnd.svc-apps.spreadsheet'],
  'text/plain': ['application/vnd.svc-apps.document', 'application/vnd.svc-apps.spreadsheet'],
  'image/png': ['application/vnd.svc-apps.document'],
};

const options = (select: HTMLSelectElement | null) =>
  [...(select?.options ?? [])].map((o) => [o.value, o.textContent.trim()]);

describe('<store-conversion-picker>', () => {
  it('offers keep-as-is plus the native kinds importFormats allows for the MIME type', async () => {
    const el = await fixture<StoreConversionPicker>(
      html`<store-conversion-picker mime-type="text/plain; charset=utf-8" .importFormats=${FORMATS}></store-conversion-picker>`,
    );
    const select = el.shadowRoot!.querySelector<HTMLSelectElement>('[part="select"]')!;
    expect(options(select)).to.deep.equal([
      ['', 'Keep as is'],
      ['application/vnd.svc-apps.document', 'Document'],
      ['application/vnd.svc-apps.spreadsheet', 'Spreadsheet'],
    ]);
    expect(select.labels[0]?.textContent).to.equal('Store as');
    expect(el.shadowRoot!.querySelector('[part="ocr-select"]')).to.equal(null);
  });

  it('disables the select for a type that converts to nothing', async () => {
    const el = await fixture<StoreConversionPicker>(
      html`<store-conversion-picker mime-type="application/zip" .importFormats=${FORMATS}></store-conversion-picker>`,
    );
    const select = el.shadowRoot!.querySelector<HTMLSelectElement>('[part="select"]')!;
    expect(options(select)).to.deep.equal([['', 'Keep as is']]);
    expect(select.disabled).to.equal(true);
  });

  it('fires change with the chosen kind as value, and offers the OCR language for an image converted to a document', async () => {
    const el = await fixture<StoreConversionPicker>(
      html`<store-conversion-picker mime-type="image/png" .importFormats=${FORMATS}></store-conversion-picker>`,
    );
    const select = el.shadowRoot!.querySelector<HTMLSelectElement>('[part="select"]')!;
    let changes = 0;
    el.addEventListener('change', (e) => {
      expect(e.composed && e.bubbles).to.equal(true);
      changes++;
    });
    select.value = 'application/vnd.svc-apps.document';
    select.dispatchEvent(new Event('change'));
    await el.updateComplete;
    expect(el.value).to.equal('application/vnd.svc-apps.document');
    expect(changes).to.equal(1);
    const ocr = el.shadowRoot!.querySelector<HTMLSelectElement>('[part="ocr-select"]')!;
    expect(ocr.labels[0]?.textContent).to.equal('Text recognition language');
    expect(options(ocr).slice(0, 3)).to.deep.equal([
      ['', '—'],
      ['en', 'English'],
      ['fr', 'French'],
    ]);
    ocr.value = 'fr';
    ocr.dispatchEvent(new Event('change'));
    expect(el.ocrLanguage).to.equal('fr');
    expect(changes).to.equal(2);
  });

  it('is form-associated: its value is submitted, and reset clears it', async () => {
    const form = await fixture<HTMLFormElement>(
      html`<form><store-conversion-picker name="convert" mime-type="text/csv" .importFormats=${FORMATS}></store-conversion-picker></form>`,
    );
    const el = form.querySelector('store-conversion-picker')!;
    await el.updateComplete;
    expect(el.form).to.equal(form);
    expect(new FormData(form).get('convert')).to.equal('');
    el.value = 'application/vnd.svc-apps.spreadsheet';
    await el.updateComplete;
    expect(new FormData(form).get('convert')).to.equal('application/vnd.svc-apps.spreadsheet');
    form.reset();
    await el.updateComplete;
    expect(new FormData(form).get('convert')).to.equal('');
  });

  it('drops a chosen kind that the new MIME type cannot become', async () => {
    const el = await fixture<StoreConversionPicker>(
      html`<store-conversion-picker mime-type="text/plain" value="application/vnd.svc-apps.spreadsheet" .importFormats=${FORMATS}></store-conversion-picker>`,
    );
    expect(el.value).to.equal('application/vnd.svc-apps.spreadsheet');
    el.mimeType = 'image/png';
    await el.updateComplete;
    expect(el.value).to.equal('');
  });

  it('speaks French, with language names from Intl, under lang="fr"', async () => {
    const wrapper = await fixture(
      html`<div lang="fr"><store-conversion-picker mime-type="image/png" value="application/vnd.svc-apps.document" .importFormats=${FORMATS}></store-conversion-picker></div>`,
    );
    const el = wrapper.querySelector('store-conversion-picker')!;
    await el.updateComplete;
    expect(text(el.shadowRoot!.querySelector('[part="label"]'))).to.equal('Enregistrer comme');
    expect(options(el.shadowRoot!.querySelector('[part="ocr-select"]')).slice(1, 3)).to.deep.equal([
      ['en', 'anglais'],
      ['fr', 'français'],
    ]);
  });

  it('is accessible (axe), with the OCR select, in dark', async () => {
    const el = await fixture<StoreConversionPicker>(
      html`<store-conversion-picker color-scheme="dark" mime-type="image/png" value="application/vnd.svc-apps.document" .importFormats=${FORMATS}></store-conversion-picker>`,
    );
    await expect(el).to.be.accessible();
  });
});
