import type { Meta, StoryObj } from '@storybook/web-components-vite';
import { html } from 'lit';
import { expect, userEvent, waitFor } from 'storybook/test';
import type { StoreProgressList } from '../src/elements/progress-list/store-progress-list.ts';
import { ScriptedUploader, uploadScript } from '../test/fixtures/scripted-uploader.ts';
import { manyTasks } from '../test/fixtures/many-tasks.ts';
import type { SeedTask } from '../test/fixtures/scripted-uploader.ts';
import { allStates } from './all-states.ts';
import { drawn, expectFocus, part, press, ready, record, shadow } from './play.ts';
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
const uploading: SeedTask = {
  id: 'u',
  name: 'holiday.mov',
  total: 80 * MB,
  state: 'uploading',
  bytesSent: 30 * MB,
  speed: 4 * MB,
  etaMs: 12_500,
};

/** The story's list, rendered with its rows. */
const progressList = (canvas: HTMLElement) => ready<StoreProgressList>(canvas, 'store-progress-list');
const rows = (el: StoreProgressList) => shadow(el).getAllByRole('listitem');
const stateOf = (el: StoreProgressList, name: string) =>
  part(el, `[role="listitem"]:has(bdi[title="${name}"]) [part="state"]`).title;
const scripted = (el: StoreProgressList) => el.uploader as ScriptedUploader;

/** Shows that `state` reads `words` and offers exactly `buttons` (accessible names), as a user finds them. */
function showsState(name: string, words: string | RegExp, buttons: string[]): Story['play'] {
  return async ({ canvasElement }) => {
    const el = await progressList(canvasElement);
    await expect(stateOf(el, name)).toMatch(words);
    const row = rows(el)[0];
    await expect([...row.querySelectorAll('button')].map((b) => b.getAttribute('aria-label'))).toEqual(buttons);
  };
}

export const Empty: Story = {
  render: () => list([]),
  play: async ({ canvasElement }) => {
    await expect(part(await progressList(canvasElement), '[part="base"]')).toHaveTextContent('No uploads yet.');
  },
};

/** A waiting file can be paused or cancelled; "Cancel" fires `store-task-action` and the uploader cancels it. */
export const Queued: Story = {
  render: () => list([{ name: 'report.pdf', total: 2 * MB }]),
  play: async ({ canvasElement }) => {
    const el = await progressList(canvasElement);
    await expect(stateOf(el, 'report.pdf')).toBe('Waiting');
    const actions = record<CustomEvent<{ taskId: string; action: string }>>(el, 'store-task-action');
    await userEvent.click(shadow(el).getByRole('button', { name: 'Cancel report.pdf' }));
    await expect(actions.map((e) => e.detail.action)).toEqual(['cancel']);
    await waitFor(() => expect(stateOf(el, 'report.pdf')).toBe('Cancelled'));
  },
};

/** Bytes, speed and time left; "Pause" pauses it and focus stays on the button, which now says "Resume". */
export const Uploading: Story = {
  render: () => list([uploading]),
  play: async ({ canvasElement }) => {
    const el = await progressList(canvasElement);
    const ui = shadow(el);
    await expect(ui.getByRole('progressbar', { name: 'holiday.mov' })).toHaveAttribute(
      'aria-valuetext',
      '37% (30 MB of 80 MB)',
    );
    await expect(part(el, '[part="rate"]')).toHaveTextContent(/4 MB\/s.*left/);
    await userEvent.click(ui.getByRole('button', { name: 'Pause holiday.mov' }));
    await waitFor(() => expect(stateOf(el, 'holiday.mov')).toBe('Paused'));
    await expectFocus(ui.getByRole('button', { name: 'Resume holiday.mov' }));
    await expect(scripted(el).calls.map((c) => c.method)).toContain('pause');
  },
};

