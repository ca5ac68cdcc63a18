/**
 * Two toolbar globals every story follows: `scheme` (light or dark) and `dir` (left to right or right to left).
 * A story can fix either with `globals: { scheme: 'dark' }`; the URL takes `&globals=scheme:dark;dir:rtl`.
 */
import type { Decorator, Preview } from '@storybook/web-components-vite';
import { html } from 'lit';
import { keyed } from 'lit/directives/keyed.js';
import { ref } from 'lit/directives/ref.js';

export const pageGlobalTypes: Preview['globalTypes'] = {
  scheme: {
    description: 'Colour scheme: dark forces color-scheme="dark" on every store-* element of the story, on a dark page',
    toolbar: {
      title: 'Scheme',
      icon: 'contrast',
      items: [
        { value: 'light', title: 'Light' },
        { value: 'dark', title: 'Dark' },
      ],
      dynamicTitle: true,
    },
  },
  dir: {
    description: 'Text direction of the page around the story',
    toolbar: {
      title: 'Direction',
      icon: 'transfer',
      items: [
        { value: 'ltr', title: 'Left to right' },
        { value: 'rtl', title: 'Right to left' },
      ],
      dynamicTitle: true,
    },
  },
};

export const pageInitialGlobals = { scheme: 'light', dir: 'ltr' };

/**
 * Forces the dark scheme on the story's top-level `store-*` elements once they are in the page (a microtask after the
 * wrapper's own commit: the story's template inside it is rendered by then). Nested elements follow their host.
 */
function forceDark(wrapper: Element | undefined): void {
  if (!wrapper) return;
  queueMicrotask(() => {
    for (const el of wrapper.querySelectorAll('*'))
      if (el.localName.startsWith('store-')) el.setAttribute('color-scheme', 'dark');
  });
}

/** Wraps every story in the page the toolbar asks for; a change of either global renders the story afresh. */
export const withPageGlobals: Decorator = (story, { globals }) => {
  const dark = globals['scheme'] === 'dark';
  const dir = globals['dir'] === 'rtl' ? 'rtl' : 'ltr';
  // Storybook renders a template result, not a bare directive: the keyed wrapper sits in one.
  return html`${keyed(
    `${dark}-${dir}`,
    html`<div class="story-page ${dark ? 'dark-page' : ''}" dir=${dir} ${ref((el) => dark && forceDark(el))}>${story()}</div>`,
  )}`;
};
