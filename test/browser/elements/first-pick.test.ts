/// <reference types="mocha" />
// A page's first pick can come before `<store-uploader>` has loaded the uploader it creates from `base-url` (the
// facade is imported on demand). React apps hit this: the element renders, the user (or a test) picks at once. The
// files must wait for the uploader and be stored, not silently dropped. Its own file: in a page where the facade
// is already loaded, the race cannot be set up.
import { expect, oneEvent } from '@open-wc/testing';
import '../../../src/elements/uploader/define.ts';
import type { StoreUploader } from '../../../src/elements/uploader/store-uploader.ts';
import { download, randomFile, sameBytes, serviceUrl, TOKEN } from '../uploader/helpers.ts';

describe('<store-uploader> picked from before its uploader has loaded', () => {
  it('uploads files picked while the uploader is still loading, in the order picked', async () => {
    const baseUrl = await serviceUrl();
    const el = document.createElement('store-uploader') as StoreUploader;
    el.baseUrl = baseUrl;
    el.token = TOKEN;
    document.body.append(el);
    await el.updateComplete;
    // The precondition that makes this test mean something: nothing to add to yet.
    expect(el.activeUploader, 'the uploader had already loaded').to.equal(undefined);
    const files = [randomFile(300 * 1024 + 7), randomFile(1000)];
    const input = el
      .shadowRoot!.querySelector('store-dropzone')!
      .shadowRoot!.getElementById('files') as HTMLInputElement;
    const dt = new DataTransfer();
    for (const file of files) dt.items.add(file);
    input.files = dt.files;
    input.dispatchEvent(new Event('change'));
    while (el.value.length < 2) await oneEvent(el, 'change');
    const tasks = el.activeUploader!.snapshot.tasks;
    expect(tasks.map((t) => t.name)).to.deep.equal(files.map((f) => f.name));
    for (const [i, file] of files.entries())
      expect(await sameBytes(file, await download(baseUrl, tasks[i].file!.id))).to.equal(true);
    el.remove();
  });
});
