import type { Meta, StoryObj } from '@storybook/web-components-vite';
import { html } from 'lit';
import { expect, waitFor } from 'storybook/test';
import type { StoreDropzone } from '../src/elements/dropzone/store-dropzone.ts';
import type { RejectedFile } from '../src/elements/events.ts';
import { ScriptedUploader } from '../test/fixtures/scripted-uploader.ts';
import { drawn, dropFiles, expectFocus, part, press, ready, record, shadow } from './play.ts';

const meta: Meta = {
  title: 'Elements/store-dropzone',
  component: 'store-dropzone',
  render: () => html`<store-dropzone multiple .uploader=${new ScriptedUploader()}></store-dropzone>`,
};
export default meta;
type Story = StoryObj;

const zone = (canvas: HTMLElement) => ready<StoreDropzone>(canvas, 'store-dropzone');
const picked = (name: string, size: number, type = 'text/plain') => ({
  file: new File([new Uint8Array(size)], name, { type }),
  relativePath: name,
});
const refusals = (el: StoreDropzone) =>
  [...part(el, '[part="rejections"]').querySelectorAll('li')].map((li) => [li.dataset['reason'], li.textContent]);

/** Nothing dropped yet: focus lands on "Browse files"; a dropped file is announced and goes to the uploader. */
export const Empty: Story = {
  play: async ({ canvasElement }) => {
    const el = await zone(canvasElement);
    const ui = shadow(el);
    await expect(ui.getByRole('group', { name: 'Upload files' })).toHaveTextContent(
      'Drop files or folders here, paste them, or',
    );
    // Focusing the element (a label's click, a form's blocked submit) lands on "Browse files", where a paste arrives.
    el.focus();
    await expectFocus(ui.getByRole('button', { name: 'Browse files' }));
    await expect(ui.getByRole('button', { name: 'Browse folder' })).toBeEnabled();
    const added = record<CustomEvent<{ files: { relativePath: string }[] }>>(el, 'store-files-add');
    dropFiles(part(el, '[part="base"]'), [new File(['hello'], 'notes.txt', { type: 'text/plain' })]);
    await waitFor(() => expect(added.map((e) => e.detail.files.map((f) => f.relativePath))).toEqual([['notes.txt']]));
    await waitFor(() =>
      expect((el.uploader as ScriptedUploader).snapshot.tasks.map((t) => t.name)).toEqual(['notes.txt']),
    );
  },
};

/** Files are being dragged over the zone: the prompt changes and the host shows `drag-over`. */
export const DragOver: Story = {
  play: async ({ canvasElement }) => {
    const el = await zone(canvasElement);
    const dt = new DataTransfer();
    dt.items.add(new File(['x'], 'report.pdf', { type: 'application/pdf' }));
    el.dispatchEvent(new DragEvent('dragenter', { dataTransfer: dt, bubbles: true, cancelable: true }));
    await waitFor(() => expect(el).toHaveAttribute('drag-over'));
    await expect(part(el, '[part="prompt"]')).toHaveTextContent('Release to add the files');
  },
};

/** Files refused by `accept`, `max-file-size` and `max-files`, listed with their reasons and reported in `store-files-reject`. */
export const Rejected: Story = {
  render: () =>
    html`<store-dropzone multiple accept=".csv,image/*" max-file-size="1000" max-files="2"></store-dropzone>`,
  play: async ({ canvasElement }) => {
    const el = await zone(canvasElement);
    const rejected = record<CustomEvent<{ files: RejectedFile[] }>>(el, 'store-files-reject');
    await el.addFiles([
      picked('budget.csv', 10, 'text/csv'),
      picked('notes.txt', 10),
      picked('poster.png', 5000, 'image/png'),
      picked('a.csv', 1, 'text/csv'),
      picked('b.csv', 1, 'text/csv'),
    ]);
    await el.updateComplete;
    await expect(rejected.flatMap((e) => e.detail.files.map((f) => f.relativePath))).toEqual([
      'notes.txt',
      'poster.png',
      'b.csv',
    ]);
    await expect(refusals(el)).toEqual([
      ['type', 'notes.txt: this type of file is not accepted.'],
      ['size', 'poster.png: larger than the limit of 1 kB.'],
      ['count', 'b.csv: at most 2 files can be added.'],
    ]);
  },
};

