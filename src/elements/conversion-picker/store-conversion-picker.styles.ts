import { css } from 'lit';

/**
 * Styles of `<store-conversion-picker>`. The base has its own surface, so forced dark text colours never land on a
 * light page (comments stay out of the CSS text, which ships as written).
 */
export const conversionPickerStyles = css`
  :host {
    display: inline-block;
  }
  .base {
    display: flex;
    flex-wrap: wrap;
    align-items: center;
    gap: var(--store-conversion-picker-gap, 0.5rem);
    background: var(--store-conversion-picker-background, var(--_bg));
  }
  .status:empty {
    display: none;
  }
  .status {
    color: var(--_muted);
  }
`;
