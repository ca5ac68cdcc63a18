// Every story renders the real elements; states come from the scripted uploader, so they are deterministic.
import type { Preview } from '@storybook/web-components-vite';
import '../src/elements/index.ts';

const preview: Preview = {
  // `?globals=scheme:dark` renders the language stories dark (the screenshot spec uses it).
  initialGlobals: { scheme: 'light' },
  globalTypes: {
    scheme: { description: 'Colour scheme of the language stories', toolbar: { title: 'Scheme', items: ['light', 'dark'] } },
  },
  parameters: {
    layout: 'padded',
    controls: { expanded: true },
  },
};

export default preview;
