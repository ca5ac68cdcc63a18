import { nothing } from 'lit';
import type { ReactiveController, TemplateResult } from 'lit';
import type { StoreI18n } from '../i18n/types.ts';
import type { InterruptedUpload, Uploader } from '../../uploader/index.ts';
import type { InterruptedHost, InterruptedState } from './interrupted-view.ts';
import { interruptedView } from './lazy-views.ts';

/**
 * Uploads interrupted in an earlier page life, offered for resuming: fetched from the uploader each time the
 * element follows one, resumed with the kept handle or Blob (one by one, or all at once with "Resume all", which
 * opens no file dialog), or with the file chosen again, or discarded. A file that changed since its upload began is
 * not resumed: it stays listed with a note. The list and its actions (`interrupted-view.ts`) load only once there is
 * something to list.
 */
export class InterruptedUploads implements ReactiveController, InterruptedState {
  readonly host: InterruptedHost;
  readonly keepFocus: () => void;
  readonly t: () => StoreI18n;
  list: InterruptedUpload[] = [];
  rechooseFor: string | undefined;
  readonly changed = new Set<string>();
  resumingAll = false;
  said = '';

  constructor(host: InterruptedHost, keepFocus: () => void, t: () => StoreI18n) {
    this.host = host;
    this.keepFocus = keepFocus;
    this.t = t;
    host.addController(this);
  }

  hostConnected(): void {}

  /** Shows the interrupted uploads of `uploader` (none until it answers; an answer for a replaced one is dropped). */
  follow(uploader: Uploader | undefined): void {
    this.changed.clear();
    this.said = '';
    this.set([]);
    uploader?.interrupted().then(
      (list) => {
        if (this.host.activeUploader !== uploader || !list.length) return;
        interruptedView.load().then(
          () => this.host.activeUploader === uploader && this.set(list),
          () => undefined,
        );
      },
      () => undefined,
    );
  }

  render(t: StoreI18n): TemplateResult | typeof nothing {
    const view = interruptedView.loaded();
    return this.list.length && view ? view.renderInterrupted(this, t) : nothing;
  }

  set(list: InterruptedUpload[]): void {
    this.list = list;
    this.host.requestUpdate();
  }
}
