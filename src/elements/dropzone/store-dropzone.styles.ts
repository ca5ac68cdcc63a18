import { css } from 'lit';

/** Styles of `<store-dropzone>`. */
export const dropzoneStyles = css`
  :host {
    display: block;
  }
  .base {
    display: flex;
    flex-direction: column;
    align-items: center;
    gap: 0.75rem;
    padding: var(--store-dropzone-padding, 1.5rem);
    border: var(--store-dropzone-border-width, 2px) dashed var(--store-dropzone-border-color, var(--_border));
    border-radius: var(--store-dropzone-radius, var(--_radius));
    background: var(--store-dropzone-background, var(--_bg));
    text-align: center;
  }
  :host([drag-over]) .base {
    border-style: solid;
    border-color: var(--store-dropzone-active-border-color, var(--_accent));
    background: var(--store-dropzone-active-background, var(--_bg-alt));
  }
  :host([disabled]) .base {
    opacity: 0.6;
  }
  .prompt {
    margin: 0;
  }
  .buttons {
    display: flex;
    flex-wrap: wrap;
    gap: 0.5rem;
    justify-content: center;
  }
  .rejections:empty {
    display: none;
  }
  .rejections {
    align-self: stretch;
    text-align: start;
    color: var(--store-dropzone-error-color, var(--_danger));
    background: var(--_bg);
  }
  .rejections ul {
    margin: 0.25rem 0;
    padding-inline-start: 1.25rem;
  }
  .rejections h2 {
    font-size: 1em;
    margin: 0;
  }
`;
