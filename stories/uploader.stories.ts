import type { Meta, StoryObj } from '@storybook/web-components-vite';
import { html } from 'lit';
import { expect, userEvent, waitFor } from 'storybook/test';
import type { ShareGrant, StoreEventDetails } from '../src/elements/events.ts';
import type { StoreUploader } from '../src/elements/uploader/store-uploader.ts';
import { ScriptedUploader, uploadScript } from '../test/fixtures/scripted-uploader.ts';
import type { AddOptions } from '../src/uploader/contract/types.ts';
import { drawn, dropFiles, expectFocus, part, ready, record, settled, shadow } from './play.ts';

const FORMATS = {
  'text/csv': ['application/vnd.svc-apps.spreadsheet'],
  'image/png': ['application/vnd.svc-apps.document'],
};
const MB = 1_000_000;

/** A scripted uploader that uploads whatever is dropped, one step every 300 ms. */
function playing(options: ConstructorParameters<typeof ScriptedUploader>[0] = {}): ScriptedUploader {
  const uploader = new ScriptedUploader({ autoComplete: true, ...options });
  uploader.autoplay(300);
  return uploader;
}

const pretendShare = async (_ids: string[], _grants: ShareGrant[]) => ({ failed: 0 });

const meta: Meta = {
  title: 'Elements/store-uploader',
  component: 'store-uploader',
};
export default meta;
type Story = StoryObj;

const flow = (canvas: HTMLElement) => ready<StoreUploader>(canvas, 'store-uploader');
const scripted = (el: StoreUploader) => el.uploader as ScriptedUploader;
/** The inner list's rows, by name, with their state. */
const rowStates = (el: StoreUploader) =>
  [...part(el, 'store-progress-list').shadowRoot!.querySelectorAll<HTMLElement>('[role="listitem"]')].map((r) => [
    r.querySelector('[part="name"]')?.textContent,
    r.dataset['state'],
  ]);
/** The kind the first added file was sent to become. */
const convertedTo = (el: StoreUploader) =>
  (scripted(el).calls.find((c) => c.method === 'add')?.options as AddOptions | undefined)?.convertTo;
const csv = () => new File(['a,b\n1,2\n'], 'budget.csv', { type: 'text/csv' });

/**
 * Drop files: they upload (scripted) with a global conversion switch. Checked, a dropped CSV becomes a spreadsheet;
 * once it is uploaded the element fires `change` and its form value is the new file's ID.
 */
export const Default: Story = {
  render: () => html`<store-uploader .uploader=${playing()} .importFormats=${FORMATS}></store-uploader>`,
  play: async ({ canvasElement }) => {
    const el = await flow(canvasElement);
    const changes = record(el, 'change');
    await userEvent.click(shadow(el).getByRole('checkbox', { name: 'Convert files to native formats where possible' }));
    await settled(el.shadowRoot!);
    dropFiles(part(el, 'store-dropzone'), [csv()]);
    await waitFor(() => expect(rowStates(el)).toEqual([['budget.csv', 'done']]), { timeout: 10_000 });
    await expect(convertedTo(el)).toBe('application/vnd.svc-apps.spreadsheet');
    await waitFor(() => expect(changes.length).toBeGreaterThan(0));
    await expect(el.value).toHaveLength(1);
  },
};

/** A conversion picker per file before uploading. */
export const PerFileConversion: Story = {
  render: () =>
    html`<store-uploader conversion="per-file" .uploader=${playing()} .importFormats=${FORMATS}></store-uploader>`,
  play: async ({ canvasElement }) => {
    const el = await flow(canvasElement);
    dropFiles(part(el, 'store-dropzone'), [csv()]);
    const pending = await shadow(el).findByRole('group', { name: 'Choose how each file is stored' });
    await settled(el.shadowRoot!);
    const picker = pending.querySelector('store-conversion-picker')!;
    await userEvent.selectOptions(
      shadow(picker).getByRole('combobox', { name: 'Store as' }),
      'application/vnd.svc-apps.spreadsheet',
    );
    await userEvent.click(shadow(el).getByRole('button', { name: 'Upload 1 file' }));
    await waitFor(() => expect(convertedTo(el)).toBe('application/vnd.svc-apps.spreadsheet'));
    await waitFor(() => expect(shadow(el).queryByRole('group', { name: 'Choose how each file is stored' })).toBeNull());
  },
};

