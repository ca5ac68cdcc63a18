// Every story renders the real elements; states come from the scripted uploader, so they are deterministic.
import type { Preview } from '@storybook/web-components-vite';
import '../src/elements/index.ts';

const preview: Preview = {
  parameters: {
    layout: 'padded',
    controls: { expanded: true },
  },
};

export default preview;
