// Storybook for the store-* elements: web components on Vite, configured by hand (`storybook init` fails here).
import type { StorybookConfig } from '@storybook/web-components-vite';

const config: StorybookConfig = {
  stories: ['../stories/**/*.mdx', '../stories/**/*.stories.ts'],
  addons: ['@storybook/addon-docs', '@storybook/addon-a11y', '@storybook/addon-vitest'],
  framework: { name: '@storybook/web-components-vite', options: {} },
  core: { disableTelemetry: true },
};

export default config;
