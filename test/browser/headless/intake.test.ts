// The one intake in a headless app (issue 38 item 1): the drop target reads a drop as `<store-dropzone>` does, so
// files keep their folder paths and handles on their way to the store, and the store makes the same tree of folders
// the elements make — against the real service, bytes compared.
import { expect } from '@open-wc/testing';
import { dropTarget, type PickedFile, type RejectedFile } from '../../../src/headless/index.ts';
import { collectFromHandle } from '../../../src/headless/intake/walk-folders.ts';
import { baseUrl, download, folderTree, newFolder, sameBytes, writeAt } from '../uploader/helpers.ts';
import { testStores } from './helpers.ts';

const store = testStores();
const top = `headless-${crypto.randomUUID().slice(0, 8)}`;
let opfs: FileSystemDirectoryHandle;

before(async () => {
  opfs = await navigator.storage.getDirectory();
  const dir = await opfs.getDirectoryHandle(top, { create: true });
  await writeAt(dir, 'a.txt', 'alpha');
  await writeAt(dir, 'sub/b.txt', 'bravo!');
});
after(() => opfs.removeEntry(top, { recursive: true }));

describe('headless intake', () => {
  it('a drop reaches onFiles with each file and its picked form, as the dropzone reads it', async () => {
    const files = [new File(['one'], 'one.txt', { type: 'text/plain' }), new File(['two!'], 'two.txt')];
    const data = new DataTransfer();
    for (const file of files) data.items.add(file);
    const got = new Promise<[File[], PickedFile[]]>((resolve) => {
      const target = dropTarget({ onFiles: (plain, picked) => resolve([plain, picked]) });
      target.drop(new DragEvent('drop', { dataTransfer: data, cancelable: true }));
    });
    const [plain, picked] = await got;
    expect(plain.map((f) => f.name)).to.deep.equal(['one.txt', 'two.txt']);
    expect(picked.map((p) => [p.file, p.relativePath])).to.deep.equal([
      [plain[0], 'one.txt'],
      [plain[1], 'two.txt'],
    ]);
  });

  it("a drop is judged by the dropzone's rules: accept, sizes and counts refuse files with the first rule each broke", async () => {
    const files = [
      new File(['photo'], 'a.png', { type: 'image/png' }),
      new File(['notes'], 'b.txt', { type: 'text/plain' }),
      new File(['x'.repeat(2000)], 'c.jpg', { type: 'image/jpeg' }),
      new File([''], 'd.png', { type: 'image/png' }),
      new File(['second'], 'e.png', { type: 'image/png' }),
      new File(['third!'], 'f.png', { type: 'image/png' }),
    ];
    const data = new DataTransfer();
    for (const file of files) data.items.add(file);
    let refused: RejectedFile[] = [];
    const got = new Promise<PickedFile[]>((resolve) => {
      const target = dropTarget({
        accept: 'image/*',
        restrictions: { maxFileSize: 1000, minFileSize: 1, maxFiles: 3, alreadyAdded: 1 },
        onReject: (rejected) => (refused = rejected),
        onFiles: (_, picked) => resolve(picked),
      });
      target.drop(new DragEvent('drop', { dataTransfer: data, cancelable: true }));
    });
    expect((await got).map((p) => p.relativePath)).to.deep.equal(['a.png', 'e.png']);
    expect(refused.map((r) => [r.file.name, r.reason])).to.deep.equal([
      ['b.txt', 'type'],
      ['c.jpg', 'size'],
      ['d.png', 'min-size'],
      ['f.png', 'count'],
    ]);
  });

  it('a drop of several files on a drop target for one keeps the first and refuses the rest', async () => {
    const data = new DataTransfer();
    for (const name of ['one.txt', 'two.txt']) data.items.add(new File([name], name));
    let refused: RejectedFile[] = [];
    const got = new Promise<File[]>((resolve) => {
      const target = dropTarget({
        multiple: false,
        onReject: (r) => (refused = r),
        onFiles: (plain) => resolve(plain),
      });
      target.drop(new DragEvent('drop', { dataTransfer: data, cancelable: true }));
    });
    expect((await got).map((f) => f.name)).to.deep.equal(['one.txt']);
    expect(refused.map((r) => [r.file.name, r.reason])).to.deep.equal([['two.txt', 'multiple']]);
  });

  it('picked files from a folder keep their paths and handles: the store makes the tree, byte-identical', async () => {
    const root = await newFolder(baseUrl);
    const s = store({ parentId: root, resumableThreshold: undefined, chunkSize: undefined });
    const picked = await collectFromHandle(await opfs.getDirectoryHandle(top));
    expect(picked.every((p) => p.handle !== undefined)).to.equal(true);
    const tasks = s.add(picked);
    const stored = await Promise.all(tasks.map((t) => t.done));
    const { paths, ids } = await folderTree(baseUrl, root);
    expect(paths).to.deep.equal(['', 'a.txt', 'sub/', 'sub/b.txt'].map((p) => `${top}/${p}`));
    expect(s.uploader!.snapshot.tasks.map((t) => t.relativePath)).to.deep.equal(picked.map((p) => p.relativePath));
    for (const [i, p] of picked.entries()) {
      expect(stored[i].id).to.equal(ids.get(p.relativePath));
      expect(await sameBytes(p.file, await download(baseUrl, stored[i].id))).to.equal(true);
    }
  });
});
