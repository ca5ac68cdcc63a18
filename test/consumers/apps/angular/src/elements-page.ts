// The app's first page (its empty route, loaded on demand): a standalone component using the elements under strict
// templates. `CUSTOM_ELEMENTS_SCHEMA` lets the template name them; Angular's template checker types what it can from
// the DOM's own maps, which the kit extends: the `#uploader` reference is a `StoreUploader` (HTMLElementTagNameMap)
// and each `store-*` event's `$event` is its typed CustomEvent (HTMLElementEventMap). Angular's builder does not
// bundle a dependency's workers: angular.json copies the package's `dist/workers/` to `store-upload-kit/` of the
// site, and `worker-base` points the uploader there.
import { Component, CUSTOM_ELEMENTS_SCHEMA, signal } from '@angular/core';
import type { RejectedFile } from 'store-upload-kit/elements';
import 'store-upload-kit/elements';

const query = new URLSearchParams(location.search);

@Component({
  selector: 'app-elements-page',
  schemas: [CUSTOM_ELEMENTS_SCHEMA],
  template: `
    <main>
      <h1>Angular</h1>
      <store-uploader
        #uploader
        [baseUrl]="serviceUrl"
        [token]="token"
        [host]="host"
        worker-base="store-upload-kit/"
        (change)="ids.set(uploader.value)"
        (store-files-reject)="rejected.set($event.detail.files)"
      ></store-uploader>
      @if (rejected().length) {
        <p role="alert">Not accepted: {{ names(rejected()) }}</p>
      }
      <p>Uploaded: <output id="ids">{{ ids().join(' ') }}</output></p>
    </main>
  `,
})
export class ElementsPage {
  protected readonly serviceUrl = query.get('service') ?? 'http://127.0.0.1:8080';
  protected readonly token = query.get('token') ?? 'dev-token-alice';
  /** `?host=dedicated`: the page's own worker, as in browsers without `extendedLifetime` (the suite tries both). */
  protected readonly host = query.get('host') === 'dedicated' ? 'dedicated' : 'auto';
  protected readonly ids = signal<readonly string[]>([]);
  protected readonly rejected = signal<RejectedFile[]>([]);

  protected names(files: readonly RejectedFile[]): string {
    return files.map((f) => f.relativePath).join(', ');
  }
}
