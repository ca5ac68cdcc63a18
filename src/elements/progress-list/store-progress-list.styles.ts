import { css } from 'lit';

/** Styles of `<store-progress-list>`. */
export const progressListStyles = css`
  :host {
    display: block;
  }
  .base {
    background: var(--store-progress-list-background, var(--_bg));
    border: 1px solid var(--store-progress-list-border-color, var(--_border));
    border-radius: var(--store-progress-list-radius, var(--_radius));
  }
  .summary {
    margin: 0;
    padding: 0.5rem 0.75rem;
    border-block-end: 1px solid var(--store-progress-list-border-color, var(--_border));
    color: var(--_fg);
  }
  .scroller {
    display: block;
    max-block-size: var(--store-progress-list-max-height, 24rem);
    overflow: auto;
  }
  .empty {
    margin: 0;
    padding: 0.75rem;
    color: var(--_muted);
  }
  .row {
    box-sizing: border-box;
    inline-size: 100%;
    display: grid;
    grid-template-columns: minmax(0, 1fr) auto;
    grid-template-areas: 'name size' 'progress progress' 'state actions' 'rate actions';
    gap: 0.25rem 0.75rem;
    padding: 0.5rem 0.75rem;
    border-block-end: 1px solid var(--store-progress-list-row-border-color, var(--_bg-alt));
  }
  .name {
    grid-area: name;
    overflow: hidden;
    text-overflow: ellipsis;
    white-space: nowrap;
    font-weight: 600;
  }
  .size {
    grid-area: size;
    color: var(--_muted);
  }
  .progress {
    grid-area: progress;
    display: flex;
    block-size: var(--store-progress-list-bar-height, 0.5rem);
    background: var(--store-progress-list-track-color, var(--_bg-alt));
    border-radius: 999px;
    overflow: hidden;
  }
  .bar {
    background: var(--store-progress-list-bar-color, var(--_accent));
  }
  .row[data-state='done'] .bar {
    background: var(--store-progress-list-done-color, var(--_success));
  }
  .row[data-state='failed'] .bar {
    background: var(--store-progress-list-error-color, var(--_danger));
  }
  .state {
    grid-area: state;
  }
  .row[data-state='failed'] .state {
    color: var(--store-progress-list-error-color, var(--_danger));
  }
  .rate {
    grid-area: rate;
    color: var(--_muted);
    font-variant-numeric: tabular-nums;
  }
  .actions {
    grid-area: actions;
    display: flex;
    gap: 0.25rem;
    align-items: center;
    justify-content: flex-end;
  }
`;
