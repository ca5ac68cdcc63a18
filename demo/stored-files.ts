/**
 * The demo's "stored files" table: what the service holds for the dev user, listed through `createStoreClient`,
 * newest first, with a download button (downloads need the bearer token, so a plain link would not do).
 */
import { html, nothing, render } from 'lit';
import type { StoreClient, StoreFile } from '../src/client/index.ts';

const FIELDS = 'files(id,name,mimeType,size,md5Checksum,modifiedTime),nextPageToken';

/** Lists stored files into `container`; call `refresh()` after uploads or a change notification. */
export class StoredFiles {
  #files: StoreFile[] = [];
  #error = '';
  #loading = false;
  #again = false;

  constructor(
    private readonly client: StoreClient,
    private readonly container: HTMLElement,
    private readonly status: HTMLElement,
  ) {}

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
        try {
          const list = await this.client.files.list({ pageSize: 100, q: 'trashed = false', fields: FIELDS });
          this.#files = [...(list.files ?? [])].sort((a, b) => String(b.modifiedTime).localeCompare(String(a.modifiedTime)));
          this.#error = '';
        } catch (error) {
          this.#error = `Could not list the stored files: ${(error as Error).message}`;
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
                  <td>${f.size === undefined ? nothing : html`<button type="button" @click=${() => void this.#download(f)} aria-label=${`Download ${f.name}`}>Download</button>`}</td>
                </tr>`,
              )}
            </tbody>
          </table></div>`,
      this.container,
    );
  }

  async #download(file: StoreFile): Promise<void> {
    try {
      const token = await this.client.accessToken();
      const response = await fetch(`${this.client.baseUrl}/store/v3/files/${encodeURIComponent(file.id)}?alt=media`, {
        headers: { Authorization: `Bearer ${token}` },
      });
      if (!response.ok) throw new Error(`the service answered ${response.status}`);
      const url = URL.createObjectURL(await response.blob());
      const a = Object.assign(document.createElement('a'), { href: url, download: file.name ?? 'download' });
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
  if (bytes < 1000) return new Intl.NumberFormat(undefined, { style: 'unit', unit: 'byte', unitDisplay: 'long' }).format(bytes);
  const [value, unit] = bytes < 1e6 ? [bytes / 1e3, 'kilobyte'] : bytes < 1e9 ? [bytes / 1e6, 'megabyte'] : [bytes / 1e9, 'gigabyte'];
  return new Intl.NumberFormat(undefined, { style: 'unit', unit, maximumFractionDigits: 1 }).format(value);
}
