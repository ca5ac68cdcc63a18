/** Lets TypeScript import `.vue` files (checked by Vite's Vue plugin, not by tsc). */
declare module '*.vue' {
  import type { DefineComponent } from 'vue';
  const component: DefineComponent<object, object, unknown>;
  export default component;
}
