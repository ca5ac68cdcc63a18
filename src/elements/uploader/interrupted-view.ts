/**
 * The list of uploads interrupted in an earlier page life and what it does, loaded by `InterruptedUploads` only
 * when there is something to list: "Resume all", and per upload resume, choose the file again, or discard.
 */
import { html, nothing } from 'lit';
import type { ReactiveControllerHost, TemplateResult } from 'lit';
import type { StoreI18n } from '../i18n/types.ts';
import { formatBytes } from '../internal/format.ts';
import type { InterruptedUpload, Uploader } from '../../uploader/index.ts';

/** What the list needs from `<store-uploader>`. */
export interface InterruptedHost extends ReactiveControllerHost {
  readonly activeUploader: Uploader | undefined;
  readonly renderRoot: HTMLElement | DocumentFragment;
}

/** The list's state, kept by the `InterruptedUploads` controller. */
export interface InterruptedState {
  readonly host: InterruptedHost;
  /** An item left the list: keeps keyboard focus somewhere sensible. */
  keepFocus(): void;
  /** The host's words now. */
  t(): StoreI18n;
  list: InterruptedUpload[];
  rechooseFor: string | undefined;
  /** Uploads whose file changed since they began: not resumed, shown with a note. */
  readonly changed: Set<string>;
  resumingAll: boolean;
  /** What the status region says after a resume (the changed files). */
  said: string;
  /** Replaces the list and renders again. */
  set(list: InterruptedUpload[]): void;
}

/** Renders the list (the controller renders nothing while it is empty). */
export function renderInterrupted(c: InterruptedState, t: StoreI18n): TemplateResult {
  const resumable = c.list.some((u) => u.canResumeWithoutFile && !c.changed.has(u.id));
  return html`
    <fieldset part="interrupted">
      <legend>${t.uploader.interruptedTitle}</legend>
      ${
        resumable
          ? html`<button type="button" part="resume-all" data-action="resume-all" ?disabled=${c.resumingAll} @click=${() => resumeAll(c)}>${t.uploader.resumeAll}</button>`
          : nothing
      }
      <ul>
        ${c.list.map((u) => {
          const changed = c.changed.has(u.id);
          return html`<li data-id=${u.id} data-error=${changed ? 'file-changed' : nothing}>
            <span>${t.uploader.interruptedItem(u.name, formatBytes(u.bytesAcknowledged, t.locale), formatBytes(u.total, t.locale))}</span>
            ${changed ? html`<span class="changed" part="interrupted-changed">${t.uploader.fileChanged(u.name)}</span>` : nothing}
            <span class="row">
              ${
                u.canResumeWithoutFile && !changed
                  ? html`<button type="button" data-action="resume" aria-label=${t.actions.resume(u.name)} @click=${() => resume(c, u.id)}>${t.buttons.resume}</button>`
                  : html`<button type="button" data-action="rechoose" aria-label=${t.actions.rechoose(u.name)} @click=${() => rechoose(c, u.id)}>${t.buttons.rechoose}</button>`
              }
              <button type="button" data-action="discard" aria-label=${t.actions.discard(u.name)} @click=${() => discard(c, u.id)}>${t.buttons.discard}</button>
            </span>
          </li>`;
        })}
      </ul>
      <div class="visually-hidden" role="status">${c.said}</div>
      <input id="rechoose" type="file" hidden tabindex="-1" @change=${(e: Event) => rechosen(c, e)} />
    </fieldset>
  `;
}

/**
 * "Resume all": the uploader asks for the kept handles' read permission inside this click, then resumes every
 * upload whose file is unchanged; changed ones stay listed with a note, for the user to choose again or discard.
 */
function resumeAll(c: InterruptedState): void {
  const uploader = c.host.activeUploader;
  if (!uploader || c.resumingAll) return;
  c.resumingAll = true;
  c.host.requestUpdate();
  void uploader
    .resumeAllInterrupted()
    .then(
      (result) => {
        for (const u of result.changed) c.changed.add(u.id);
        // The resumed uploads are tasks of this page life now; what remains is what the user must act on.
        const left = new Set([...result.changed, ...result.needFile].map((u) => u.id));
        c.said = result.changed.map((u) => c.t().uploader.fileChanged(u.name)).join(' ');
        c.set(c.list.filter((u) => left.has(u.id)));
      },
      () => undefined,
    )
    .finally(() => {
      c.resumingAll = false;
      c.host.requestUpdate();
      c.keepFocus();
    });
}

async function resume(c: InterruptedState, id: string, file?: File): Promise<void> {
  const uploader = c.host.activeUploader;
  if (!uploader) return;
  try {
    await uploader.resumeInterrupted(id, file);
  } catch (error) {
    // A changed file is said and left listed; any other refusal asks for the file.
    if ((error as { code?: string })?.code !== 'file-changed') {
      rechoose(c, id);
      return;
    }
    c.changed.add(id);
    c.said = c.t().uploader.fileChanged(c.list.find((u) => u.id === id)?.name ?? '');
    c.host.requestUpdate();
    return;
  }
  c.changed.delete(id);
  drop(c, id);
}

async function discard(c: InterruptedState, id: string): Promise<void> {
  await c.host.activeUploader?.discardInterrupted(id);
  drop(c, id);
}

function drop(c: InterruptedState, id: string): void {
  c.set(c.list.filter((u) => u.id !== id));
  c.keepFocus();
}

function rechoose(c: InterruptedState, id: string): void {
  c.rechooseFor = id;
  c.host.renderRoot.querySelector<HTMLInputElement>('#rechoose')?.click();
}

function rechosen(c: InterruptedState, event: Event): void {
  const input = event.target as HTMLInputElement;
  const file = input.files?.[0];
  input.value = '';
  if (file && c.rechooseFor) void resume(c, c.rechooseFor, file);
  c.rechooseFor = undefined;
}
