import { svg } from 'lit';
import type { SVGTemplateResult } from 'lit';
import type { TaskState } from '../../uploader/index.ts';

/**
 * Inline SVG icons, drawn on a 20-unit grid with `currentColor`, so parts and `--store-*` colours restyle them.
 * Each is decorative (`aria-hidden`): the control or text beside it carries the words.
 */
const icon = (body: SVGTemplateResult, filled = false): SVGTemplateResult =>
  svg`<svg viewBox="0 0 20 20" width="20" height="20" aria-hidden="true" focusable="false" fill=${filled ? 'currentColor' : 'none'}
    stroke="currentColor" stroke-width="1.75" stroke-linecap="round" stroke-linejoin="round">${body}</svg>`;

const RING = svg`<circle cx="10" cy="10" r="7" />`;
const RETRY = svg`<path d="M15.5 10a5.5 5.5 0 1 1-1.6-3.9M15 3.5v3.5h-3.5" />`;
const TRASH = svg`<path d="M4 6h12M8 6V4h4v2M5.5 6l1 10h7l1-10" />`;

/** Row controls. */
export const ACTION_ICONS = {
  pause: icon(svg`<path d="M7.5 5v10M12.5 5v10" />`),
  resume: icon(svg`<path d="M7 4.5l8 5.5-8 5.5z" />`, true),
  cancel: icon(svg`<path d="M5.5 5.5l9 9M14.5 5.5l-9 9" />`),
  retry: icon(RETRY),
  remove: icon(TRASH),
  discard: icon(TRASH),
  rechoose: icon(svg`<path d="M3 5.5h5l2 2h7V15H3z" />`),
} as const;

/** One icon per state, so states differ by shape as well as colour and words. */
export const STATE_ICONS: Readonly<Record<TaskState, SVGTemplateResult>> = {
  queued: icon(svg`${RING}<path d="M10 6.5V10l2.5 1.5" />`),
  uploading: icon(svg`<path d="M10 15.5v-11M5.5 9L10 4.5 14.5 9" />`),
  paused: icon(svg`${RING}<path d="M8.5 7.5v5M11.5 7.5v5" />`),
  retrying: icon(RETRY),
  verifying: icon(svg`<path d="M10 3l6 2.2V10c0 3.6-2.6 5.9-6 7-3.4-1.1-6-3.4-6-7V5.2z" />`),
  done: icon(svg`${RING}<path d="M7 10.2l2.1 2.1L13.2 8" />`),
  failed: icon(svg`${RING}<path d="M10 6.5v4.2M10 13.4v.1" />`),
  cancelled: icon(svg`${RING}<path d="M5.2 14.8l9.6-9.6" />`),
  interrupted: icon(svg`<path d="M10 3.2l7.5 13.3h-15zM10 8.2v3.6M10 14v.1" />`),
};
