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
 * element follows one, resumed with the kept handle or Blob (one by one, or all at once with "Resume all", which
 * opens no file dialog), or with the file chosen again, or discarded. A file that changed since its upload began is
 * not resumed: it stays listed with a note.
 */
export class InterruptedUploads implements ReactiveController {
  readonly #host: InterruptedHost;
  /** An item left the list: keeps keyboard focus somewhere sensible. */
  readonly #keepFocus: () => void;
  #list: InterruptedUpload[] = [];
  #rechooseFor: string | undefined;
  /** Uploads whose file changed since they began: not resumed, shown with a note. */
  readonly #changed = new Set<string>();
  #resumingAll = false;
  /** What the status region says after a resume (the changed files). */
  #said = '';

  /** The host's words now. */
  readonly #t: () => StoreI18n;

  constructor(host: InterruptedHost, keepFocus: () => void, t: () => StoreI18n) {
    this.#host = host;
    this.#keepFocus = keepFocus;
    this.#t = t;
    host.addController(this);
  }

  hostConnected(): void {}

  /** The uploads on offer. */
  get list(): readonly InterruptedUpload[] {
    return this.#list;
  }

  /** Shows the interrupted uploads of `uploader` (none until it answers; an answer for a replaced one is dropped). */
  follow(uploader: Uploader | undefined): void {
    this.#changed.clear();
    this.#said = '';
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
    const resumable = this.#list.some((u) => u.canResumeWithoutFile && !this.#changed.has(u.id));
    return html`
      <fieldset part="interrupted">
        <legend>${t.uploader.interruptedTitle}</legend>
        ${resumable
          ? html`<button type="button" part="resume-all" data-action="resume-all" ?disabled=${this.#resumingAll} @click=${this.#resumeAll}>${t.uploader.resumeAll}</button>`
          : nothing}
        <ul>
          ${this.#list.map((u) => {
            const changed = this.#changed.has(u.id);
            return html`<li data-id=${u.id} data-error=${changed ? 'file-changed' : nothing}>
              <span>${t.uploader.interruptedItem(u.name, formatBytes(u.bytesAcknowledged, t.locale), formatBytes(u.total, t.locale))}</span>
              ${changed ? html`<span class="changed" part="interrupted-changed">${t.uploader.fileChanged(u.name)}</span>` : nothing}
              <span class="row">
                ${u.canResumeWithoutFile && !changed
                  ? html`<button type="button" data-action="resume" aria-label=${t.actions.resume(u.name)} @click=${() => this.#resume(u.id)}>${t.buttons.resume}</button>`
                  : html`<button type="button" data-action="rechoose" aria-label=${t.actions.rechoose(u.name)} @click=${() => this.#rechoose(u.id)}>${t.buttons.rechoose}</button>`}
                <button type="button" data-action="discard" aria-label=${t.actions.discard(u.name)} @click=${() => this.#discard(u.id)}>${t.buttons.discard}</button>
              </span>
            </li>`;
          })}
        </ul>
        <div class="visually-hidden" role="status">${this.#said}</div>
        <input id="rechoose" type="file" hidden tabindex="-1" @change=${this.#onRechosen} />
      </fieldset>
    `;
  }

  /**
   * "Resume all": the uploader asks for the kept handles' read permission inside this click, then resumes every
   * upload whose file is unchanged; changed ones stay listed with a note, for the user to choose again or discard.
   */
  #resumeAll = (): void => {
    const uploader = this.#host.activeUploader;
    if (!uploader || this.#resumingAll) return;
    this.#resumingAll = true;
    this.#host.requestUpdate();
    void uploader
      .resumeAllInterrupted()
      .then(
        (result) => {
          const resumed = new Set(result.resumed.map((task) => task.id));
          for (const u of result.changed) this.#changed.add(u.id);
          // The resumed uploads are tasks of this page life now; what remains is what the user must act on.
          const left = new Set([...result.changed, ...result.needFile].map((u) => u.id));
          this.#said = result.changed.map((u) => this.#t().uploader.fileChanged(u.name)).join(' ');
          this.#set(this.#list.filter((u) => left.has(u.id) && !resumed.has(u.id)));
        },
        () => undefined,
      )
      .finally(() => {
        this.#resumingAll = false;
        this.#host.requestUpdate();
        this.#keepFocus();
      });
  };

  #set(list: InterruptedUpload[]): void {
    this.#list = list;
    this.#host.requestUpdate();
  }

  async #resume(id: string, file?: File): Promise<void> {
    const uploader = this.#host.activeUploader;
    if (!uploader) return;
    try {
      await uploader.resumeInterrupted(id, file);
    } catch (error) {
      // A changed file is said and left listed; any other refusal asks for the file.
      if ((error as { code?: string })?.code !== 'file-changed') return this.#rechoose(id);
      this.#changed.add(id);
      const name = this.#list.find((u) => u.id === id)?.name ?? '';
      this.#said = this.#t().uploader.fileChanged(name);
      this.#host.requestUpdate();
      return;
    }
    this.#changed.delete(id);
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
