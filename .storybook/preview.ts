// Every story renders the real elements; states come from the scripted uploader, so they are deterministic. Each
// element's docs page (autodocs) lists its public API from custom-elements.json (`npm run cem` regenerates it).
import type { Preview } from '@storybook/web-components-vite';
import { setCustomElementsManifest } from '@storybook/web-components-vite';
import manifest from '../custom-elements.json';
import '../src/elements/index.ts';
import { argTypesFromManifest, elementDescription, type Manifest } from './manifest-api.ts';
import { pageGlobalTypes, pageInitialGlobals, withPageGlobals } from './page-globals.ts';

setCustomElementsManifest(manifest);

const preview: Preview = {
  tags: ['autodocs'],
  initialGlobals: pageInitialGlobals,
  globalTypes: pageGlobalTypes,
  decorators: [withPageGlobals],
  parameters: {
    layout: 'padded',
    controls: { expanded: true },
    docs: {
      extractArgTypes: (tagName: string) => argTypesFromManifest(manifest as Manifest, tagName),
      extractComponentDescription: (tagName: string) => elementDescription(manifest as Manifest, tagName),
      toc: true,
    },
    // An axe violation fails the story's test (`npm run test:stories`), not only the panel.
    a11y: { test: 'error' },
  },
};

export default preview;