export const Paused: Story = {
  render: () => list([{ ...uploading, state: 'paused', speed: 0 }]),
  play: showsState('holiday.mov', 'Paused', ['Resume holiday.mov', 'Cancel holiday.mov']),
};
export const Retrying: Story = {
  render: () =>
    list([
      {
        ...uploading,
        state: 'retrying',
        speed: 0,
        retry: { attempt: 3, delayMs: 8000, cause: 'server-error', status: 503 },
      },
    ]),
  play: showsState('holiday.mov', /^Retrying \(try 3\) because the service had an error, in 8/, [
    'Retry holiday.mov',
    'Cancel holiday.mov',
  ]),
};
export const Verifying: Story = {
  render: () => list([{ ...uploading, state: 'verifying', bytesSent: 80 * MB, speed: 0 }]),
  play: showsState('holiday.mov', 'Verifying', []),
};
/** The reason is heard with the bar; "Retry" asks the uploader to retry. */
export const Failed: Story = {
  render: () =>
    list([
      {
        name: 'scan.pdf',
        total: 3 * MB,
        bytesSent: MB,
        state: 'failed',
        error: { code: 'retries-exhausted', message: 'gave up' },
      },
    ]),
  play: async (context) => {
    await showsState('scan.pdf', 'Failed: The upload kept failing and was stopped.', [
      'Retry scan.pdf',
      'Remove scan.pdf from the list',
    ])!(context);
    const el = await progressList(context.canvasElement);
    await expect(shadow(el).getByRole('progressbar', { name: 'scan.pdf' })).toHaveAccessibleDescription(
      'Failed: The upload kept failing and was stopped.',
    );
    await userEvent.click(shadow(el).getByRole('button', { name: 'Retry scan.pdf' }));
    await expect(scripted(el).calls.map((c) => c.method)).toContain('retry');
  },
};
export const Interrupted: Story = {
  render: () =>
    list([
      { name: 'backup.tar', total: 900 * MB, bytesSent: 300 * MB, bytesAcknowledged: 300 * MB, state: 'interrupted' },
    ]),
  play: showsState('backup.tar', 'Interrupted', [
    'Resume backup.tar',
    'Choose file again for backup.tar',
    'Discard backup.tar',
  ]),
};
export const Done: Story = {
  render: () => list([{ name: 'photo.jpg', total: 4 * MB, state: 'done', bytesSent: 4 * MB, file: { id: 'f1' } }]),
  play: showsState('photo.jpg', 'Uploaded', ['Remove photo.jpg from the list']),
};
export const Converted: Story = {
  render: () =>
    list([
      {
        name: 'budget.csv',
        total: 40_000,
        state: 'done',
        bytesSent: 40_000,
        convertTo: 'application/vnd.svc-apps.spreadsheet',
        file: { id: 'f2' },
      },
    ]),
  play: showsState('budget.csv', 'Uploaded as Spreadsheet', ['Remove budget.csv from the list']),
};

/** Every state at once, one file of each kind; ↓, End and Home move focus between rows. */
export const AllStates: Story = {
  render: () => list(allStates),
  play: async ({ canvasElement }) => {
    const el = await progressList(canvasElement);
    const all = rows(el);
    await expect(all.map((r) => r.dataset['state'])).toEqual(allStates.map((t) => t.state ?? 'queued'));
    await expect(part(el, '[part="summary"]')).toHaveTextContent('2 of 10 uploaded');
    all[0].focus();
    press('ArrowDown');
    await expectFocus(all[1]);
    press('End');
    await expectFocus(all[9]);
    press('Home');
    await expectFocus(all[0]);
  },
};

/** Every state in a folder, dark: rows name the file's path. */
export const AllStatesDark: Story = {
  globals: { scheme: 'dark' },
  render: () => list(allStates.map((t) => ({ ...t, relativePath: `project/${t.name}` }))),
  play: async ({ canvasElement }) => {
    const el = await progressList(canvasElement);
    await expect(drawn(el).scheme).toBe('dark');
    await expect(shadow(el).getByRole('progressbar', { name: 'project/notes.txt' })).toBeVisible();
  },
};

/** 10,000 rows, virtualized: only the rows in view are in the page, each saying where it sits in the 10,000. */
export const TenThousandRows: Story = {
  render: () => list(manyTasks(10_000)),
  play: async ({ canvasElement }) => {
    const el = await progressList(canvasElement);
    const shown = rows(el);
    await expect(shown.length).toBeLessThan(200);
    await expect(shown[0]).toHaveAttribute('aria-setsize', '10000');
  },
};

/** A scripted run: the bar moves and the live region announces the start and milestones, not every tick. */
export const Live: Story = {
  render: () => {
    const uploader = new ScriptedUploader({ tasks: [{ id: 'a', name: 'movie.mp4', total: 50 * MB }] });
    uploader.enqueue(...uploadScript('a', 50 * MB, 8));
    uploader.autoplay(700);
    return html`<store-progress-list .uploader=${uploader}></store-progress-list>`;
  },
  play: async ({ canvasElement }) => {
    const el = await progressList(canvasElement);
    const region = part(el, '[role="status"][aria-live="polite"]');
    await waitFor(() => expect(region).toHaveTextContent('Uploading movie.mp4.'), { timeout: 5000 });
    await waitFor(() => expect(region).toHaveTextContent('movie.mp4: 25% uploaded.'), { timeout: 10_000 });
  },
};

/** The dark scheme (the toolbar's Scheme, fixed for this story). */
export const Dark: Story = {
  globals: { scheme: 'dark' },
  render: () =>
    list([uploading, { name: 'f.bin', total: MB, state: 'failed', error: { code: 'offline', message: '' } }]),
  play: async ({ canvasElement }) => {
    const el = await progressList(canvasElement);
    await expect(drawn(el).scheme).toBe('dark');
    await expect(stateOf(el, 'f.bin')).toBe('Failed: You are offline.');
  },
};

/** Right to left (the toolbar's Direction, fixed for this story). */
export const Rtl: Story = {
  globals: { dir: 'rtl' },
  render: () => list([uploading]),
  play: async ({ canvasElement }) => {
    await expect(drawn(rows(await progressList(canvasElement))[0]).direction).toBe('rtl');
  },
};

