import { html, nothing } from 'lit';
import type { ReactiveController, ReactiveControllerHost, TemplateResult } from 'lit';
import type { StoreI18n } from '../i18n/types.ts';
import { formatBytes } from '../internal/format.ts';
import type { InterruptedUpload, Uploader } from '../../uploader/index.ts';

/** What the controller needs from `<store-uploader>`. */
export interface InterruptedHost extends ReactiveControllerHost {
  readonly activeUploader: Uploader | undefined;
  readonly renderRoot: HTMLElement | DocumentFragment;
}

/**
 * Uploads interrupted in an earlier page life, offered for resuming: fetched from the uploader each time the
 * element follows one, resumed with the kept handle or Blob, or with the file chosen again, or discarded.
 */
export class InterruptedUploads implements ReactiveController {
  readonly #host: InterruptedHost;
  /** An item left the list: keeps keyboard focus somewhere sensible. */
  readonly #keepFocus: () => void;
  #list: InterruptedUpload[] = [];
  #rechooseFor: string | undefined;

  constructor(host: InterruptedHost, keepFocus: () => void) {
    this.#host = host;
    this.#keepFocus = keepFocus;
    host.addController(this);
  }

  hostConnected(): void {}

  /** The uploads on offer. */
  get list(): readonly InterruptedUpload[] {
    return this.#list;
  }

  /** Shows the interrupted uploads of `uploader` (none until it answers; an answer for a replaced one is dropped). */
  follow(uploader: Uploader | undefined): void {
    this.#set([]);
    uploader?.interrupted().then(
      (list) => {
        if (this.#host.activeUploader === uploader) this.#set(list);
      },
      () => undefined,
    );
  }

  render(t: StoreI18n): TemplateResult | typeof nothing {
    if (!this.#list.length) return nothing;
    return html`
      <fieldset part="interrupted">
        <legend>${t.uploader.interruptedTitle}</legend>
        <ul>
          ${this.#list.map(
            (u) => html`<li data-id=${u.id}>
              <span>${t.uploader.interruptedItem(u.name, formatBytes(u.bytesAcknowledged, t.locale), formatBytes(u.total, t.locale))}</span>
              <span class="row">
                ${u.canResumeWithoutFile
                  ? html`<button type="button" data-action="resume" aria-label=${t.actions.resume(u.name)} @click=${() => this.#resume(u.id)}>${t.buttons.resume}</button>`
                  : html`<button type="button" data-action="rechoose" aria-label=${t.actions.rechoose(u.name)} @click=${() => this.#rechoose(u.id)}>${t.buttons.rechoose}</button>`}
                <button type="button" data-action="discard" aria-label=${t.actions.discard(u.name)} @click=${() => this.#discard(u.id)}>${t.buttons.discard}</button>
              </span>
            </li>`,
          )}
        </ul>
        <input id="rechoose" type="file" hidden tabindex="-1" @change=${this.#onRechosen} />
      </fieldset>
    `;
  }

  #set(list: InterruptedUpload[]): void {
    this.#list = list;
    this.#host.requestUpdate();
  }

  async #resume(id: string, file?: File): Promise<void> {
    const uploader = this.#host.activeUploader;
    if (!uploader) return;
    await uploader.resumeInterrupted(id, file);
    this.#drop(id);
  }

  async #discard(id: string): Promise<void> {
    await this.#host.activeUploader?.discardInterrupted(id);
    this.#drop(id);
  }

  #drop(id: string): void {
    this.#set(this.#list.filter((u) => u.id !== id));
    this.#keepFocus();
  }

  #rechoose(id: string): void {
    this.#rechooseFor = id;
    this.#host.renderRoot.querySelector<HTMLInputElement>('#rechoose')?.click();
  }

  #onRechosen = (event: Event): void => {
    const input = event.target as HTMLInputElement;
    const file = input.files?.[0];
    input.value = '';
    if (file && this.#rechooseFor) void this.#resume(this.#rechooseFor, file);
    this.#rechooseFor = undefined;
  };
}
