/** Mounts the Vue demo; the elements register themselves on import. */
import { createApp } from 'vue';
import '../../src/elements/index.ts';
import App from './App.vue';

createApp(App).mount('#app');
