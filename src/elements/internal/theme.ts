import { css } from 'lit';

/**
 * Shared host rules: the light/dark scheme (`prefers-color-scheme` by default, forced with
 * `color-scheme="light|dark"`), global `--store-*` tokens with accessible defaults, and a visually hidden helper.
 * Components read their own `--store-<component>-<thing>` properties, which fall back to these tokens.
 */
export const themeStyles = css`
  :host {
    color-scheme: light dark;
    --_fg: var(--store-color-text, light-dark(#1b1b1f, #e6e6ea));
    --_muted: var(--store-color-text-muted, light-dark(#4a4a52, #b9b9c2));
    --_bg: var(--store-color-surface, light-dark(#ffffff, #17171b));
    --_bg-alt: var(--store-color-surface-alt, light-dark(#f3f4f8, #24242b));
    --_border: var(--store-color-border, light-dark(#6b6b75, #8c8c96));
    --_accent: var(--store-color-accent, light-dark(#0b57d0, #a8c7fa));
    --_on-accent: var(--store-color-on-accent, light-dark(#ffffff, #062e6f));
    --_danger: var(--store-color-danger, light-dark(#b3261e, #f2b8b5));
    --_success: var(--store-color-success, light-dark(#146c2e, #8fd6a0));
    --_warning: var(--store-color-warning, light-dark(#8a5300, #f5c26b));
    --_radius: var(--store-radius, 0.5rem);
    --_focus: var(--store-focus-ring, 2px solid var(--_accent));
    /* A system font stack by default: a page's own font (Times New Roman in a bare page) is not inherited. */
    font: var(
      --store-font,
      400 var(--store-font-size, 0.875rem) / 1.43
        var(--store-font-family, system-ui, -apple-system, 'Segoe UI', Roboto, 'Noto Sans', 'Noto Sans Arabic', 'Noto Sans Hebrew', 'Noto Sans CJK JP', 'Helvetica Neue', Arial, sans-serif)
    );
    color: var(--_fg);
  }
  :host([color-scheme='light']) {
    color-scheme: light;
  }
  :host([color-scheme='dark']) {
    color-scheme: dark;
  }
  :host([hidden]) {
    display: none;
  }
  :focus-visible {
    outline: var(--_focus);
    outline-offset: 2px;
  }
  button {
    font: inherit;
    color: var(--_accent);
    background: var(--_bg);
    border: 1px solid var(--_border);
    border-radius: var(--_radius);
    padding: 0.25rem 0.75rem;
    cursor: pointer;
    min-block-size: 2rem;
  }
  button.primary {
    color: var(--_on-accent);
    background: var(--_accent);
    border-color: var(--_accent);
  }
  button:disabled {
    cursor: not-allowed;
    opacity: 0.6;
  }
  select,
  input {
    font: inherit;
    color: var(--_fg);
    background: var(--_bg);
    border: 1px solid var(--_border);
    border-radius: var(--_radius);
    padding: 0.25rem 0.5rem;
  }
  .visually-hidden {
    position: absolute;
    inline-size: 1px;
    block-size: 1px;
    overflow: hidden;
    clip-path: inset(50%);
    white-space: nowrap;
  }
`;
