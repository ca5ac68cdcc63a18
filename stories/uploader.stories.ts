import type { Meta, StoryObj } from '@storybook/web-components-vite';
import { html } from 'lit';
import type { ShareGrant } from '../src/elements/events.ts';
import { ScriptedUploader, uploadScript } from '../src/testing/scripted-uploader.ts';

const FORMATS = { 'text/csv': ['application/vnd.svc-apps.spreadsheet'], 'image/png': ['application/vnd.svc-apps.document'] };
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

/** Drop files: they upload (scripted) with a global conversion switch. */
export const Default: Story = {
  render: () => html`<store-uploader .uploader=${playing()} .importFormats=${FORMATS}></store-uploader>`,
};

/** A conversion picker per file before uploading. */
export const PerFileConversion: Story = {
  render: () => html`<store-uploader conversion="per-file" .uploader=${playing()} .importFormats=${FORMATS}></store-uploader>`,
};

/** Uploads cut short in an earlier page life, offered for resume. */
export const Interrupted: Story = {
  render: () =>
    html`<store-uploader
      .uploader=${playing({
        interrupted: [
          { id: 'i1', name: 'backup.tar', type: '', total: 900 * MB, bytesAcknowledged: 300 * MB, updatedAt: 0, canResumeWithoutFile: true },
          { id: 'i2', name: 'video.mp4', type: 'video/mp4', total: 80 * MB, bytesAcknowledged: 10 * MB, updatedAt: 0, canResumeWithoutFile: false },
        ],
      })}
    ></store-uploader>`,
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
      tasks: tree.map(([path, total], i) => ({ id: `t${i}`, name: path.split('/').pop()!, relativePath: path, total, type: path.endsWith('.jpg') ? 'image/jpeg' : '' })),
    });
    // Three uploads move together, then the next ones: the steps of each group of three interleave.
    const scripts = tree.map(([, total], i) => uploadScript(`t${i}`, total, 4));
    for (let group = 0; group < scripts.length; group += 3) {
      const running = scripts.slice(group, group + 3);
      for (let step = 0; step < running[0]!.length; step++) for (const script of running) if (script[step]) uploader.enqueue(script[step]!);
    }
    uploader.autoplay(300);
    return html`<store-uploader parent-id="target-folder" .uploader=${uploader}></store-uploader>`;
  },
};

/** Unfinished uploads after a reload, each with a kept file handle or copy: "Resume all" resumes them with no file dialog. */
export const ResumeAll: Story = {
  render: () =>
    html`<store-uploader
      .uploader=${playing({
        interrupted: [
          { id: 'r1', name: 'holiday.mov', type: 'video/quicktime', total: 700 * MB, bytesAcknowledged: 420 * MB, updatedAt: 0, canResumeWithoutFile: true },
          { id: 'r2', name: 'thesis.pdf', type: 'application/pdf', total: 12 * MB, bytesAcknowledged: 3 * MB, updatedAt: 0, canResumeWithoutFile: true },
          { id: 'r3', name: 'scan.tiff', type: 'image/tiff', total: 90 * MB, bytesAcknowledged: 30 * MB, updatedAt: 0, canResumeWithoutFile: false },
        ],
      })}
    ></store-uploader>`,
};

/** After "Resume all": one file changed since its upload began, so it is noted and left for the user. */
export const ResumeAllFileChanged: Story = {
  render: () =>
    html`<store-uploader
      .uploader=${playing({
        interrupted: [
          { id: 'c1', name: 'holiday.mov', type: 'video/quicktime', total: 700 * MB, bytesAcknowledged: 420 * MB, updatedAt: 0, canResumeWithoutFile: true },
          { id: 'c2', name: 'budget.xlsx', type: '', total: 2 * MB, bytesAcknowledged: MB, updatedAt: 0, canResumeWithoutFile: true },
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
  },
};

/** Finished uploads with the share step. */
export const Share: Story = {
  render: () =>
    html`<store-uploader
      share
      .shareFiles=${pretendShare}
      .uploader=${new ScriptedUploader({
        tasks: [
          { name: 'budget.csv', total: 40_000, state: 'done', convertTo: 'application/vnd.svc-apps.spreadsheet', file: { id: 'f1' } },
          { name: 'photo.jpg', total: 4 * MB, state: 'done', file: { id: 'f2' } },
        ],
      })}
    ></store-uploader>`,
};

export const Dark: Story = {
  render: () => html`<div style="background:#000;padding:1rem"><store-uploader color-scheme="dark" share .shareFiles=${pretendShare} .uploader=${playing()}></store-uploader></div>`,
};
export const RtlFrench: Story = {
  render: () => html`<div dir="rtl" lang="fr"><store-uploader .uploader=${playing()} .importFormats=${FORMATS}></store-uploader></div>`,
};

/**
 * Against the real reference service: start it with `npm start` (port 8080, dev tokens). Uses the worker-based
 * uploader; not part of the automated story run because it needs the service.
 */
export const LiveService: Story = {
  tags: ['!test'],
  args: { baseUrl: 'http://localhost:8080', token: 'dev-token-alice' },
  render: (args) => html`<store-uploader share base-url=${args['baseUrl']} token=${args['token']}></store-uploader>`,
};
