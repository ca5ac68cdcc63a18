import type { Meta, StoryObj } from '@storybook/web-components-vite';
import { html } from 'lit';

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
  args: { mimeType: 'text/csv' },
  render: (args) => html`<store-conversion-picker mime-type=${args['mimeType']} .importFormats=${FORMATS}></store-conversion-picker>`,
};
export default meta;
type Story = StoryObj;

export const Csv: Story = {};
export const PlainText: Story = { args: { mimeType: 'text/plain' } };
export const NotConvertible: Story = { args: { mimeType: 'application/zip' } };
/** An image chosen to become a document shows the OCR language. */
export const ImageWithOcr: Story = {
  render: () => html`<store-conversion-picker mime-type="image/png" value="application/vnd.svc-apps.document" .importFormats=${FORMATS}></store-conversion-picker>`,
};
export const Dark: Story = {
  render: () => html`<store-conversion-picker color-scheme="dark" mime-type="application/pdf" value="application/vnd.svc-apps.document" .importFormats=${FORMATS}></store-conversion-picker>`,
};
export const French: Story = {
  render: () => html`<div lang="fr"><store-conversion-picker mime-type="image/png" value="application/vnd.svc-apps.document" .importFormats=${FORMATS}></store-conversion-picker></div>`,
};