/** Uploads cut short in an earlier page life, offered for resume. */
export const Interrupted: Story = {
  render: () =>
    html`<store-uploader
      .uploader=${playing({
        interrupted: [
          {
            id: 'i1',
            name: 'backup.tar',
            type: '',
            total: 900 * MB,
            bytesAcknowledged: 300 * MB,
            updatedAt: 0,
            canResumeWithoutFile: true,
          },
          {
            id: 'i2',
            name: 'video.mp4',
            type: 'video/mp4',
            total: 80 * MB,
            bytesAcknowledged: 10 * MB,
            updatedAt: 0,
            canResumeWithoutFile: false,
          },
        ],
      })}
    ></store-uploader>`,
  play: async ({ canvasElement }) => {
    const el = await flow(canvasElement);
    const ui = shadow(el);
    const box = await ui.findByRole('group', { name: 'Unfinished uploads' });
    await expect(box).toHaveTextContent('backup.tar: 300 MB of 900 MB stored');
    // video.mp4 kept no file handle: it can only be chosen again or discarded.
    await expect(ui.getByRole('button', { name: 'Choose file again for video.mp4' })).toBeVisible();
    await userEvent.click(ui.getByRole('button', { name: 'Discard video.mp4' }));
    await waitFor(() => expect(box).not.toHaveTextContent('video.mp4'));
    // The pressed button is gone: focus moves to the list's first control, not to the page.
    await expectFocus(ui.getByRole('button', { name: 'Resume all' }));
    await expect(scripted(el).calls.map((c) => c.method)).toContain('discardInterrupted');
  },
};

/**
 * A dropped folder uploading into a target folder (`parent-id`): each row shows the file's path in the tree the
 * service gets; three at a time, as the default concurrency.
 */
export const FolderUpload: Story = {
  render: () => {
    const tree: [string, number][] = [
      ['photos/2026/beach.jpg', 4 * MB],
      ['photos/2026/dunes.jpg', 3 * MB],
      ['photos/2025/snow.png', 2 * MB],
      ['photos/notes/list.txt', 2_000],
      ['photos/readme.md', 1_500],
    ];
    const uploader = new ScriptedUploader({
      tasks: tree.map(([path, total], i) => ({
        id: `t${i}`,
        name: path.split('/').pop()!,
        relativePath: path,
        total,
        type: path.endsWith('.jpg') ? 'image/jpeg' : '',
      })),
    });
    // Three uploads move together, then the next ones: the steps of each group of three interleave.
    const scripts = tree.map(([, total], i) => uploadScript(`t${i}`, total, 4));
    for (let group = 0; group < scripts.length; group += 3) {
      const running = scripts.slice(group, group + 3);
      for (let step = 0; step < running[0].length; step++)
        for (const script of running) if (script[step]) uploader.enqueue(script[step]);
    }
    uploader.autoplay(300);
    return html`<store-uploader parent-id="target-folder" .uploader=${uploader}></store-uploader>`;
  },
  play: async ({ canvasElement }) => {
    const el = await flow(canvasElement);
    await expect(rowStates(el).map(([name]) => name)).toEqual([
      'photos/2026/beach.jpg',
      'photos/2026/dunes.jpg',
      'photos/2025/snow.png',
      'photos/notes/list.txt',
      'photos/readme.md',
    ]);
    // Three at a time: the first three upload while the other two wait.
    await waitFor(
      () =>
        expect(rowStates(el).map(([, state]) => state)).toEqual([
          'uploading',
          'uploading',
          'uploading',
          'queued',
          'queued',
        ]),
      { timeout: 5000 },
    );
  },
};

/** Unfinished uploads after a reload, each with a kept file handle or copy: "Resume all" resumes them with no file dialog. */
export const ResumeAll: Story = {
  render: () =>
    html`<store-uploader
      .uploader=${playing({
        interrupted: [
          {
            id: 'r1',
            name: 'holiday.mov',
            type: 'video/quicktime',
            total: 700 * MB,
            bytesAcknowledged: 420 * MB,
            updatedAt: 0,
            canResumeWithoutFile: true,
          },
          {
            id: 'r2',
            name: 'thesis.pdf',
            type: 'application/pdf',
            total: 12 * MB,
            bytesAcknowledged: 3 * MB,
            updatedAt: 0,
            canResumeWithoutFile: true,
          },
          {
            id: 'r3',
            name: 'scan.tiff',
            type: 'image/tiff',
            total: 90 * MB,
            bytesAcknowledged: 30 * MB,
            updatedAt: 0,
            canResumeWithoutFile: false,
          },
        ],
      })}
    ></store-uploader>`,
  play: async ({ canvasElement }) => {
    const el = await flow(canvasElement);
    await userEvent.click(await shadow(el).findByRole('button', { name: 'Resume all' }));
    await waitFor(() => expect(rowStates(el).map(([name]) => name)).toEqual(['holiday.mov', 'thesis.pdf']));
    // The one without a kept file still waits for the user.
    await expect(shadow(el).getByRole('button', { name: 'Choose file again for scan.tiff' })).toBeVisible();
  },
};

