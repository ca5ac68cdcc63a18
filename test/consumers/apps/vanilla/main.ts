// The README's bundler example, compiled in strict mode: the typed uploader API and the elements sharing it.
import { createUploader } from 'store-upload-kit';
import 'store-upload-kit/elements';
import type { StoreDropzone, StoreProgressList } from 'store-upload-kit/elements';
import { pageConfig, reportIds } from '../shared-page.ts';

const config = pageConfig();
const uploader = createUploader({ baseUrl: config.serviceUrl, getAccessToken: () => config.token, concurrency: 3 });
const ids: string[] = [];

uploader.addEventListener('progress', (e) => {
  document.getElementById('progress')!.textContent = `${e.detail.bytesAcknowledged} / ${e.detail.total}`;
});
uploader.addEventListener('success', (e) => {
  if (e.detail.file) ids.push(e.detail.file.id);
  reportIds(ids);
});
document.querySelector<StoreDropzone>('store-dropzone')!.uploader = uploader;
document.querySelector<StoreProgressList>('store-progress-list')!.uploader = uploader;
