/// <reference types="mocha" />
// The `beforeUpload` property of <store-uploader> and <store-dropzone>, with the real worker uploader and the real
// service: what the hook decides is what the service stores, and what it refuses is listed like a restriction.
import { expect, fixture, html, waitUntil } from '@open-wc/testing';
import '../../../src/elements/uploader/define.ts';
import '../../../src/elements/dropzone/define.ts';
import type { StoreUploader } from '../../../src/elements/uploader/store-uploader.ts';
import type { StoreDropzone } from '../../../src/elements/dropzone/store-dropzone.ts';
import { he } from '../../../src/elements/i18n/he.ts';
import type { BeforeUpload, Uploader } from '../../../src/uploader/index.ts';
import { baseUrl, download, filesNamed, sameBytes, testUploaders, TOKEN } from '../uploader/helpers.ts';
import { chooseFiles, nextEvent, text } from './helpers.ts';

const uploaderFor = testUploaders();

function zoneOf(el: StoreUploader): StoreDropzone {
  return el.shadowRoot!.querySelector('store-dropzone')!;
}

async function mountUploader(hook: BeforeUpload | undefined, lang = 'en', uploader?: Uploader): Promise<StoreUploader> {
  const wrapper = await fixture(
    html`<div lang=${lang}><store-uploader base-url=${baseUrl} token=${TOKEN} .beforeUpload=${hook} .uploader=${uploader}></store-uploader></div>`,
  );
  const el = wrapper.querySelector<StoreUploader>('store-uploader')!;
  await waitUntil(() => el.activeUploader, 'the uploader was not created');
  // A page in another language renders once its words have loaded.
  await waitUntil(() => zoneOf(el), 'the dropzone was not rendered');
  return el;
}

/** Waits until `count` uploads are done and returns their stored files. */
async function uploaded(el: StoreUploader, count: number): Promise<{ id: string; name: string }[]> {
  const done = () => el.activeUploader!.snapshot.tasks.filter((t) => t.state === 'done');
  await waitUntil(() => done().length === count, `${count} uploads did not finish`, { timeout: 30_000 });
  return done().map((t) => ({ id: t.file!.id, name: t.file!.name ?? '' }));
}

async function description(id: string): Promise<string | undefined> {
  const res = await fetch(`${baseUrl}/store/v3/files/${id}?fields=description`, {
    headers: { authorization: `Bearer ${TOKEN}` },
  });
  return ((await res.json()) as { description?: string }).description;
}

const rows = (zone: StoreDropzone) =>
  [...zone.shadowRoot!.querySelectorAll('[part="rejections"] li')].map((li) => [
    li.getAttribute('data-reason'),
    text(li),
  ]);

