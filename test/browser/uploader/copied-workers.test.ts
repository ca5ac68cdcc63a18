// An app that copies the kit's workers to a path of its site and names it (`workerBase`, page/copied-workers.ts and
// page/start-host.ts): the page starts the shared worker, or its own dedicated one, from `<base>/<kit version>/`,
// whether the app wrote the folder with its slash or without; the file is uploaded and stored byte-identically.
// The copy here is copied-kit/<version>/, two entry files that load the kit's worker sources.
import { expect } from '@open-wc/testing';
import { copiedWorkerUrl } from '../../../src/uploader/page/copied-workers.ts';
import { KIT_VERSION } from '../../../src/uploader/page/kit-version.ts';
import { download, randomFile, sameBytes, baseUrl, testUploaders } from './helpers.ts';

const KiB = 1024;
const folder = new URL('./copied-kit', import.meta.url).pathname; // no slash at the end, as an app may write it
const uploader = testUploaders({ workerBase: folder, chunkSize: 256 * KiB, resumableThreshold: 0 });

describe('workers from the app’s copy (workerBase)', () => {
  it('the folder is named with or without its slash: the worker files are in its version folder', () => {
    for (const base of [folder, `${folder}/`])
      expect(copiedWorkerUrl(base, 'worker.js').pathname).to.equal(`${folder}/${KIT_VERSION}/worker.js`);
  });

  it('the site’s shared worker starts from the copy and uploads a file', async () => {
    const u = uploader();
    const file = randomFile(600 * KiB);
    const stored = await u.add(file).done;
    expect(u.host).to.be.oneOf(['shared-extended', 'shared']);
    expect(await sameBytes(file, await download(baseUrl, stored.id))).to.equal(true);
  });

  it('a dedicated worker starts from the copy (as a module) and uploads a file', async () => {
    const u = uploader({ host: 'dedicated' });
    const file = randomFile(600 * KiB);
    const stored = await u.add(file).done;
    expect(u.host).to.equal('dedicated');
    expect(await sameBytes(file, await download(baseUrl, stored.id))).to.equal(true);
  });
});
