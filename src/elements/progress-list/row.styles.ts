import { css } from 'lit';

/**
 * Styles of the header, the scroller and the rows of `<store-progress-list>`, adopted by the list once it has a row
 * (they load with the row code, `rows.ts`). States differ by icon shape and colour as well as words.
 */
export const rowStyles = css`
  /* The rows' round icon buttons (actions, download): only rows have them. */
  button.icon-button {
    display: inline-grid;
    place-items: center;
    inline-size: 2rem;
    block-size: 2rem;
    min-block-size: 0;
    padding: 0;
    border-color: transparent;
    background: transparent;
    color: var(--_muted);
    border-radius: 999px;
  }
  button.icon-button:hover {
    background: var(--_bg-alt);
    color: var(--_fg);
  }
  .header {
    display: grid;
    gap: 0.375rem;
    padding: 0.625rem 0.75rem 0.5rem;
    border-block-end: 1px solid var(--store-progress-list-row-border-color, var(--_bg-alt));
  }
  .bulk {
    display: flex;
    flex-wrap: wrap;
    gap: 0.25rem 0.5rem;
  }
  .bulk button {
    font-size: 0.8125rem;
    padding-block: 0.125rem;
  }
  .summary {
    margin: 0;
    color: var(--_fg);
    font-weight: 600;
  }
  .total {
    display: flex;
    block-size: 0.375rem;
    background: var(--store-progress-list-track-color, var(--_bg-alt));
    border-radius: 999px;
    overflow: hidden;
  }
  .total .bar {
    background: var(--store-progress-list-bar-color, var(--_accent));
  }
  .total[aria-valuenow='100'] .bar {
    background: var(--store-progress-list-done-color, var(--_success));
  }
  .scroller {
    display: block;
    max-block-size: var(--_max-height);
    overflow: auto;
    overscroll-behavior: contain;
  }
  /*
   * A virtualized list renders only a range of its rows between two pads as tall as the rows above and below it
   * (counts set by the element), so its scroll range is that of every row. No scroll anchoring: the pads change
   * as the range moves and must not move the view. Each row is laid out and painted on its own.
   */
  .scroller.virtual {
    block-size: min(var(--_max-height), calc(var(--_rows, 1) * var(--_row-height)));
    overflow-anchor: none;
    contain: strict;
  }
  .scroller.virtual::before,
  .scroller.virtual::after {
    content: '';
    display: block;
    --_store-pad-before: inherit;
    --_store-pad-after: inherit;
    block-size: calc(var(--_store-pad-before, 0) * var(--_row-height));
  }
  .scroller.virtual::after {
    block-size: calc(var(--_store-pad-after, 0) * var(--_row-height));
  }
  .scroller.virtual > .row {
    contain: layout paint style;
  }
  .scroller:focus-visible {
    outline-offset: -2px;
  }
  .row {
    --_state: var(--_muted);
    box-sizing: border-box;
    inline-size: 100%;
    block-size: var(--_row-height);
    display: grid;
    grid-template-columns: 1.5rem minmax(0, 1fr) auto auto;
    grid-template-rows: 1fr auto;
    grid-template-areas: 'icon name meta actions' 'icon progress progress actions';
    align-items: center;
    column-gap: 0.625rem;
    padding-block: 0.25rem 0.375rem;
    padding-inline: 0.75rem 0.375rem;
    border-block-end: 1px solid var(--store-progress-list-row-border-color, var(--_bg-alt));
  }
  .row:focus-visible {
    outline-offset: -2px;
  }
  .icon {
    grid-area: icon;
    display: flex;
    color: var(--_muted);
  }
  .thumbnail { grid-area: icon; inline-size: 1.5rem; block-size: 1.5rem; object-fit: cover; border-radius: 0.25rem; }
  .arrow { display: inline-block; }
  .arrow:dir(rtl) { transform: scaleX(-1); }
  .icon .page {
    stroke: var(--_muted);
  }
  .icon[data-kind='document'] { color: light-dark(#1a5fd0, #8ab4f8); }
  .icon[data-kind='spreadsheet'] { color: light-dark(#137333, #81c995); }
  .icon[data-kind='presentation'] { color: light-dark(#b95000, #fcad70); }
  .icon[data-kind='pdf'] { color: light-dark(#c5221f, #f28b82); --_on-kind: light-dark(#fff, #3c0a08); }
  .icon[data-kind='image'] { color: light-dark(#8430ce, #d7aefb); }
  .icon[data-kind='audio'] { color: light-dark(#b80672, #ff8bcb); }
  .icon[data-kind='video'] { color: light-dark(#00727a, #78d9ec); }
  .icon[data-kind='archive'] { color: light-dark(#795548, #d7b8a8); }
  .icon[data-kind='code'] { color: light-dark(#3c4043, #dadce0); }
  .name {
    grid-area: name;
    overflow: hidden;
    text-overflow: ellipsis;
    white-space: nowrap;
    font-weight: 600;
  }
  .meta {
    grid-area: meta;
    display: flex;
    align-items: center;
    gap: 0.625rem;
    white-space: nowrap;
    color: var(--_muted);
    font-variant-numeric: tabular-nums;
    min-inline-size: 0;
  }
  .size,
  .rate {
    color: var(--_muted);
  }
  .rate:empty {
    display: none;
  }
  .state {
    display: inline-flex;
    align-items: center;
    gap: 0.25rem;
    color: var(--_state);
    font-weight: 500;
    max-inline-size: min(26rem, 45cqi);
    min-inline-size: 0;
  }
  .state svg {
    flex: none;
    inline-size: 1rem;
    block-size: 1rem;
  }
  .state-text {
    overflow: hidden;
    text-overflow: ellipsis;
  }
  .row[data-state='uploading'],
  .row[data-state='verifying'] {
    --_state: var(--store-progress-list-bar-color, var(--_accent));
  }
  .row[data-state='paused'],
  .row[data-state='retrying'],
  .row[data-state='interrupted'] {
    --_state: var(--store-progress-list-warning-color, var(--_warning));
  }
  .row[data-state='done'] {
    --_state: var(--store-progress-list-done-color, var(--_success));
  }
  .row[data-state='failed'] {
    --_state: var(--store-progress-list-error-color, var(--_danger));
  }
  .row[data-state='cancelled'] .name {
    text-decoration: line-through;
    color: var(--_muted);
    font-weight: 400;
  }
  .progress {
    grid-area: progress;
    display: flex;
    block-size: var(--store-progress-list-bar-height, 0.25rem);
    background: var(--store-progress-list-track-color, var(--_bg-alt));
    border-radius: 999px;
    overflow: hidden;
  }
  .bar {
    background: var(--_state);
    border-radius: inherit;
  }
  .row[data-state='queued'] .bar,
  .row[data-state='cancelled'] .bar {
    background: var(--_border);
  }
  .download-as {
    padding: 0.125rem 0.25rem;
  }
  .actions {
    grid-area: actions;
    display: flex;
    gap: 0.125rem;
    align-items: center;
    justify-content: flex-end;
    min-inline-size: 4.125rem;
  }
  /* A phone: the words of the state give way to its icon (they stay the bar's description), the rate to the size. */
  @container (max-width: 30rem) {
    .rate,
    .state-text {
      display: none;
    }
    .meta {
      gap: 0.375rem;
    }
  }
`;
