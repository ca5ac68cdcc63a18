// The kit with no element: the app's own list, input and buttons over `store-upload-kit/angular` (signals). Each
// page's component provides the uploader of the same options, so both pages of /headless share one uploader (one per
// options and account) and a route change keeps showing the upload from the next page's first render. The workers
// come from the app's copy of the package's `dist/workers/` (angular.json), as for the elements' page.
import { afterNextRender, Component, inject, signal } from '@angular/core';
import { ActivatedRoute, RouterLink } from '@angular/router';
import { injectUploader, injectUploads, provideUploader } from 'store-upload-kit/angular';

const query = new URLSearchParams(location.search);
const serviceUrl = query.get('service') ?? 'http://127.0.0.1:8080';
const token = query.get('token') ?? 'dev-token-alice';

@Component({
  selector: 'app-headless-page',
  imports: [RouterLink],
  providers: [
    provideUploader({
      baseUrl: serviceUrl,
      getAccessToken: () => token,
      workerBase: 'store-upload-kit/',
      chunkSize: 256 * 1024,
      resumableThreshold: 0,
    }),
  ],
  template: `
    <section>
      <h1>{{ title }}</h1>
      <input type="file" multiple aria-label="Choose files" (change)="choose($event)" />
      <ul id="uploads" [attr.data-count]="uploads().tasks.length" [attr.data-ready]="ready() ? 'yes' : null">
        @for (t of uploads().tasks; track t.id) {
          <li
            [attr.data-name]="t.name"
            [attr.data-state]="t.state"
            [attr.data-file-id]="t.state === 'done' ? t.file.id : null"
          >
            {{ t.name }}:
            <!-- The task's state narrows it, in the template as in TypeScript: only a done task has its file. -->
            @switch (t.state) {
              @case ('done') { done {{ t.file.id }} }
              @case ('failed') { failed: {{ t.error.code }} }
              @case ('retrying') { retrying ({{ t.retry.cause }}) }
              @default { {{ t.state }} }
            }
            <button type="button" (click)="store.pause(t.id)">Pause</button>
            <button type="button" (click)="store.resume(t.id)">Resume</button>
          </li>
        }
      </ul>
      <a [routerLink]="other">Other page</a>
    </section>
  `,
})
export class HeadlessPage {
  protected readonly store = injectUploader();
  protected readonly uploads = injectUploads();
  protected readonly ready = signal(false);
  readonly #data = inject(ActivatedRoute).snapshot.data;
  protected readonly title = String(this.#data['title']);
  protected readonly other = String(this.#data['other']);

  constructor() {
    afterNextRender(() => this.ready.set(true));
  }

  protected choose(event: Event): void {
    const input = event.target as HTMLInputElement;
    this.store.add([...(input.files ?? [])]);
    input.value = '';
  }
}
