import type { Meta, StoryObj } from '@storybook/web-components-vite';
import { html } from 'lit';
import { expect, userEvent } from 'storybook/test';
import type { StoreConversionPicker } from '../src/elements/conversion-picker/store-conversion-picker.ts';
import { drawn, ready, record, shadow } from './play.ts';

/** What the reference service's about resource lists, trimmed to the types shown here. */
const FORMATS = {
  'text/csv': ['application/vnd.svc-apps.spreadsheet'],
  'text/plain': ['application/vnd.svc-apps.document', 'application/vnd.svc-apps.spreadsheet'],
  'image/png': ['application/vnd.svc-apps.document'],
  'application/pdf': ['application/vnd.svc-apps.document'],
};

const meta: Meta = {
  title: 'Elements/store-conversion-picker',
  component: 'store-conversion-picker',
};
export default meta;
type Story = StoryObj;

/** A picker for one MIME type, choices from `FORMATS`. */
const forType = (mimeType: string) => () =>
  html`<store-conversion-picker mime-type=${mimeType} .importFormats=${FORMATS}></store-conversion-picker>`;

const picker = (canvas: HTMLElement) => ready<StoreConversionPicker>(canvas, 'store-conversion-picker');
const options = (select: HTMLSelectElement) => [...select.options].map((o) => o.textContent?.trim());

/** A CSV file can stay as is or become a spreadsheet; choosing fires `change` with the new value. */
export const Csv: Story = {
  render: forType('text/csv'),
  play: async ({ canvasElement }) => {
    const el = await picker(canvasElement);
    const select = shadow(el).getByRole<HTMLSelectElement>('combobox', { name: 'Store as' });
    await expect(options(select)).toEqual(['Keep as is', 'Spreadsheet']);
    const changes = record(el, 'change');
    await userEvent.selectOptions(select, 'application/vnd.svc-apps.spreadsheet');
    await expect(changes).toHaveLength(1);
    await expect(el.value).toBe('application/vnd.svc-apps.spreadsheet');
  },
};

/** Plain text can become a document or a spreadsheet. */
export const PlainText: Story = {
  render: forType('text/plain'),
  play: async ({ canvasElement }) => {
    const el = await picker(canvasElement);
    await expect(options(shadow(el).getByRole('combobox', { name: 'Store as' }))).toEqual([
      'Keep as is',
      'Document',
      'Spreadsheet',
    ]);
  },
};

/** A type the service cannot convert: the select is off and says the file is kept as is. */
export const NotConvertible: Story = {
  render: forType('application/zip'),
  play: async ({ canvasElement }) => {
    const select = shadow(await picker(canvasElement)).getByRole<HTMLSelectElement>('combobox', { name: 'Store as' });
    await expect(select).toBeDisabled();
    await expect(options(select)).toEqual(['Keep as is']);
  },
};

/** An image chosen to become a document shows the OCR language; picking one fires `change`. */
export const ImageWithOcr: Story = {
  render: () =>
    html`<store-conversion-picker mime-type="image/png" value="application/vnd.svc-apps.document" .importFormats=${FORMATS}></store-conversion-picker>`,
  play: async ({ canvasElement }) => {
    const el = await picker(canvasElement);
    const ocr = shadow(el).getByRole<HTMLSelectElement>('combobox', { name: 'Text recognition language' });
    const changes = record(el, 'change');
    await userEvent.selectOptions(ocr, 'fr');
    await expect(changes).toHaveLength(1);
    await expect(el.ocrLanguage).toBe('fr');
  },
};

/** The dark scheme (the toolbar's Scheme, fixed for this story). */
export const Dark: Story = {
  globals: { scheme: 'dark' },
  render: () =>
    html`<store-conversion-picker mime-type="application/pdf" value="application/vnd.svc-apps.document" .importFormats=${FORMATS}></store-conversion-picker>`,
  play: async ({ canvasElement }) => {
    const el = await picker(canvasElement);
    await expect(drawn(el).scheme).toBe('dark');
    await expect(shadow(el).getByRole('combobox', { name: 'Store as' })).toHaveValue(
      'application/vnd.svc-apps.document',
    );
  },
};

/** Under `lang="fr"` the labels and kinds are French. */
export const French: Story = {
  render: () =>
    html`<div lang="fr"><store-conversion-picker mime-type="image/png" value="application/vnd.svc-apps.document" .importFormats=${FORMATS}></store-conversion-picker></div>`,
  play: async ({ canvasElement }) => {
    const el = await picker(canvasElement);
    await expect(shadow(el).getByRole('combobox', { name: 'Enregistrer comme' })).toBeVisible();
  },
};
