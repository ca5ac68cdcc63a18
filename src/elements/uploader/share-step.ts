/**
 * The "share with" step of `<store-uploader>`: its form, and what submitting it does. It is a chunk of its own
 * (`lazy-views.ts`), loaded the first time an element with `share` has uploaded files to offer, so pages
 * that never share never download it.
 */
import { html } from 'lit';
import type { TemplateResult } from 'lit';
import type { StoreEventDetails } from '../events.ts';
import type { StoreI18n } from '../i18n/types.ts';
import { parseGrants, shareThroughService } from './share.ts';
import type { ShareFunction } from './share.ts';

/** What the step reads from and does to its element. */
export interface ShareStepHost {
  /** The element's words. */
  readonly words: StoreI18n['uploader'];
  /** The error shown under the field, and the confirmation. */
  readonly error: string;
  readonly message: string;
  /** IDs of the uploaded files to share. */
  readonly fileIds: string[];
  /** The app's share function; without one, a batch against `baseUrl` (none without a base URL either). */
  readonly shareFiles: ShareFunction | undefined;
  readonly baseUrl: string;
  readonly getAccessToken: () => string | Promise<string>;
  /** Shows an error and a confirmation (either may be empty). */
  show(error: string, message: string): void;
  /** Fires `store-share-complete`. */
  complete(detail: StoreEventDetails['store-share-complete']): void;
}

/** The step's form for `count` uploaded files. */
export function renderShareStep(host: ShareStepHost, count: number): TemplateResult {
  const t = host.words;
  return html`
    <form part="share" @submit=${(event: SubmitEvent) => submitShare(host, event)} novalidate>
      <fieldset>
        <legend>${t.shareTitle}</legend>
        <label for="emails">${t.shareEmails}</label>
        <input id="emails" name="emails" type="text" autocomplete="email" aria-describedby="emails-hint share-error" aria-invalid=${host.error ? 'true' : 'false'} />
        <p class="hint" id="emails-hint" dir="auto">${t.shareEmailsHint}</p>
        <div class="row">
          <label for="role">${t.shareRole}</label>
          <select id="role" name="role">
            <option value="reader">${t.roles.reader}</option>
            <option value="writer">${t.roles.writer}</option>
          </select>
          <button type="submit" class="primary">${t.shareButton(count)}</button>
        </div>
        <p class="error message" id="share-error" role="alert" dir="auto">${host.error}</p>
        <p class="message" role="status" dir="auto">${host.message}</p>
      </fieldset>
    </form>
  `;
}

/** Checks what was typed (synchronously, so a wrong entry is reported on the next render) and shares. */
async function submitShare(host: ShareStepHost, event: SubmitEvent): Promise<void> {
  event.preventDefault();
  const form = event.target as HTMLFormElement;
  const data = new FormData(form);
  const role = data.get('role') === 'writer' ? 'writer' : 'reader';
  const emails = data.get('emails');
  const { grants, invalid } = parseGrants(typeof emails === 'string' ? emails : '', role);
  const t = host.words;
  if (invalid.length || grants.length === 0) {
    host.show(t.shareInvalid(invalid[0] ?? ''), '');
    return;
  }
  host.show('', '');
  const fileIds = host.fileIds;
  const share = host.shareFiles ?? (host.baseUrl ? shareThroughService(host.baseUrl, host.getAccessToken) : undefined);
  if (!share) return;
  let failed = 0;
  try {
    failed = (await share(fileIds, grants))?.failed ?? 0;
  } catch {
    failed = fileIds.length * grants.length;
  }
  if (failed) host.show(t.shareFailed(failed), '');
  else {
    host.show('', t.shared(grants.length));
    form.reset();
  }
  host.complete({ fileIds, grants, failed });
}
