import { css } from 'lit';

/** Styles of `<store-uploader>`. */
export const uploaderStyles = css`
  :host {
    display: block;
  }
  .base {
    display: flex;
    flex-direction: column;
    gap: var(--store-uploader-gap, 1rem);
    padding: var(--store-uploader-padding, 0);
    background: var(--store-uploader-background, var(--_bg));
  }
  fieldset {
    border: 1px solid var(--_border);
    border-radius: var(--_radius);
    background: var(--_bg);
    margin: 0;
    padding: 0.75rem;
    display: flex;
    flex-direction: column;
    gap: 0.5rem;
  }
  legend {
    font-weight: 600;
    padding-inline: 0.25rem;
  }
  ul {
    list-style: none;
    margin: 0;
    padding: 0;
    display: flex;
    flex-direction: column;
    gap: 0.5rem;
  }
  li {
    display: flex;
    flex-wrap: wrap;
    gap: 0.5rem;
    align-items: center;
    justify-content: space-between;
  }
  .row {
    display: flex;
    flex-wrap: wrap;
    gap: 0.5rem;
    align-items: center;
  }
  [part='resume-all'] {
    align-self: flex-start;
  }
  .changed {
    color: var(--_danger);
    flex-basis: 100%;
  }
  .hint {
    color: var(--_muted);
    margin: 0;
  }
  .error {
    color: var(--_danger);
  }
  .message:empty {
    display: none;
  }
`;
