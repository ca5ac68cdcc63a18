// The self-contained browser bundle (dist/browser/store-upload-kit.js, built by `vite build`): loaded as a plain
// module with no bundler, its worker beside it, it uploads a file. Build it first: `npx vite build`.
import { expect } from '@open-wc/testing';
import { download, randomFile, sameBytes, serviceUrl, TOKEN } from './helpers.ts';

type Bundle = typeof import('../../../src/index.ts');

describe('dist/browser/store-upload-kit.js', () => {
  it('exports the public API and uploads through its own worker', async () => {
    const path = '/dist/browser/store-upload-kit.js';
    const kit = (await import(/* @vite-ignore */ path)) as Bundle;
    expect(typeof kit.createUploader).to.equal('function');
    expect(typeof kit.createStoreClient).to.equal('function');
    const baseUrl = await serviceUrl();
    const uploader = kit.createUploader({ baseUrl, getAccessToken: () => TOKEN });
    try {
      const file = randomFile(6 * 1024 * 1024 + 1);
      const stored = await uploader.add(file).done;
      expect(await sameBytes(file, await download(baseUrl, stored.id))).to.equal(true);
      const client = kit.createStoreClient({ baseUrl, getAccessToken: () => TOKEN });
      expect((await client.files.get(stored.id, { fields: ['id', 'md5Checksum'] })).md5Checksum).to.equal(
        stored.md5Checksum,
      );
      // A relative path with a folder loads the worker's folder-tree chunk, beside the worker in the build.
      const inFolder = await uploader.add(randomFile(1000), { relativePath: `bundle-${crypto.randomUUID()}/x.bin` })
        .done;
      const folder = await client.files.get(inFolder.parents![0], { fields: ['name', 'mimeType'] });
      expect(folder.mimeType).to.equal('application/vnd.svc-apps.folder');
      expect(folder.name).to.match(/^bundle-/);
    } finally {
      uploader.destroy();
    }
  });
});
