import { html, nothing } from 'lit';
import type { TemplateResult } from 'lit';
import type { TaskAction } from '../events.ts';
import type { StoreI18n } from '../i18n/types.ts';
import { cssomStyle } from '../internal/cssom-style.ts';
import { formatBytes, formatDuration, percentOf } from '../internal/format.ts';
import type { TaskSnapshot } from '../../uploader/index.ts';

/** The two action slots of a row; keeping them in fixed places lets focus stay on a button whose label changes. */
interface RowActions {
  primary?: TaskAction;
  secondary?: TaskAction;
  rechoose?: boolean;
}

/** Which controls each state offers. */
export function actionsFor(task: TaskSnapshot): RowActions {
  switch (task.state) {
    case 'queued':
    case 'uploading':
      return { primary: 'pause', secondary: 'cancel' };
    case 'paused':
      return { primary: 'resume', secondary: 'cancel' };
    case 'retrying':
      return { primary: 'retry', secondary: 'cancel' };
    case 'verifying':
      return {};
    case 'failed':
      return { primary: 'retry', secondary: 'remove' };
    case 'done':
    case 'cancelled':
      return { secondary: 'remove' };
    case 'interrupted':
      return { primary: 'resume-interrupted', secondary: 'discard-interrupted', rechoose: true };
  }
}

/** The words for a task's state, including the retry reason, the error message or the converted kind. */
export function stateText(task: TaskSnapshot, t: StoreI18n): string {
  if (task.state === 'retrying' && task.retry) {
    const wait = task.retry.delayMs > 0 ? formatDuration(task.retry.delayMs, t.locale) : '';
    return t.retrying(t.retryCauses[task.retry.cause], task.retry.attempt, wait);
  }
  if (task.state === 'failed') return `${t.states.failed}: ${t.errors[task.error?.code ?? 'unknown']}`;
  if (task.state === 'done' && task.convertTo) return t.list.converted(t.conversion.kinds[task.convertTo] ?? task.convertTo);
  return t.states[task.state];
}

type ButtonKey = keyof StoreI18n['buttons'];
const BUTTON: Record<TaskAction | 'rechoose', ButtonKey> = {
  pause: 'pause',
  resume: 'resume',
  cancel: 'cancel',
  retry: 'retry',
  remove: 'remove',
  rechoose: 'rechoose',
  'resume-interrupted': 'resume',
  'discard-interrupted': 'discard',
};

function actionButton(
  slot: string,
  action: TaskAction | 'rechoose',
  task: TaskSnapshot,
  name: string,
  t: StoreI18n,
  act: (task: TaskSnapshot, action: TaskAction | 'rechoose') => void,
): TemplateResult {
  const key = BUTTON[action];
  return html`<button type="button" part="action action-${slot}" data-action=${action} aria-label=${t.actions[key](name)}
    @click=${() => act(task, action)}>${t.buttons[key]}</button>`;
}

/** Id of a row's state text, which its progress bar points at: a failure's message is heard with the bar. */
const stateId = (task: TaskSnapshot): string => `state-${task.id}`;

/** Renders one task row; `act` runs a control. */
export function renderRow(
  task: TaskSnapshot,
  index: number,
  count: number,
  t: StoreI18n,
  act: (task: TaskSnapshot, action: TaskAction | 'rechoose') => void,
): TemplateResult {
  const finished = task.state === 'done';
  // Only a moving upload shows what is on the wire; retrying, paused, failed or interrupted rows show what the
  // service has confirmed, so a failing upload never looks complete.
  const shown = task.state === 'uploading' ? task.bytesSent : task.bytesAcknowledged;
  const percent = percentOf(shown, task.total, finished);
  const sent = formatBytes(finished ? task.total : shown, t.locale);
  const size = formatBytes(task.total, t.locale);
  const actions = actionsFor(task);
  const moving = task.state === 'uploading' && task.speed > 0;
  const name = task.relativePath ?? task.name;
  return html`
    <div
      class="row"
      part="row row-${task.state}"
      role="listitem"
      aria-setsize=${count}
      aria-posinset=${index + 1}
      data-id=${task.id}
      data-state=${task.state}
    >
      <span class="name" part="name" dir="auto" title=${name}>${name}</span>
      <span class="size" part="size">${size}</span>
      <div
        class="progress"
        part="progress"
        role="progressbar"
        aria-label=${name}
        aria-valuemin="0"
        aria-valuemax="100"
        aria-valuenow=${percent}
        aria-valuetext=${t.list.progressText(percent, sent, size)}
        aria-describedby=${stateId(task)}
      >
        <div class="bar" part="progress-bar" ${cssomStyle({ 'inline-size': `${percent}%` })}></div>
      </div>
      <span class="state" part="state" id=${stateId(task)}>${stateText(task, t)}</span>
      <span class="rate" part="rate">
        ${moving ? t.list.speed(formatBytes(task.speed, t.locale)) : nothing}
        ${moving && task.etaMs !== undefined ? html` · ${t.list.timeLeft(formatDuration(task.etaMs, t.locale))}` : nothing}
      </span>
      <span class="actions" part="actions">
        ${actions.primary ? actionButton('primary', actions.primary, task, name, t, act) : nothing}
        ${actions.rechoose ? actionButton('rechoose', 'rechoose', task, name, t, act) : nothing}
        ${actions.secondary ? actionButton('secondary', actions.secondary, task, name, t, act) : nothing}
      </span>
    </div>
  `;
}
