// The intake's last step in a headless app (issue 38): `store.addPicked` hands picked files to the store's uploader as
// <store-dropzone> and <store-uploader> do — into the folders of their paths under `parentId`, beside a drop's empty
// folders, with a conversion chosen per file (a file's own wins) and an OCR language decided per file, and with the
// uploader's own `beforeUpload` refusals told to `onReject` — judged by what the real service stores.
import { expect } from '@open-wc/testing';
import type { PickedFile, RejectedFile } from '../../../src/headless/index.ts';
import { DOCUMENT_MIME, SPREADSHEET_MIME } from '../../../src/protocol/index.ts';
import { baseUrl, eventually, folderTree, newFolder, TOKEN } from '../uploader/helpers.ts';
import { testStores } from './helpers.ts';

const store = testStores();

const picked = (name: string, text: string, type: string, relativePath = name): PickedFile => ({
  file: new File([text], name, { type }),
  relativePath,
});

/** The stored file's type and the `ocrLanguage` its upload asked for, as the service answers. */
async function stored(id: string): Promise<{ mimeType: string; name: string }> {
  const res = await fetch(`${baseUrl}/store/v3/files/${id}?fields=mimeType,name`, {
    headers: { authorization: `Bearer ${TOKEN}` },
  });
  expect(res.status).to.equal(200);
  return (await res.json()) as { mimeType: string; name: string };
}

describe('headless store: addPicked', () => {
  it('places picked files in their folders, converts as chosen per file, and tells the uploader hook’s refusals', async () => {
    const parentId = await newFolder(baseUrl);
    const s = store({
      beforeUpload: (file) => (file.name === 'skip.txt' ? false : undefined),
    });
    const refused: RejectedFile[] = [];
    const ocrAsked: string[] = [];
    await s.addPicked(
      [
        picked('a.csv', 'x,y\n1,2\n', 'text/csv', 'docs/a.csv'),
        // Its own conversion (a hook's) wins over the one chosen for all: stored as it is sent.
        { ...picked('b.csv', 'p,q\n3,4\n', 'text/csv'), convertTo: '' },
        picked('notes.txt', 'plain', 'text/plain', 'docs/deep/notes.txt'),
        picked('skip.txt', 'no', 'text/plain'),
      ],
      {
        parentId,
        folders: ['empty'],
        convertTo: (p) => (p.file.type === 'text/csv' ? SPREADSHEET_MIME : undefined),
        ocrLanguage: (p, to) => {
          ocrAsked.push(`${p.relativePath} ${to}`);
          return to === DOCUMENT_MIME ? 'fr' : undefined;
        },
        onReject: (files) => refused.push(...files),
      },
    );
    const tasks = s.getSnapshot().tasks;
    expect(tasks.map((t) => t.name).sort()).to.deep.equal(['a.csv', 'b.csv', 'notes.txt', 'skip.txt']);
    await eventually(() => refused.length === 1, 'the hook’s refusal');
    expect(refused.map((r) => [r.relativePath, r.reason])).to.deep.equal([['skip.txt', 'skipped']]);
    await eventually(() => s.getSnapshot().tasks.filter((t) => t.state === 'done').length === 3, 'three uploads done');
    const { paths, ids } = await folderTree(baseUrl, parentId);
    expect(paths).to.deep.equal(['b.csv', 'docs/', 'docs/a.csv', 'docs/deep/', 'docs/deep/notes.txt', 'empty/']);
    // The converted CSV is stored as a spreadsheet; the one that brought its own choice (none) as it was sent.
    expect(await stored(ids.get('docs/a.csv')!)).to.deep.equal({ mimeType: SPREADSHEET_MIME, name: 'a.csv' });
    expect((await stored(ids.get('b.csv')!)).mimeType).to.equal('text/csv');
    // The OCR language is asked only for files that are converted, with their target.
    expect(ocrAsked).to.deep.equal([`docs/a.csv ${SPREADSHEET_MIME}`]);
  });

  it('adds nothing and resolves on a store with no uploader to add to (server rendering)', async () => {
    const { UploadStore } = await import('../../../src/headless/index.ts');
    const s = new UploadStore(undefined);
    await s.addPicked([picked('a.txt', 'a', 'text/plain')]);
    expect(s.getSnapshot().tasks).to.deep.equal([]);
  });
});
