/// <reference types="mocha" />
// A dropped folder through the elements: the real directory walk (an OPFS tree with nested and empty folders), the
// dropzone's `parent-id` and the uploader element's `flatten`, a real uploader and the real service.
import { expect, fixture, html } from '@open-wc/testing';
import { nextEvent } from './helpers.ts';
import '../../../src/elements/dropzone/define.ts';
import '../../../src/elements/uploader/define.ts';
import type { StoreDropzone } from '../../../src/elements/dropzone/store-dropzone.ts';
import type { StoreUploader } from '../../../src/elements/uploader/store-uploader.ts';
import { collectFromHandle } from '../../../src/headless/intake/walk-folders.ts';
import { createUploader, type Uploader } from '../../../src/uploader/index.ts';
import {
  download,
  eventually,
  folderTree,
  newFolder,
  sameBytes,
  serviceUrl,
  TOKEN,
  writeAt,
} from '../uploader/helpers.ts';

let baseUrl: string;
let uploader: Uploader;
let opfs: FileSystemDirectoryHandle;
const top = `drop-${crypto.randomUUID().slice(0, 8)}`;

/** Resolves once every task of the uploader has finished. */
async function allDone(u: Uploader, count: number): Promise<void> {
  await eventually(
    () => u.snapshot.tasks.length === count && u.snapshot.tasks.every((t) => t.state === 'done'),
    'every upload to finish',
  );
}

before(async () => {
  baseUrl = await serviceUrl();
  opfs = await navigator.storage.getDirectory();
  const dir = await opfs.getDirectoryHandle(top, { create: true });
  await writeAt(dir, 'a.txt', 'alpha');
  await writeAt(dir, 'sub/b.txt', 'bravo!');
  await writeAt(dir, 'sub/deep/c.txt', 'charlie');
  await (await dir.getDirectoryHandle('empty', { create: true })).getDirectoryHandle('inner-empty', { create: true });
  await (await dir.getDirectoryHandle('sub')).getDirectoryHandle('nothing', { create: true });
});
after(async () => {
  await opfs.removeEntry(top, { recursive: true });
});
beforeEach(() => {
  uploader = createUploader({ baseUrl, getAccessToken: () => TOKEN, concurrency: 3 });
});
afterEach(() => uploader.destroy());

describe('dropping a folder', () => {
  it('notes the empty folders of a directory walk', async () => {
    const empty: string[] = [];
    const files = await collectFromHandle(await opfs.getDirectoryHandle(top), '', empty);
    expect(files.map((f) => f.relativePath)).to.deep.equal([
      `${top}/a.txt`,
      `${top}/sub/b.txt`,
      `${top}/sub/deep/c.txt`,
    ]);
    expect(empty.sort()).to.deep.equal([`${top}/empty/inner-empty`, `${top}/sub/nothing`]);
  });

  it('<store-dropzone parent-id> makes the same tree in the folder, empty folders included', async () => {
    const root = await newFolder(baseUrl);
    const zone = await fixture<StoreDropzone>(
      html`<store-dropzone multiple parent-id=${root} .uploader=${uploader}></store-dropzone>`,
    );
    const empty: string[] = [];
    const files = await collectFromHandle(await opfs.getDirectoryHandle(top), '', empty);
    const added = nextEvent(zone, 'store-files-add');
    await zone.addFiles(files, empty);
    expect((await added).detail.folders.sort()).to.deep.equal([`${top}/empty/inner-empty`, `${top}/sub/nothing`]);
    await allDone(uploader, 3);
    const expected = [
      '',
      'a.txt',
      'empty/',
      'empty/inner-empty/',
      'sub/',
      'sub/b.txt',
      'sub/deep/',
      'sub/deep/c.txt',
      'sub/nothing/',
    ].map((p) => `${top}/${p}`);
    await eventually(
      async () => (await folderTree(baseUrl, root)).paths.length >= expected.length,
      'the empty folders to be made',
    );
    const { paths, ids } = await folderTree(baseUrl, root);
    expect(paths).to.deep.equal(expected);
    for (const picked of files)
      expect(await sameBytes(picked.file, await download(baseUrl, ids.get(picked.relativePath)!))).to.equal(true);
  });

  it('<store-uploader parent-id flatten> puts every file straight into the folder and makes no folder', async () => {
    const root = await newFolder(baseUrl);
    const el = await fixture<StoreUploader>(
      html`<store-uploader conversion="none" parent-id=${root} flatten .uploader=${uploader}></store-uploader>`,
    );
    const zone = el.shadowRoot!.querySelector('store-dropzone')!;
    const empty: string[] = [];
    const files = await collectFromHandle(await opfs.getDirectoryHandle(top), '', empty);
    await zone.addFiles(files, empty);
    await allDone(uploader, 3);
    expect((await folderTree(baseUrl, root)).paths).to.deep.equal(['a.txt', 'b.txt', 'c.txt']);
    expect(uploader.snapshot.tasks.map((t) => t.relativePath).sort()).to.deep.equal(files.map((f) => f.relativePath));
  });
});
