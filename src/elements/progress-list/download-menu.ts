/**
 * A finished row's way to get its file back, loaded the first time a list with `downloadFrom` shows a finished
 * upload: "Download" for stored bytes (`files.download`), or for a converted (native) file a choice of the formats
 * the service exports that kind to (the about resource's `exportFormats`) and a button (`files.export`). A `<select>`
 * and a button rather than a select that acts on change: arrow keys change a closed select's value, and that must
 * not start downloads. The Blob is saved through an `<a download>` object URL.
 */
import { html, nothing, svg } from 'lit';
import type { TemplateResult } from 'lit';
import type { StoreClient } from '../../client/index.ts';
import { exportExtension, isNativeMime } from '../../protocol/index.ts';
import type { TaskSnapshot } from '../../uploader/index.ts';
import type { StoreI18n } from '../i18n/types.ts';

/** Where finished files are fetched back from: the service and a bearer token. */
export interface DownloadSource {
  baseUrl: string;
  getAccessToken: () => string | Promise<string>;
}

/** What the menu needs from its list. */
export interface DownloadHost {
  /** The list's `downloadFrom` now. */
  source(): DownloadSource;
  /** The export formats arrived: render again. */
  update(): void;
  /** Says a failure in the list's live region. */
  announce(text: string): void;
}

const ICON = svg`<svg viewBox="0 0 20 20" width="20" height="20" aria-hidden="true" focusable="false" fill="none" stroke="currentColor"
  stroke-width="1.75" stroke-linecap="round" stroke-linejoin="round"><path d="M10 3.5v9M6 8.5l4 4 4-4M4 16h12" /></svg>`;

const clients = new Map<string, Promise<StoreClient>>();
/** Export formats per base URL: loaded once, a failure forgotten so the next render tries again. */
const formats = new Map<string, Promise<Record<string, string[]>>>();
const known = new Map<string, Record<string, string[]>>();

function clientFor(source: DownloadSource): Promise<StoreClient> {
  let client = clients.get(source.baseUrl);
  if (!client) {
    client = import('../../client/index.ts').then(({ createStoreClient }) =>
      createStoreClient({ baseUrl: source.baseUrl, getAccessToken: () => source.getAccessToken() }),
    );
    clients.set(source.baseUrl, client);
  }
  return client;
}

function exportFormats(host: DownloadHost): Record<string, string[]> | undefined {
  const source = host.source();
  const { baseUrl } = source;
  if (!formats.has(baseUrl)) {
    const loading = clientFor(source)
      .then((client) => client.about({ fields: 'exportFormats' }))
      .then((about) => {
        const map = about.exportFormats ?? {};
        known.set(baseUrl, map);
        host.update();
        return map;
      });
    loading.catch(() => formats.delete(baseUrl));
    formats.set(baseUrl, loading);
  }
  return known.get(baseUrl);
}

/** Downloads the file (or its export to `mimeType`) and hands it to the browser as a download. */
async function save(
  host: DownloadHost,
  task: TaskSnapshot,
  name: string,
  t: StoreI18n,
  mimeType?: string,
): Promise<void> {
  const file = task.file!;
  try {
    const client = await clientFor(host.source());
    const blob = mimeType ? await client.files.export(file.id, mimeType) : await client.files.download(file.id);
    const title = file.name ?? task.name;
    const link = document.createElement('a');
    link.href = URL.createObjectURL(blob);
    link.download = mimeType ? `${title.replace(/\.[^./]{1,8}$/, '')}.${exportExtension(mimeType)}` : title;
    link.click();
    // The browser reads the object URL as the download starts; it is let go once that surely happened.
    setTimeout(() => URL.revokeObjectURL(link.href), 60_000);
  } catch {
    host.announce(t.list.downloadFailed(name));
  }
}

/** The row's download control, or nothing (not finished, or the formats of its kind are not known yet). */
export function renderDownload(
  task: TaskSnapshot,
  name: string,
  t: StoreI18n,
  host: DownloadHost,
): TemplateResult | typeof nothing {
  const file = task.file;
  if (task.state !== 'done' || !file?.id) return nothing;
  const type = file.mimeType ?? task.convertTo;
  const button = (label: string, pick: (button: HTMLElement) => string | undefined) =>
    html`<button type="button" class="icon-button" part="action action-download" data-action="download" aria-label=${label}
      title=${t.list.downloadButton} @click=${(e: Event) => void save(host, task, name, t, pick(e.currentTarget as HTMLElement))}>${ICON}</button>`;
  if (!isNativeMime(type)) return button(t.list.download(name), () => undefined);
  const offered = exportFormats(host)?.[type!] ?? [];
  if (!offered.length) return nothing;
  return html`<select class="download-as" part="download-as" aria-label=${t.list.downloadAs(name)} title=${t.list.downloadAsPrompt}>
      ${offered.map((mime) => html`<option value=${mime}>${exportExtension(mime).toUpperCase()}</option>`)}
    </select>${button(t.list.download(name), (b) => (b.previousElementSibling as HTMLSelectElement).value)}`;
}
