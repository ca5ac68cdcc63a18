// SvelteKit with its Node adapter: `node build` is the production server the test starts.
import adapter from '@sveltejs/adapter-node';
import { vitePreprocess } from '@sveltejs/vite-plugin-svelte';

/** @type {import('@sveltejs/kit').Config} */
export default { preprocess: vitePreprocess(), kit: { adapter: adapter() } };