export const French: Story = {
  render: () =>
    html`<div lang="fr">${list([uploading, { name: 'r.bin', total: MB, state: 'retrying', retry: { attempt: 2, delayMs: 4000, cause: 'rate-limit' } }])}</div>`,
  play: async ({ canvasElement }) => {
    const el = await progressList(canvasElement);
    await expect(stateOf(el, 'r.bin')).toMatch(/^Nouvel essai \(n° 2\)/);
    await expect(shadow(el).getByRole('button', { name: 'Réessayer r.bin' })).toBeVisible();
  },
};

const photos: SeedTask[] = [
  {
    name: 'beach.jpg',
    type: 'image/jpeg',
    total: 3.2 * MB,
    state: 'done',
    bytesSent: 3.2 * MB,
    bytesAcknowledged: 3.2 * MB,
    file: { id: 'p1' },
  },
  {
    name: 'portrait-anna.jpg',
    type: 'image/jpeg',
    total: 2.8 * MB,
    state: 'uploading',
    bytesSent: 1.1 * MB,
    speed: 2 * MB,
    etaMs: 900,
  },
  { name: 'diagram.png', type: 'image/png', total: 420_000, state: 'queued' },
  {
    name: 'sticker.webp',
    type: 'image/webp',
    total: 90_000,
    state: 'paused',
    bytesSent: 30_000,
    bytesAcknowledged: 30_000,
  },
  { name: 'logo.svg', type: 'image/svg+xml', total: 12_000, state: 'queued' },
  { name: 'minutes.pdf', type: 'application/pdf', total: 1.4 * MB, state: 'queued' },
];

/** The four pictures show their thumbnails; the SVG and the PDF keep their file-type icons. */
async function showsThumbnails({ canvasElement }: { canvasElement: HTMLElement }): Promise<void> {
  const el = await progressList(canvasElement);
  await waitFor(() => expect(el.shadowRoot!.querySelectorAll('img[part="thumbnail"]')).toHaveLength(4));
  await expect(el.shadowRoot!.querySelectorAll('[part="icon"]')).toHaveLength(2);
}

/** Image rows show the worker's thumbnail in the `thumbnail` part; others (an SVG, a PDF) keep their file-type icon. */
export const Thumbnails: Story = {
  render: () =>
    html`<store-progress-list .uploader=${new ScriptedUploader({ tasks: photos, thumbnail: sampleThumbnail })}></store-progress-list>`,
  play: showsThumbnails,
};

/** Thumbnails on a dark page. */
export const ThumbnailsDark: Story = {
  globals: { scheme: 'dark' },
  render: () =>
    html`<store-progress-list .uploader=${new ScriptedUploader({ tasks: photos, thumbnail: sampleThumbnail })}></store-progress-list>`,
  play: showsThumbnails,
};

const resized: SeedTask[] = [
  {
    name: 'mountain.jpg',
    type: 'image/jpeg',
    originalSize: 4.2 * MB,
    total: 850_000,
    state: 'done',
    bytesSent: 850_000,
    bytesAcknowledged: 850_000,
    file: { id: 'r1' },
  },
  {
    name: 'portrait-leo.jpg',
    type: 'image/jpeg',
    originalSize: 6.1 * MB,
    total: 1.2 * MB,
    state: 'uploading',
    bytesSent: 400_000,
    speed: MB,
    etaMs: 800,
  },
  { name: 'scan.png', type: 'image/png', originalSize: 12 * MB, total: 2.4 * MB, state: 'queued' },
];

/** Images resized before upload (`imageResize`): the chosen size → the size sent; a screen reader hears it in words. */
export const ResizedImages: Story = {
  render: () =>
    html`<store-progress-list .uploader=${new ScriptedUploader({ tasks: resized, thumbnail: sampleThumbnail })}></store-progress-list>`,
  play: async ({ canvasElement }) => {
    const el = await progressList(canvasElement);
    await expect(part(el, '[part="size"]')).toHaveTextContent('4.2 MB, resized to 850 kB');
  },
};

/** The same in Hebrew, right to left: the arrow turns with the row, each size stays in its own direction. */
export const ResizedImagesRtl: Story = {
  globals: { dir: 'rtl' },
  render: () =>
    html`<div lang="he"><store-progress-list .uploader=${new ScriptedUploader({ tasks: resized, thumbnail: sampleThumbnail })}></store-progress-list></div>`,
  play: async ({ canvasElement }) => {
    const el = await progressList(canvasElement);
    // The arrow is mirrored in a right-to-left row ("→" is not a mirrored character).
    await expect(getComputedStyle(part(el, '.arrow')).transform).toBe('matrix(-1, 0, 0, 1, 0, 0)');
    await expect(part(el, '[part="size"] bdi').textContent).toMatch(/4\.2/);
  },
};
