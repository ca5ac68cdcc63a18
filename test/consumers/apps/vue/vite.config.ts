import vue from '@vitejs/plugin-vue';
import { isStoreElement } from 'store-upload-kit/vue';
import { defineConfig } from 'vite';
export default defineConfig({
  base: './',
  plugins: [vue({ template: { compilerOptions: { isCustomElement: isStoreElement } } })],
  build: { outDir: 'dist', emptyOutDir: true },
});