/** After "Resume all": one file changed since its upload began, so it is noted and left for the user. */
export const ResumeAllFileChanged: Story = {
  render: () =>
    html`<store-uploader
      .uploader=${playing({
        interrupted: [
          {
            id: 'c1',
            name: 'holiday.mov',
            type: 'video/quicktime',
            total: 700 * MB,
            bytesAcknowledged: 420 * MB,
            updatedAt: 0,
            canResumeWithoutFile: true,
          },
          {
            id: 'c2',
            name: 'budget.xlsx',
            type: '',
            total: 2 * MB,
            bytesAcknowledged: MB,
            updatedAt: 0,
            canResumeWithoutFile: true,
          },
        ],
        changedOnResume: ['c2'],
      })}
    ></store-uploader>`,
  play: async ({ canvasElement }) => {
    const uploader = canvasElement.querySelector('store-uploader')!;
    const button = () => uploader.shadowRoot?.querySelector<HTMLButtonElement>('[part="resume-all"]');
    // The list loads its code on first need: wait for its button, then press it as a user would.
    for (let frame = 0; frame < 120 && !button(); frame++) await new Promise((r) => requestAnimationFrame(r));
    button()?.click();
    await waitFor(() =>
      expect(part(uploader, '[part="interrupted-changed"]')).toHaveTextContent(
        'budget.xlsx changed since its upload began',
      ),
    );
  },
};

/**
 * Finished uploads with the share step: a wrong entry is refused with an alert; a right one shares both files and
 * fires `store-share-complete`.
 */
export const Share: Story = {
  render: () =>
    html`<store-uploader
      share
      .shareFiles=${pretendShare}
      .uploader=${new ScriptedUploader({
        tasks: [
          {
            name: 'budget.csv',
            total: 40_000,
            bytesSent: 40_000,
            state: 'done',
            convertTo: 'application/vnd.svc-apps.spreadsheet',
            file: { id: 'f1' },
          },
          { name: 'photo.jpg', total: 4 * MB, bytesSent: 4 * MB, state: 'done', file: { id: 'f2' } },
        ],
      })}
    ></store-uploader>`,
  play: async ({ canvasElement }) => {
    const el = await flow(canvasElement);
    const ui = shadow(el);
    const shared = record<CustomEvent<StoreEventDetails['store-share-complete']>>(el, 'store-share-complete');
    const emails = await ui.findByRole('textbox', { name: 'E-mail addresses or domains' });
    await userEvent.type(emails, 'ana@');
    await userEvent.click(ui.getByRole('button', { name: 'Share 2 files' }));
    await waitFor(() =>
      expect(ui.getByRole('alert')).toHaveTextContent('"ana@" is neither an e-mail address nor a domain.'),
    );
    await expect(emails).toHaveAttribute('aria-invalid', 'true');
    // Select what was typed and type over it (Testing Library's `clear` cannot see focus inside a shadow root).
    await userEvent.type(emails, 'ana@uploads.test', { initialSelectionStart: 0, initialSelectionEnd: 4 });
    await expect(emails).toHaveValue('ana@uploads.test');
    await userEvent.click(ui.getByRole('button', { name: 'Share 2 files' }));
    await waitFor(() => expect(shared).toHaveLength(1));
    await expect(shared[0].detail.fileIds).toEqual(['f1', 'f2']);
    await expect(await ui.findByText('Shared with 1 person.')).toBeVisible();
  },
};

/** The dark scheme (the toolbar's Scheme, fixed for this story): the inner elements follow it. */
export const Dark: Story = {
  globals: { scheme: 'dark' },
  render: () => html`<store-uploader share .shareFiles=${pretendShare} .uploader=${playing()}></store-uploader>`,
  play: async ({ canvasElement }) => {
    const el = await flow(canvasElement);
    await expect(drawn(part(el, 'store-dropzone')).scheme).toBe('dark');
    await expect(drawn(part(el, 'store-progress-list')).scheme).toBe('dark');
  },
};

/** Right to left (the toolbar's Direction, fixed for this story), French words. */
export const RtlFrench: Story = {
  globals: { dir: 'rtl' },
  render: () =>
    html`<div lang="fr"><store-uploader .uploader=${playing()} .importFormats=${FORMATS}></store-uploader></div>`,
  play: async ({ canvasElement }) => {
    const el = await flow(canvasElement);
    await expect(drawn(el).direction).toBe('rtl');
    await expect(
      shadow(el).getByRole('checkbox', { name: 'Convertir les fichiers en formats natifs si possible' }),
    ).not.toBeChecked();
  },
};

/**
 * Against the real reference service: start it with `npm start` (port 8080, dev tokens). Uses the worker-based
 * uploader; not part of the automated story run because it needs the service.
 */
export const LiveService: Story = {
  tags: ['!test'],
  args: { baseUrl: 'http://localhost:8080', token: 'dev-token-alice' },
  // Editable here, unlike the docs rows of other properties (set in the stories' templates).
  argTypes: { baseUrl: { control: 'text' }, token: { control: 'text' } },
  render: (args) => html`<store-uploader share base-url=${args['baseUrl']} token=${args['token']}></store-uploader>`,
};
