// webpack 5 re-bundles the kit's worker from its literal `new Worker(new URL('./worker.js', import.meta.url))`.
import 'store-upload-kit/elements';
import type { StoreUploader } from 'store-upload-kit/elements';
import { pageConfig, reportIds } from '../../shared-page.ts';

const config = pageConfig();
const element = document.querySelector<StoreUploader>('store-uploader')!;
element.baseUrl = config.serviceUrl;
element.getAccessToken = () => config.token;
element.addEventListener('change', () => reportIds(element.value));
