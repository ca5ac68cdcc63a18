import type { Meta, StoryObj } from '@storybook/web-components-vite';
import { html } from 'lit';
import { ScriptedUploader, manyTasks, uploadScript } from '../src/testing/scripted-uploader.ts';
import type { SeedTask } from '../src/testing/scripted-uploader.ts';
import { allStates } from './all-states.ts';

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
