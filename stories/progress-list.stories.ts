import type { Meta, StoryObj } from '@storybook/web-components-vite';
import { html } from 'lit';
import { ScriptedUploader, uploadScript } from '../src/testing/scripted-uploader.ts';
import { manyTasks } from '../src/testing/many-tasks.ts';
import type { SeedTask } from '../src/testing/scripted-uploader.ts';
import { allStates } from './all-states.ts';
import { sampleThumbnail } from './sample-thumbnails.ts';

const list = (tasks: SeedTask[], attrs: { dark?: boolean } = {}) =>
  html`<store-progress-list color-scheme=${attrs.dark ? 'dark' : 'light'} .uploader=${new ScriptedUploader({ tasks })}></store-progress-list>`;

const meta: Meta = {
  title: 'Elements/store-progress-list',
  component: 'store-progress-list',
};
export default meta;
type Story = StoryObj;

const MB = 1_000_000;
const uploading: SeedTask = { id: 'u', name: 'holiday.mov', total: 80 * MB, state: 'uploading', bytesSent: 30 * MB, speed: 4 * MB, etaMs: 12_500 };

export const Empty: Story = { render: () => list([]) };
export const Queued: Story = { render: () => list([{ name: 'report.pdf', total: 2 * MB }]) };
export const Uploading: Story = { render: () => list([uploading]) };
export const Paused: Story = { render: () => list([{ ...uploading, state: 'paused', speed: 0 }]) };
export const Retrying: Story = {
  render: () => list([{ ...uploading, state: 'retrying', speed: 0, retry: { attempt: 3, delayMs: 8000, cause: 'server-error', status: 503 } }]),
};
export const Verifying: Story = { render: () => list([{ ...uploading, state: 'verifying', bytesSent: 80 * MB, speed: 0 }]) };
export const Failed: Story = {
  render: () => list([{ name: 'scan.pdf', total: 3 * MB, bytesSent: MB, state: 'failed', error: { code: 'retries-exhausted', message: 'gave up' } }]),
};
export const Interrupted: Story = { render: () => list([{ name: 'backup.tar', total: 900 * MB, bytesSent: 300 * MB, bytesAcknowledged: 300 * MB, state: 'interrupted' }]) };
export const Done: Story = { render: () => list([{ name: 'photo.jpg', total: 4 * MB, state: 'done', bytesSent: 4 * MB, file: { id: 'f1' } }]) };
export const Converted: Story = {
  render: () => list([{ name: 'budget.csv', total: 40_000, state: 'done', bytesSent: 40_000, convertTo: 'application/vnd.svc-apps.spreadsheet', file: { id: 'f2' } }]),
};

/** Every state at once, one file of each kind. */
export const AllStates: Story = { render: () => list(allStates) };

/** Every state in a folder, dark. */
export const AllStatesDark: Story = {
  render: () => html`<div class="dark-page">${list(allStates.map((t) => ({ ...t, relativePath: `project/${t.name}` })), { dark: true })}</div>`,
};

/** 10,000 rows, virtualized. */
export const TenThousandRows: Story = { render: () => list(manyTasks(10_000)) };

/** A scripted run: watch the bar move and the live region announce milestones. */
export const Live: Story = {
  render: () => {
    const uploader = new ScriptedUploader({ tasks: [{ id: 'a', name: 'movie.mp4', total: 50 * MB }] });
    uploader.enqueue(...uploadScript('a', 50 * MB, 8));
    uploader.autoplay(700);
    return html`<store-progress-list .uploader=${uploader}></store-progress-list>`;
  },
};

export const Dark: Story = {
  render: () => html`<div class="dark-page">${list([uploading, { name: 'f.bin', total: MB, state: 'failed', error: { code: 'offline', message: '' } }], { dark: true })}</div>`,
};
export const Rtl: Story = { render: () => html`<div dir="rtl">${list([uploading])}</div>` };
export const French: Story = {
  render: () => html`<div lang="fr">${list([uploading, { name: 'r.bin', total: MB, state: 'retrying', retry: { attempt: 2, delayMs: 4000, cause: 'rate-limit' } }])}</div>`,
};

const photos: SeedTask[] = [
  { name: 'beach.jpg', type: 'image/jpeg', total: 3.2 * MB, state: 'done', bytesSent: 3.2 * MB, bytesAcknowledged: 3.2 * MB, file: { id: 'p1' } },
  { name: 'portrait-anna.jpg', type: 'image/jpeg', total: 2.8 * MB, state: 'uploading', bytesSent: 1.1 * MB, speed: 2 * MB, etaMs: 900 },
  { name: 'diagram.png', type: 'image/png', total: 420_000, state: 'queued' },
  { name: 'sticker.webp', type: 'image/webp', total: 90_000, state: 'paused', bytesSent: 30_000, bytesAcknowledged: 30_000 },
  { name: 'logo.svg', type: 'image/svg+xml', total: 12_000, state: 'queued' },
  { name: 'minutes.pdf', type: 'application/pdf', total: 1.4 * MB, state: 'queued' },
];

/** Image rows show the worker's thumbnail in the `thumbnail` part; others (an SVG, a PDF) keep their file-type icon. */
export const Thumbnails: Story = {
  render: () => html`<store-progress-list .uploader=${new ScriptedUploader({ tasks: photos, thumbnail: sampleThumbnail })}></store-progress-list>`,
};

/** Thumbnails on a dark page. */
export const ThumbnailsDark: Story = {
  render: () =>
    html`<div class="dark-page"><store-progress-list color-scheme="dark" .uploader=${new ScriptedUploader({ tasks: photos, thumbnail: sampleThumbnail })}></store-progress-list></div>`,
};

const resized: SeedTask[] = [
  { name: 'mountain.jpg', type: 'image/jpeg', originalSize: 4.2 * MB, total: 850_000, state: 'done', bytesSent: 850_000, bytesAcknowledged: 850_000, file: { id: 'r1' } },
  { name: 'portrait-leo.jpg', type: 'image/jpeg', originalSize: 6.1 * MB, total: 1.2 * MB, state: 'uploading', bytesSent: 400_000, speed: MB, etaMs: 800 },
  { name: 'scan.png', type: 'image/png', originalSize: 12 * MB, total: 2.4 * MB, state: 'queued' },
];

/** Images resized before upload (`imageResize`): the chosen size → the size sent. */
export const ResizedImages: Story = {
  render: () => html`<store-progress-list .uploader=${new ScriptedUploader({ tasks: resized, thumbnail: sampleThumbnail })}></store-progress-list>`,
};

/** The same in Hebrew, right to left: the arrow turns with the row, each size stays in its own direction. */
export const ResizedImagesRtl: Story = {
  render: () =>
    html`<div dir="rtl" lang="he"><store-progress-list .uploader=${new ScriptedUploader({ tasks: resized, thumbnail: sampleThumbnail })}></store-progress-list></div>`,
};
