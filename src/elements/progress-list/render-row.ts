import { html, nothing } from 'lit';
import type { TemplateResult } from 'lit';
import type { TaskAction } from '../events.ts';
import type { StoreI18n } from '../i18n/types.ts';
import { cssomStyle } from '../internal/cssom-style.ts';
import { fileKind, fileKindIcon } from '../internal/file-kind.ts';
import { formatBytes, formatDuration, formatRate, percentOf } from '../internal/format.ts';
import { ACTION_ICONS, STATE_ICONS } from '../internal/icons.ts';
import type { TaskSnapshot } from '../../uploader/index.ts';

/** The two action slots of a row; keeping them in fixed places lets focus stay on a button whose label changes. */
interface RowActions {
  primary?: TaskAction;
  secondary?: TaskAction;
  rechoose?: boolean;
}

/** Which controls each state offers. */
function actionsFor(task: TaskSnapshot): RowActions {
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
function stateText(task: TaskSnapshot, t: StoreI18n): string {
  if (task.state === 'retrying' && task.retry) {
    const wait = task.retry.delayMs > 0 ? formatDuration(task.retry.delayMs, t.locale) : '';
    return t.retrying(t.retryCauses[task.retry.cause], task.retry.attempt, wait);
  }
  if (task.state === 'failed') return `${t.states.failed}: ${t.errors[task.error?.code ?? 'unknown']}`;
  if (task.state === 'done' && task.convertTo)
    return t.list.converted(t.conversion.kinds[task.convertTo] ?? task.convertTo);
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
  // An icon button: the accessible name says what and which file; the tooltip is the short word.
  return html`<button type="button" class="icon-button" part="action action-${slot}" data-action=${action}
    aria-label=${t.actions[key](name)} title=${t.buttons[key]} @click=${() => act(task, action)}>${ACTION_ICONS[key]}</button>`;
}

/** Id of a row's state text, which its progress bar points at: a failure's message is heard with the bar. */
const stateId = (task: TaskSnapshot): string => `state-${task.id}`;

/**
 * Renders one task row on one line — kind icon (or the image's `thumbnail` URL), name, size, state (icon and words), speed and time left, controls —
 * over a thin progress bar; `act` runs a control. Every number with its unit sits in its own `<bdi>`, so it reads
 * in its own direction inside a right-to-left row; the arrow of a resized image's sizes is mirrored there by CSS ("→"
 * is not a mirrored character), and screen readers hear the sizes in words instead.
 */
export function renderRow(
  task: TaskSnapshot,
  index: number,
  count: number,
  t: StoreI18n,
  act: (task: TaskSnapshot, action: TaskAction | 'rechoose') => void,
  thumbnail?: string,
  /** More controls before the secondary one (a finished row's download, loaded lazily by the list). */
  more?: (task: TaskSnapshot, name: string) => unknown,
): TemplateResult {
  const finished = task.state === 'done';
  // Only a moving upload shows what is on the wire; retrying, paused, failed or interrupted rows show what the
  // service has confirmed, so a failing upload never looks complete.
  const shown = task.state === 'uploading' ? task.bytesSent : task.bytesAcknowledged;
  const percent = percentOf(finished ? task.total : shown, task.total, finished);
  const sent = formatBytes(finished ? task.total : shown, t.locale);
  const size = formatBytes(task.total, t.locale);
  const original = task.originalSize === undefined ? undefined : formatBytes(task.originalSize, t.locale);
  const actions = actionsFor(task);
  const moving = task.state === 'uploading' && task.speed > 0;
  const name = task.relativePath ?? task.name;
  const kind = fileKind(task.name, task.type);
  const state = stateText(task, t);
  return html`
    <div
      class="row"
      part="row row-${task.state}"
      role="listitem"
      tabindex="-1"
      aria-setsize=${count}
      aria-posinset=${index + 1}
      data-id=${task.id}
      data-state=${task.state}
    >
      ${
        thumbnail
          ? html`<img class="thumbnail" part="thumbnail" src=${thumbnail} alt="" />`
          : html`<span class="icon" part="icon" data-kind=${kind}>${fileKindIcon(kind)}</span>`
      }
      <bdi class="name" part="name" title=${name}>${name}</bdi>
      <span class="meta">
        ${
          original
            ? html`<span class="size" part="size"><span aria-hidden="true"><bdi>${original}</bdi> <span class="arrow">→</span> <bdi>${size}</bdi></span
              ><span class="visually-hidden">${t.list.resized(original, size)}</span></span>`
            : html`<bdi class="size" part="size">${size}</bdi>`
        }
        <span class="rate" part="rate">
          ${moving ? html`<bdi>${t.list.speed(formatRate(task.speed, t.locale))}</bdi>` : nothing}
          ${moving && task.etaMs !== undefined ? html`<span aria-hidden="true">·</span> <bdi>${t.list.timeLeft(formatDuration(task.etaMs, t.locale))}</bdi>` : nothing}
        </span>
        <span class="state" part="state" title=${state}>${STATE_ICONS[task.state]}<bdi class="state-text" id=${stateId(task)}>${state}</bdi></span>
      </span>
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
      <span class="actions" part="actions">
        ${actions.primary ? actionButton('primary', actions.primary, task, name, t, act) : nothing}
        ${actions.rechoose ? actionButton('rechoose', 'rechoose', task, name, t, act) : nothing}
        ${more ? more(task, name) : nothing}
        ${actions.secondary ? actionButton('secondary', actions.secondary, task, name, t, act) : nothing}
      </span>
    </div>
  `;
}
