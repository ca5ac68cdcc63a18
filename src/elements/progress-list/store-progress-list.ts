import { adoptStyles, html, nothing } from 'lit';
import type { PropertyDeclarations, PropertyValues } from 'lit';
import { emit } from '../events.ts';
import type { TaskAction } from '../events.ts';
import type { Announcer } from '../internal/announcer.ts';
import { keepFocus } from '../internal/keep-focus.ts';
import { StoreElement } from '../internal/store-element.ts';
import { themeStyles } from '../internal/theme.ts';
import { UploaderController } from '../internal/uploader-controller.ts';
import type { StoreI18n } from '../i18n/types.ts';
import type { TaskSnapshot, Uploader } from '../../uploader/index.ts';
import { cssomStyle } from '../internal/cssom-style.ts';
import type { DownloadSource } from './download-menu.ts';
import { loadDownloadMenu, loadedDownloadMenu } from './lazy-download-menu.ts';
import { loadedRows, loadRows } from './lazy-rows.ts';
import type { RowSlots } from './row-slots.ts';
import type { RowWindow } from './row-window.ts';
import type { RowThumbnails } from './thumbnails.ts';
import { progressListStyles } from './store-progress-list.styles.ts';

type RowsModule = typeof import('./rows.ts');

/** Lists with more rows than this are windowed; up to here every row is in the DOM (a few hundred small nodes). */
const VIRTUALIZE_FROM = 200;

/**
 * Follows an `uploader`'s snapshots through a reactive controller. Past 200 rows the list is virtualized (only the
 * rows in view and a few either side are in the DOM), so 10,000 uploads stay smooth. Rows have one height, so the
 * list grows with them up to `--store-progress-list-max-height` either way. ↑/↓, Page Up/Down,
 * Home and End move focus between rows, scrolling a virtualized list to the row first. A polite live region announces starts, 25/50/75 % milestones, completions and failures — not every tick.
 * Controls fire the cancelable `store-task-action`; unless it is cancelled the element calls the uploader.
 *
 * @summary One row per upload: name, size, progress bar, speed, time left, state and its controls.
 *
 * @csspart base - The whole list.
 * @csspart header - The header: the summary line and the total progress bar.
 * @csspart summary - The summary line: files and bytes uploaded of all.
 * @csspart total-progress - The bar of all uploads together (`role=progressbar`).
 * @csspart bulk-actions - The group of buttons that act on every upload (pause all, resume all, retry failed, cancel
 *   all, clear finished); each is shown only while it would change something.
 * @csspart bulk-action - One of those buttons.
 * @csspart list - The scrolling list of rows.
 * @csspart row - One row; also `row-<state>` (`row-uploading`, `row-failed`, …).
 * @csspart icon - The file-type icon (inline SVG; `data-kind` is document, spreadsheet, presentation, pdf, image,
 *   audio, video, archive, code or other).
 * @csspart thumbnail - In place of the icon, for JPEG, PNG, GIF, WebP, AVIF and BMP files: an `<img>` (decorative,
 *   `alt=""`) of the image decoded upright in the upload worker, asked for once its row scrolls into view. Its `src` is a
 *   `blob:` URL (a strict CSP needs `img-src blob:`), revoked when the row's task leaves the list.
 * @csspart name - File name or relative path.
 * @csspart size - File size; for an image resized before upload, the chosen file's size → the size sent.
 * @csspart progress - The progress bar track (`role=progressbar`).
 * @csspart progress-bar - The filled part of the bar.
 * @csspart state - State icon and text, with the retry reason or error message.
 * @csspart rate - Speed and time left.
 * @csspart actions - The row's buttons.
 * @csspart action - Each icon button (accessible name and tooltip); also `action-primary`, `action-secondary`,
 *   `action-rechoose`, and `action-download` on finished rows when `downloadFrom` is set.
 * @csspart download-as - A converted file's choice of export format (`<select>`), beside its download button.
 *
 * @cssproperty --store-progress-list-max-height - Height before the list scrolls (default 24rem: 8 rows).
 * @cssproperty --store-progress-list-row-height - Height of every row (default 3rem).
 * @cssproperty --store-progress-list-warning-color - Colour of paused, retrying and interrupted rows.
 * @cssproperty --store-progress-list-background - Background (falls back to `--store-color-surface`).
 * @cssproperty --store-progress-list-border-color - Border colour (falls back to `--store-color-border`).
 * @cssproperty --store-progress-list-row-border-color - Row separator colour.
 * @cssproperty --store-progress-list-radius - Corner radius.
 * @cssproperty --store-progress-list-bar-height - Height of the progress bars.
 * @cssproperty --store-progress-list-bar-color - Bar colour (falls back to `--store-color-accent`).
 * @cssproperty --store-progress-list-track-color - Bar track colour.
 * @cssproperty --store-progress-list-done-color - Bar colour of finished uploads.
 * @cssproperty --store-progress-list-error-color - Colour of failed uploads.
 *
 * @event store-task-action - A row control was used; cancelable. Detail: `{ taskId, action, file? }`.
 */
