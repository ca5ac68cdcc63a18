// Nuxt 4 with server-side rendering (its default): Vue's compiler is told that store-* tags are custom elements, and
// Vite 7 (Nuxt's) to bundle the kit's module worker as a module (its default, `iife`, cannot split the worker's
// chunks) and, in `nuxt dev`, to serve the kit as it is: a pre-bundled copy loses the worker files that
// `new URL('./worker.js', import.meta.url)` points to.
import { isStoreElement } from 'store-upload-kit/vue';

export default defineNuxtConfig({
  compatibilityDate: '2026-01-01',
  devtools: { enabled: false },
  telemetry: false,
  vue: { compilerOptions: { isCustomElement: isStoreElement } },
  vite: { worker: { format: 'es' }, optimizeDeps: { exclude: ['store-upload-kit'] } },
  typescript: { strict: true },
});
