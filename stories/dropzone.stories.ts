import type { Meta, StoryObj } from '@storybook/web-components-vite';
import { html } from 'lit';
import type { StoreDropzone } from '../src/elements/dropzone/store-dropzone.ts';
import { ScriptedUploader } from '../src/testing/scripted-uploader.ts';

const meta: Meta = {
  title: 'Elements/store-dropzone',
  component: 'store-dropzone',
  render: () => html`<store-dropzone multiple .uploader=${new ScriptedUploader()}></store-dropzone>`,
};
export default meta;
type Story = StoryObj;

const zone = (root: HTMLElement): StoreDropzone => root.querySelector('store-dropzone')!;

/** Nothing dropped yet. */
export const Empty: Story = {};

/** Files are being dragged over the zone. */
export const DragOver: Story = {
  play: async ({ canvasElement }) => {
    const dt = new DataTransfer();
    dt.items.add(new File(['x'], 'report.pdf', { type: 'application/pdf' }));
    zone(canvasElement).dispatchEvent(new DragEvent('dragenter', { dataTransfer: dt, bubbles: true, cancelable: true }));
  },
};

/** Files refused by `accept`, `max-file-size` and `max-files`, listed with their reasons. */
export const Rejected: Story = {
  render: () => html`<store-dropzone multiple accept=".csv,image/*" max-file-size="1000" max-files="2"></store-dropzone>`,
  play: async ({ canvasElement }) => {
    const f = (name: string, size: number, type: string) => ({ file: new File([new Uint8Array(size)], name, { type }), relativePath: name });
    await zone(canvasElement).addFiles([
      f('budget.csv', 10, 'text/csv'),
      f('notes.txt', 10, 'text/plain'),
      f('poster.png', 5000, 'image/png'),
      f('a.csv', 1, 'text/csv'),
      f('b.csv', 1, 'text/csv'),
    ]);
  },
};

/**
 * Files refused by `min-file-size`, `max-total-size` and a `beforeUpload` hook (one skipped, one whose hook threw),
 * under right-to-left Hebrew.
 */
export const RejectedBySizeAndHook: Story = {
  render: () => html`<div dir="rtl" lang="he"><store-dropzone multiple min-file-size="100" max-total-size="5000"></store-dropzone></div>`,
  play: async ({ canvasElement }) => {
    const dz = zone(canvasElement);
    dz.beforeUpload = (file) => {
      if (file.name.startsWith('.')) return false;
      if (file.name.endsWith('.tmp')) throw new Error('temporary files are not uploaded');
      return undefined;
    };
    const f = (name: string, size: number) => ({ file: new File([new Uint8Array(size)], name, { type: 'text/plain' }), relativePath: name });
    await dz.addFiles([f('empty.txt', 0), f('report.txt', 4000), f('appendix.txt', 2000), f('.DS_Store', 200), f('draft.tmp', 300)]);
  },
};

/** Disabled: every control is off. */
export const Disabled: Story = { render: () => html`<store-dropzone disabled></store-dropzone>` };

/** Forced dark scheme. */
export const Dark: Story = {
  render: () => html`<div style="background:#000;padding:1rem"><store-dropzone color-scheme="dark" multiple></store-dropzone></div>`,
};

/** Right-to-left layout (Arabic/Hebrew pages), French words. */
export const RtlFrench: Story = {
  render: () => html`<div dir="rtl" lang="fr"><store-dropzone multiple></store-dropzone></div>`,
};