export class StoreProgressList extends StoreElement {
  static override styles = [themeStyles, progressListStyles];

  static override properties: PropertyDeclarations = {
    uploader: { attribute: false },
    downloadFrom: { attribute: false },
    announcement: { state: true, attribute: false },
  };

  /** The uploader whose tasks are listed. */
  declare uploader: Uploader | undefined;

  /**
   * Where finished files can be fetched back from (`<store-uploader>` sets its base URL and token): each finished row
   * then offers "Download", or for a converted file a choice of export formats. Unset, rows offer neither.
   */
  declare downloadFrom: DownloadSource | undefined;

  /** What the live region says now (exposed for tests and custom announcers). */
  declare announcement: string;

  /** Made once the row code is there (a list without rows has nothing to announce). */
  #announcer: Announcer | undefined;
  /** Until then, the tasks of the first snapshot: what was listed before, not news (a page opening with 10,000). */
  #baseline: readonly TaskSnapshot[] | undefined;
  readonly #controller = new UploaderController(this, ({ tasks }) => {
    if (this.#announcer) this.#say(tasks);
    else this.#baseline ??= tasks;
  });
  #rechooseFor: string | undefined;
  /** A row being removed whose button had focus, and where it was: focus moves on once the row is gone. */
  #refocus: { id: string; index: number } | undefined;
  /** Once virtualized, a list stays so: flipping back and forth around the threshold would rebuild every row. */
  #virtualized = false;
  /** Which rows a virtualized list renders; made with the row code, which loads with the first row. */
  #window: RowWindow | undefined;
  /** Keys of a virtualized list's rows, so rows that leave the window are used again for those that enter. */
  #slots: RowSlots | undefined;
  /** Loaded with the first row of an image: lists without images never download it. */
  #thumbnails: RowThumbnails | undefined;
  #thumbnailsLoading = false;

  constructor() {
    super();
    this.announcement = '';
  }

  override connectedCallback(): void {
    super.connectedCallback();
    // Back in a page: render, so a virtualized list follows its scroller's size again and rows ask again for the
    // thumbnails revoked on disconnect.
    this.requestUpdate();
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.#window?.disconnect();
    this.#thumbnails?.clear();
  }

  /** The row code, when the next render has rows. */
  protected override pendingLoad(): Promise<unknown> | undefined {
    // The uploader's own snapshot too: on the update that sets `uploader`, the controller follows it only after this.
    const count = this.#controller.state.tasks.length || (this.uploader?.snapshot.tasks.length ?? 0);
    return count > 0 && !loadedRows() ? loadRows() : undefined;
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    const rows = loadedRows();
    if (rows && !this.#announcer) {
      // Primed with the first snapshot, then told what happened since: a first upload is heard starting.
      (this.#announcer = new rows.Announcer()).update(this.#baseline ?? [], this.t);
      this.#say(this.#controller.state.tasks);
    }
    if (changed.has('uploader')) {
      this.#thumbnails?.clear();
      this.#announcer?.reset();
      this.#baseline = undefined;
      this.#controller.follow(this.uploader);
    }
  }

  override render() {
    const t = this.t;
    const { tasks, totalBytes, sentBytes } = this.#controller.state;
    const rows = loadedRows();
    const count = tasks.length;
    // Without the row code (a failed load; or rows that came without an update through `pendingLoad`) the list shows
    // its header and renders again once the code is there.
    if (count && !rows)
      loadRows().then(
        () => this.requestUpdate(),
        () => undefined,
      );
    if (rows && !this.#window) {
      this.#window = new rows.RowWindow(() => this.requestUpdate());
      this.#slots = new rows.RowSlots();
      adoptStyles(this.renderRoot as ShadowRoot, [
        ...(this.constructor as typeof StoreProgressList).elementStyles,
        rows.rowStyles,
      ]);
    }
    this.#virtualized ||= count > VIRTUALIZE_FROM;
    const [first, end] = this.#virtualized && this.#window ? this.#window.range(count) : [0, count];
    return html`
      <div part="base" class="base">
        ${count && rows ? rows.renderHeader(t, tasks, sentBytes, totalBytes, this.#bulk) : nothing}
        ${
          count && rows
            ? html`<div part="list" class="scroller ${this.#virtualized ? 'virtual' : ''}" role="list" tabindex="-1"
              aria-label=${t.list.label} @keydown=${this.#onKeydown} @scroll=${this.#window!.onScroll}
              ${cssomStyle({ '--_rows': String(count), '--_store-pad-before': String(first), '--_store-pad-after': String(count - end) })}>
              ${this.#renderRows(rows, tasks, first, end, t)}
            </div>`
            : count
              ? nothing
              : html`<p part="empty" class="empty" tabindex="-1">${t.list.empty}</p>`
        }
        <div class="visually-hidden" role="status" aria-live="polite" aria-atomic="true">${this.announcement}</div>
        <input id="rechoose" type="file" hidden tabindex="-1" @change=${this.#onRechosen} />
      </div>
    `;
  }

  #say(tasks: readonly TaskSnapshot[]): void {
    const messages = this.#announcer!.update(tasks, this.t);
    if (messages.length) this.announcement = messages.join(' ');
    // Rows left (cleared, or the uploads of an account that signed out here): what was said of them goes too.
    else if (tasks.length < this.#listed) this.announcement = '';
    this.#listed = tasks.length;
  }

  /** How many tasks the last announcement was made over. */
  #listed = 0;

  /** What the header's bulk buttons call: the uploader's, and clearing finished rows. */
  #bulk = (run: (uploader: Uploader) => void): void => {
    if (this.uploader) run(this.uploader);
  };

  #onKeydown = (event: KeyboardEvent): void => {
    const root = this.renderRoot as ShadowRoot;
    const scroller = root.querySelector<HTMLElement>('[part="list"]');
    const rowHeight = root.querySelector<HTMLElement>('.row')?.offsetHeight || 48;
    const page = Math.max(1, Math.floor((scroller?.clientHeight ?? 0) / rowHeight) - 1);
    if (loadedRows()?.moveFocus(event, root, this.#controller.state.tasks.length, page, this.#showRow))
      event.preventDefault();
  };

  /** Scrolls row `index` into view and waits until it is rendered. */
  #showRow = async (index: number): Promise<void> => {
    const root = this.renderRoot as ShadowRoot;
    if (this.#virtualized && this.#window) {
      this.#window.scrollToRow(index);
      await this.updateComplete;
    }
    root.querySelector(`[role="listitem"][aria-posinset="${index + 1}"]`)?.scrollIntoView({ block: 'nearest' });
  };

  /**
   * Keyed rows (focus stays on a row's button as others come and go): all of them, by task; or a virtualized list's
   * range, by slot (`RowSlots`: the rows that scroll out are used again for those that scroll in).
   */
  #renderRows(rows: RowsModule, tasks: TaskSnapshot[], first: number, end: number, t: StoreI18n) {
    const count = tasks.length;
    this.#thumbnails?.keep(tasks);
    const shown = first === 0 && end === count ? tasks : tasks.slice(first, end);
    const more = this.downloadFrom && this.#download;
    const focused =
      (this.renderRoot as ShadowRoot).activeElement?.closest('[role="listitem"]')?.getAttribute('data-id') ?? undefined;
    const key =
      this.#virtualized && this.#slots
        ? this.#slots.assign(
            shown.map((task) => task.id),
            focused,
          )
        : undefined;
    return rows.repeat(
      shown,
      (task) => (key ? key(task.id) : task.id),
      (task, i) => rows.renderRow(task, first + i, count, t, this.#act, this.#thumbnail(rows, task), more),
    );
  }

  /** The row's thumbnail URL once made, for an image (see `RowThumbnails`). */
  #thumbnail(rows: RowsModule, task: TaskSnapshot): string | undefined {
    if (rows.fileKind(task.name, task.type) !== 'image') return undefined;
    if (this.#thumbnails) return this.#thumbnails.url(task.id);
    if (!this.#thumbnailsLoading) {
      this.#thumbnailsLoading = true;
      import('./thumbnails.ts').then(
        ({ RowThumbnails }) => {
          const row = (id: string) => this.renderRoot.querySelector(`[data-id="${CSS.escape(id)}"]`);
          const rows = () => this.renderRoot.querySelectorAll<HTMLElement>('[role="listitem"]');
          this.#thumbnails = new RowThumbnails(
            () => this.uploader,
            rows,
            row,
            () => this.requestUpdate(),
          );
          this.requestUpdate();
        },
        () => (this.#thumbnailsLoading = false),
      );
    }
    return undefined;
  }

  /**
   * Once a removed row whose button had focus is gone, focuses the row now in its place (or the one before), or the
   * list, or the "no uploads" line: keyboard users never drop to <body>.
   */
  protected override updated(): void {
    const r = this.#refocus;
    const root = this.renderRoot as ShadowRoot;
    this.#window?.observe(this.#virtualized ? root.querySelector<HTMLElement>('[part="list"]') : null);
    if (!r || this.#controller.state.tasks.some((t) => t.id === r.id)) return;
    this.#refocus = undefined;
    // By position in the list, not in the DOM: a virtualized list renders from some row onwards.
    const row = (index: number) => root.querySelector(`[role="listitem"][aria-posinset="${index + 1}"]`);
    keepFocus(
      root,
      (row(r.index) ?? row(r.index - 1))?.querySelector('button'),
      root.querySelector('[part="list"],[part="empty"]'),
    );
  }

  /** A finished row's download control, once its code has loaded (it loads on the first finished row). */
  #download = (task: TaskSnapshot, name: string) => {
    if (task.state !== 'done') return nothing;
    const menu = loadedDownloadMenu();
    if (menu) return menu.renderDownload(task, name, this.t, this.#downloadHost);
    loadDownloadMenu().then(
      () => this.requestUpdate(),
      () => undefined,
    );
    return nothing;
  };

  readonly #downloadHost = {
    source: () => this.downloadFrom!,
    update: () => this.requestUpdate(),
    announce: (text: string) => (this.announcement = text),
  };

  #act = (task: TaskSnapshot, action: TaskAction | 'rechoose'): void => {
    if (action === 'rechoose') {
      this.#rechooseFor = task.id;
      this.renderRoot.querySelector<HTMLInputElement>('#rechoose')!.click();
      return;
    }
    this.#run(task.id, action);
  };

  #run(taskId: string, action: TaskAction, file?: File): void {
    if (!emit(this, 'store-task-action', { taskId, action, ...(file ? { file } : {}) })) return;
    const uploader = this.uploader;
    if (!uploader) return;
    const handle = uploader.task(taskId);
    if ((action === 'remove' || action === 'discard-interrupted') && (this.renderRoot as ShadowRoot).activeElement) {
      this.#refocus = { id: taskId, index: this.#controller.state.tasks.findIndex((t) => t.id === taskId) };
    }
    switch (action) {
      case 'pause':
        return handle?.pause();
      case 'resume':
        return handle?.resume();
      case 'cancel':
        return handle?.cancel();
      case 'retry':
        return handle?.retry();
      case 'remove':
        return uploader.remove(taskId);
      case 'resume-interrupted':
        // Without a stored handle or Blob the engine needs the file again: ask for it instead of failing.
        uploader.resumeInterrupted(taskId, file).catch(() => {
          if (!file) this.#act({ id: taskId } as TaskSnapshot, 'rechoose');
        });
        return;
      case 'discard-interrupted':
        void uploader.discardInterrupted(taskId);
        return;
    }
  }

  #onRechosen = (event: Event): void => {
    const input = event.target as HTMLInputElement;
    const file = input.files?.[0];
    input.value = '';
    if (file && this.#rechooseFor) this.#run(this.#rechooseFor, 'resume-interrupted', file);
    this.#rechooseFor = undefined;
  };
}
