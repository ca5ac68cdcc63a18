/**
 * Vite config of the demo pages (`demo/`): the plain site (upload, files, about), the React demo and the Vue demo, served by `npm start`
 * and built by `npm run build:demos` into `dist/demos/`.
 */
import { fileURLToPath } from 'node:url';
import vue from '@vitejs/plugin-vue';
import { defineConfig } from 'vite';

const root = fileURLToPath(new URL('./demo/', import.meta.url));

export default defineConfig({
  root,
  // Relative asset and worker URLs, so the build works from any folder (a root-absolute worker URL hangs comlink).
  base: './',
  plugins: [
    vue({
      // `<store-*>` are custom elements, not Vue components: Vue sets their properties and listens to their events.
      template: { compilerOptions: { isCustomElement: (tag: string) => tag.startsWith('store-') } },
    }),
  ],
  server: { host: '127.0.0.1' },
  build: {
    outDir: fileURLToPath(new URL('./dist/demos/', import.meta.url)),
    emptyOutDir: true,
    target: 'es2022',
    rolldownOptions: {
      input: {
        main: `${root}index.html`,
        files: `${root}files.html`,
        about: `${root}about.html`,
        react: `${root}react/index.html`,
        vue: `${root}vue/index.html`,
      },
    },
  },
  worker: { format: 'es' },
  logLevel: 'warn',
});
