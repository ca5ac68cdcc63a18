// Vue 3: the elements registered once; the component uses them as custom elements (see vite.config.ts).
import { createApp } from 'vue';
import 'store-upload-kit/elements';
import App from './App.vue';

createApp(App).mount('#app');
