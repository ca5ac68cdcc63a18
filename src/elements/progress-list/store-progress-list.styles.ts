import { css } from 'lit';

/**
 * Styles of `<store-progress-list>` while it is empty; the header's, the scroller's and the rows' are in
 * `row.styles.ts`, loaded with the first row. Rows have one fixed height (`--store-progress-list-row-height`), so
 * the list's height is known from its row count, windowed or not: it grows with its rows up to
 * `--store-progress-list-max-height`, then scrolls.
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
  .empty {
    margin: 0;
    padding: 0.75rem;
    color: var(--_muted);
  }
`;
