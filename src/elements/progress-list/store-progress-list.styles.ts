import { css } from 'lit';

/**
 * Styles of `<store-progress-list>` itself; the rows' are in `row.styles.ts`, loaded with the first row. Rows have
 * one fixed height (`--store-progress-list-row-height`), so the list's height is known from its row count, windowed
 * or not: it grows with its rows up to `--store-progress-list-max-height`, then scrolls.
 */
export const progressListStyles = css`
  :host {
    display: block;
    container-type: inline-size;
    --_row-height: var(--store-progress-list-row-height, 3rem);
    --_max-height: var(--store-progress-list-max-height, 24rem);
  }
  .base {
    background: var(--store-progress-list-background, var(--_bg));
    border: 1px solid var(--store-progress-list-border-color, var(--_border));
    border-radius: var(--store-progress-list-radius, var(--_radius));
    overflow: hidden;
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
    block-size: calc(var(--_before, 0) * var(--_row-height));
  }
  .scroller.virtual::after {
    block-size: calc(var(--_after, 0) * var(--_row-height));
  }
  .scroller.virtual > .row {
    contain: layout paint style;
  }
  .scroller:focus-visible {
    outline-offset: -2px;
  }
  .empty {
    margin: 0;
    padding: 0.75rem;
    color: var(--_muted);
  }
`;