/** The list of refused files closes with Escape, and focus goes back to "Browse files". */
export const RejectedDismissed: Story = {
  render: () => html`<store-dropzone accept=".csv"></store-dropzone>`,
  play: async ({ canvasElement }) => {
    const el = await zone(canvasElement);
    await el.addFiles([picked('notes.txt', 10)]);
    await el.updateComplete;
    const ui = shadow(el);
    ui.getByRole('button', { name: 'Dismiss' }).focus();
    press('Escape');
    await waitFor(() => expect(ui.queryByText('notes.txt: this type of file is not accepted.')).toBeNull());
    await expectFocus(ui.getByRole('button', { name: 'Browse files' }));
  },
};

/**
 * Files refused by `min-file-size`, `max-total-size` and a `beforeUpload` hook (one skipped, one whose hook threw),
 * under right-to-left Hebrew.
 */
export const RejectedBySizeAndHook: Story = {
  globals: { dir: 'rtl' },
  render: () =>
    html`<div lang="he"><store-dropzone multiple min-file-size="100" max-total-size="5000"></store-dropzone></div>`,
  play: async ({ canvasElement }) => {
    const el = await zone(canvasElement);
    el.beforeUpload = (file) => {
      if (file.name.startsWith('.')) return false;
      if (file.name.endsWith('.tmp')) throw new Error('temporary files are not uploaded');
      return undefined;
    };
    await el.addFiles([
      picked('empty.txt', 0),
      picked('report.txt', 4000),
      picked('appendix.txt', 2000),
      picked('.DS_Store', 200),
      picked('draft.tmp', 300),
    ]);
    await el.updateComplete;
    await expect(drawn(part(el, '[part="rejections"]')).direction).toBe('rtl');
    await expect(refusals(el).map(([reason]) => reason)).toEqual(['min-size', 'total-size', 'skipped', 'hook-error']);
    await expect(part(el, '[part="rejections"]')).toHaveTextContent('temporary files are not uploaded');
  },
};

/** Disabled: both buttons are off and a drop adds nothing. */
export const Disabled: Story = {
  render: () => html`<store-dropzone disabled></store-dropzone>`,
  play: async ({ canvasElement }) => {
    const el = await zone(canvasElement);
    await expect(shadow(el).getByRole('button', { name: 'Browse files' })).toBeDisabled();
    await expect(shadow(el).getByRole('button', { name: 'Browse folder' })).toBeDisabled();
    const added = record(el, 'store-files-add');
    dropFiles(part(el, '[part="base"]'), [new File(['x'], 'a.txt')]);
    await el.updateComplete;
    await expect(added).toHaveLength(0);
  },
};

/** The dark scheme (the toolbar's Scheme, fixed for this story). */
export const Dark: Story = {
  globals: { scheme: 'dark' },
  play: async ({ canvasElement }) => {
    await expect(drawn(await zone(canvasElement)).scheme).toBe('dark');
  },
};

/** Right-to-left layout (the toolbar's Direction, fixed for this story), French words. */
export const RtlFrench: Story = {
  globals: { dir: 'rtl' },
  render: () => html`<div lang="fr"><store-dropzone multiple></store-dropzone></div>`,
  play: async ({ canvasElement }) => {
    const el = await zone(canvasElement);
    await expect(drawn(el).direction).toBe('rtl');
    await expect(shadow(el).getByRole('button', { name: 'Parcourir les fichiers' })).toBeVisible();
  },
};