describe('beforeUpload on the elements', () => {
  it('<store-uploader> skips, renames, describes and replaces files of one drop; the skipped one is listed as refused', async () => {
    const tag = crypto.randomUUID();
    const replacement = new File([crypto.getRandomValues(new Uint8Array(2048))], `replaced-${tag}.bin`, {
      type: 'application/octet-stream',
    });
    const seen: string[] = [];
    const el = await mountUploader((file, { relativePath }) => {
      seen.push(relativePath);
      if (file.name.startsWith('skip')) return false;
      if (file.name.startsWith('rename')) return { name: `renamed-${tag}.txt` };
      if (file.name.startsWith('describe')) return { metadata: { description: `described ${tag}` } };
      return replacement;
    });
    const zone = zoneOf(el);
    const rejected = nextEvent(el, 'store-files-reject');
    const added = nextEvent(el, 'store-files-add');
    const names = ['skip', 'rename', 'describe', 'replace'].map((n) => `${n}-${tag}.txt`);
    chooseFiles(
      zone,
      names.map((n) => new File([`body of ${n}`], n, { type: 'text/plain' })),
    );
    const refusal = await rejected;
    expect(refusal.detail.files.map((f) => [f.relativePath, f.reason])).to.deep.equal([[names[0], 'skipped']]);
    expect((await added).detail.files.map((f) => f.file.name)).to.deep.equal([
      `renamed-${tag}.txt`,
      names[2],
      replacement.name,
    ]);
    expect(seen).to.deep.equal(names);
    await zone.updateComplete;
    expect(rows(zone)).to.deep.equal([['skipped', `${names[0]}: skipped by this page.`]]);

    const files = await uploaded(el, 3);
    const byName = new Map(files.map((f) => [f.name, f.id]));
    expect([...byName.keys()].sort()).to.deep.equal([`renamed-${tag}.txt`, names[2], replacement.name].sort());
    expect(new TextDecoder().decode(await download(baseUrl, byName.get(`renamed-${tag}.txt`)!))).to.equal(
      `body of ${names[1]}`,
    );
    expect(await description(byName.get(names[2])!)).to.equal(`described ${tag}`);
    expect(await sameBytes(replacement, await download(baseUrl, byName.get(replacement.name)!))).to.equal(true);
    expect(await filesNamed(baseUrl, names[0])).to.deep.equal([]);
    expect(await filesNamed(baseUrl, names[3])).to.deep.equal([]);
  });

  it('an async hook that throws refuses that file with its message, worded in Hebrew under lang="he"', async () => {
    const tag = crypto.randomUUID();
    const el = await mountUploader(async (file) => {
      const body = await file.text();
      if (body === 'boom') throw new Error('סוג תוכן אסור');
      return { name: `async-${tag}.txt` };
    }, 'he');
    const zone = zoneOf(el);
    const rejected = nextEvent(el, 'store-files-reject');
    chooseFiles(zone, [new File(['boom'], 'bad.txt'), new File(['fine'], 'good.txt')]);
    const refusal = (await rejected).detail.files;
    expect(refusal.map((f) => [f.relativePath, f.reason, f.message])).to.deep.equal([
      ['bad.txt', 'hook-error', 'סוג תוכן אסור'],
    ]);
    await zone.updateComplete;
    expect(rows(zone)).to.deep.equal([['hook-error', he.dropzone.reject['hook-error']('bad.txt', 'סוג תוכן אסור')]]);
    expect(text(zone.shadowRoot!.querySelector('[part="rejections"] h2'))).to.equal(he.dropzone.rejectedTitle);
    const [file] = await uploaded(el, 1);
    expect(file.name).to.equal(`async-${tag}.txt`);
  });

  it('a replacement the hook returns meets the size limits too: a larger one is refused, a smaller one uploaded', async () => {
    const tag = crypto.randomUUID();
    const el = await mountUploader((file) =>
      file.name === 'grows.txt' ? new File(['x'.repeat(100)], 'grows.txt') : new File(['ok'], `shrinks-${tag}.txt`),
    );
    el.maxFileSize = 50;
    await el.updateComplete;
    const zone = zoneOf(el);
    const rejected = nextEvent(el, 'store-files-reject');
    chooseFiles(zone, [new File(['small'], 'grows.txt'), new File(['y'.repeat(40)], 'shrinks.txt')]);
    expect((await rejected).detail.files.map((f) => [f.relativePath, f.reason, f.file.size])).to.deep.equal([
      ['grows.txt', 'size', 100],
    ]);
    const [file] = await uploaded(el, 1);
    expect(file.name).to.equal(`shrinks-${tag}.txt`);
    expect(await sameBytes(new Blob(['ok']), await download(baseUrl, file.id))).to.equal(true);
  });

  it("a refusal by the uploader's own beforeUpload is listed by the dropzone too", async () => {
    const uploader = uploaderFor({ beforeUpload: (file) => file.size > 0 });
    const el = await mountUploader(undefined, 'en', uploader);
    const zone = zoneOf(el);
    const rejected = nextEvent(el, 'store-files-reject');
    chooseFiles(zone, [new File([], 'empty.txt'), new File(['x'], `one-${crypto.randomUUID()}.txt`)]);
    expect((await rejected).detail.files.map((f) => [f.relativePath, f.reason])).to.deep.equal([
      ['empty.txt', 'skipped'],
    ]);
    await zone.updateComplete;
    expect(rows(zone)).to.deep.equal([['skipped', 'empty.txt: skipped by this page.']]);
    await uploaded(el, 1);
    expect(uploader.snapshot.tasks.map((t) => t.state)).to.deep.equal(['done']);
  });

  it('<store-dropzone> with an uploader runs its hook before store-files-add and uploads what it returns', async () => {
    const uploader = uploaderFor();
    const tag = crypto.randomUUID();
    const zone = await fixture<StoreDropzone>(html`<store-dropzone multiple .uploader=${uploader}></store-dropzone>`);
    zone.beforeUpload = () => ({ name: `zone-${tag}.txt`, metadata: { description: 'from the dropzone' } });
    const added = nextEvent(zone, 'store-files-add');
    await zone.addFiles([{ file: new File(['zone bytes'], 'a.txt'), relativePath: 'dir/a.txt' }]);
    const picked = (await added).detail.files[0];
    // The renamed file keeps its folder in the path the list shows.
    expect([picked.file.name, picked.relativePath, picked.metadata]).to.deep.equal([
      `zone-${tag}.txt`,
      `dir/zone-${tag}.txt`,
      { description: 'from the dropzone' },
    ]);
    const stored = await uploader.task(uploader.snapshot.tasks[0].id)!.done;
    expect(stored.name).to.equal(`zone-${tag}.txt`);
    expect(await description(stored.id)).to.equal('from the dropzone');
    expect(uploader.snapshot.tasks[0].relativePath).to.equal(`dir/zone-${tag}.txt`);
  });
});
