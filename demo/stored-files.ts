/**
 * The demo's "stored files" table: what the service holds for the dev user, listed through `createStoreClient`,
 * newest first, with a download button (downloads need the bearer token, so a plain link would not do) — for a
 * native file (a converted upload), one per export format the about resource offers for its kind.
 */
import { html, nothing, render } from 'lit';
import type { StoreClient, StoreFile } from '../src/client/index.ts';
import { exportExtension } from '../src/protocol/index.ts';

const FIELDS = 'files(id,name,mimeType,size,md5Checksum,modifiedTime),nextPageToken';

/** Lists stored files into `container`; call `refresh()` after uploads or a change notification. */
export class StoredFiles {
  #files: StoreFile[] = [];
  #error = '';
  #loading = false;
  #again = false;
  /** Bumped when another account signs in: a list asked for before is the previous account's, and is dropped. */
  #account = 0;
  /** Native kind → the formats it exports to (about resource), fetched with the first list. */
  #exportFormats: Record<string, string[]> = {};

  constructor(
    private readonly client: StoreClient,
    private readonly container: HTMLElement,
    private readonly status: HTMLElement,
  ) {}

  /** Another account signed in (the client's getter gives its token): the list empties at once, then shows its files. */
  accountChanged(): Promise<void> {
    this.#account++;
    this.#files = [];
    this.#error = '';
    this.#render();
    return this.refresh();
  }

  /** Fetches the list again; calls made while one is running coalesce into one more. */
  async refresh(): Promise<void> {
    if (this.#loading) {
      this.#again = true;
      return;
    }
    this.#loading = true;
    try {
      do {
        this.#again = false;
        const account = this.#account;
        try {
          const list = await this.client.files.list({ pageSize: 100, q: 'trashed = false', fields: FIELDS });
          if (account !== this.#account) {
            this.#again = true;
            continue;
          }
          if (!Object.keys(this.#exportFormats).length)
            this.#exportFormats = (await this.client.about({ fields: 'exportFormats' })).exportFormats ?? {};
          this.#files = [...(list.files ?? [])].sort((a, b) =>
            String(b.modifiedTime).localeCompare(String(a.modifiedTime)),
          );
          this.#error = '';
        } catch (error) {
          if (account !== this.#account) this.#again = true;
          else this.#error = `Could not list the stored files: ${(error as Error).message}`;
        }
      } while (this.#again);
    } finally {
      this.#loading = false;
    }
    this.#render();
  }

  #render(): void {
    const count = this.#files.length;
    this.status.textContent = this.#error || `${count} stored file${count === 1 ? '' : 's'}.`;
    render(
      count === 0
        ? html`<p class="empty">Nothing stored yet: drop a file above.</p>`
        : html`<div class="table-scroll" tabindex="0" role="region" aria-label="Stored files table"><table>
            <thead>
              <tr><th scope="col">Name</th><th scope="col">Type</th><th scope="col">Size</th><th scope="col">MD5</th><th scope="col">Modified</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr>
            </thead>
            <tbody>
              ${this.#files.map(
                (f) => html`<tr data-id=${f.id}>
                  <th scope="row">${f.name}</th>
                  <td>${f.mimeType}</td>
                  <td class="num">${f.size === undefined ? '—' : formatSize(Number(f.size))}</td>
                  <td class="md5"><code>${f.md5Checksum ?? '—'}</code></td>
                  <td>${f.modifiedTime ? new Date(f.modifiedTime).toLocaleString() : nothing}</td>
                  <td>${this.#downloadButtons(f)}</td>
                </tr>`,
              )}
            </tbody>
          </table></div>`,
      this.container,
    );
  }

  /** "Download" for stored content; for a native file (no size), "Download as …" per export format. */
  #downloadButtons(f: StoreFile) {
    if (f.size !== undefined)
      return html`<button type="button" @click=${() => void this.#download(f)} aria-label=${`Download ${f.name}`}>Download</button>`;
    return (this.#exportFormats[f.mimeType ?? ''] ?? []).map((type) => {
      const label = exportExtension(type).toUpperCase();
      return html`<button type="button" @click=${() => void this.#download(f, type)} aria-label=${`Download ${f.name} as ${label}`}>${label}</button> `;
    });
  }

  async #download(file: StoreFile, exportType?: string): Promise<void> {
    try {
      const blob = exportType
        ? await this.client.files.export(file.id, exportType)
        : await this.client.files.download(file.id);
      const url = URL.createObjectURL(blob);
      const name = exportType
        ? `${(file.name ?? 'download').replace(/\.[^./]{1,8}$/, '')}.${exportExtension(exportType)}`
        : (file.name ?? 'download');
      const a = Object.assign(document.createElement('a'), { href: url, download: name });
      a.click();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
    } catch (error) {
      this.status.textContent = `Could not download ${file.name}: ${(error as Error).message}`;
    }
  }
}

/**
 * `1 byte`, `25 bytes`, `2.5 kB`, `3.1 MB`: whole words for bytes, short decimal units above, the way the elements
 * show sizes, so one file reads the same in the progress list and in this table.
 */
function formatSize(bytes: number): string {
  if (bytes < 1000)
    return new Intl.NumberFormat(undefined, { style: 'unit', unit: 'byte', unitDisplay: 'long' }).format(bytes);
  const [value, unit] =
    bytes < 1e6 ? [bytes / 1e3, 'kilobyte'] : bytes < 1e9 ? [bytes / 1e6, 'megabyte'] : [bytes / 1e9, 'gigabyte'];
  return new Intl.NumberFormat(undefined, { style: 'unit', unit, maximumFractionDigits: 1 }).format(value);
}
