import { html, nothing } from 'lit';
import type { StoreI18n } from '../i18n/types.ts';
import { cssomStyle } from '../internal/cssom-style.ts';
import { formatBytes, percentOf } from '../internal/format.ts';
import type { TaskSnapshot, Uploader } from '../../uploader/index.ts';

/** Runs a bulk action on the list's uploader, if it has one. */
export type BulkRunner = (run: (uploader: Uploader) => void) => void;

/**
 * The list's header once it has rows (it loads with them): the summary line, the bar of all uploads together, and
 * the buttons acting on every upload, each shown only while it would change something.
 */
export function renderHeader(
  t: StoreI18n,
  tasks: readonly TaskSnapshot[],
  sentBytes: number,
  totalBytes: number,
  bulk: BulkRunner,
) {
  let done = 0;
  let failed = 0;
  let active = 0;
  let paused = 0;
  let cancelled = 0;
  for (const task of tasks) {
    if (task.state === 'done') done++;
    else if (task.state === 'failed') failed++;
    else if (task.state === 'cancelled') cancelled++;
    else if (task.state !== 'interrupted') active++;
    if (task.state === 'paused') paused++;
  }
  const summary = t.list.summary({
    total: tasks.length,
    done,
    failed,
    active,
    sent: formatBytes(sentBytes, t.locale),
    size: formatBytes(totalBytes, t.locale),
  });
  const overall = percentOf(sentBytes, totalBytes, tasks.length > 0 && done === tasks.length);
  return html`<div class="header" part="header">
    <p part="summary" class="summary" dir="auto">${summary}</p>
    <div class="total" part="total-progress" role="progressbar" aria-label=${t.list.totalProgress}
      aria-valuemin="0" aria-valuemax="100" aria-valuenow=${overall} aria-valuetext=${summary}>
      <div class="bar" ${cssomStyle({ 'inline-size': `${overall}%` })}></div>
    </div>
    ${renderBulk(t, bulk, { running: active - paused, paused, failed, pending: active, finished: done + cancelled })}
  </div>`;
}

function renderBulk(
  t: StoreI18n,
  bulk: BulkRunner,
  n: { running: number; paused: number; failed: number; pending: number; finished: number },
) {
  const b = t.list.bulk;
  const button = (shown: boolean, label: string, run: (uploader: Uploader) => void) =>
    shown ? html`<button type="button" part="bulk-action" @click=${() => bulk(run)}>${label}</button>` : nothing;
  if (!n.running && !n.paused && !n.failed && !n.pending && !n.finished) return nothing;
  return html`<div part="bulk-actions" class="bulk" role="group" aria-label=${b.label}>
    ${button(n.running > 0, b.pauseAll, (u) => u.pauseAll())}
    ${button(n.paused > 0, b.resumeAll, (u) => u.resumeAll())}
    ${button(n.failed > 0, b.retryFailed, (u) => u.retryFailed())}
    ${button(n.pending > 0, b.cancelAll, (u) => u.cancelAll())}
    ${button(n.finished > 0, b.clearFinished, clearFinished)}
  </div>`;
}

function clearFinished(uploader: Uploader): void {
  for (const task of uploader.snapshot.tasks)
    if (task.state === 'done' || task.state === 'cancelled') uploader.remove(task.id);
}
