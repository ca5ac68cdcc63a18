/// <reference types="mocha" />
// `min-file-size` and `max-total-size` on <store-dropzone> and <store-uploader>: refusals are events and listed
// messages with sizes formatted by Intl in the element's language; the total counts what the real uploader lists.
import { expect, fixture, html, waitUntil } from '@open-wc/testing';
import '../../../src/elements/uploader/define.ts';
import '../../../src/elements/dropzone/define.ts';
import type { StoreUploader } from '../../../src/elements/uploader/store-uploader.ts';
import type { StoreDropzone } from '../../../src/elements/dropzone/store-dropzone.ts';
import { ar } from '../../../src/elements/i18n/ar.ts';
import { he } from '../../../src/elements/i18n/he.ts';
import { formatBytes } from '../../../src/elements/internal/format.ts';
import { serviceUrl, TOKEN } from '../uploader/helpers.ts';
import { makeFile, nextEvent, text } from './helpers.ts';

const rows = (zone: StoreDropzone) =>
  [...zone.shadowRoot!.querySelectorAll('[part="rejections"] li')].map((li) => [
    li.getAttribute('data-reason'),
    text(li),
  ]);
const picked = (...files: File[]) => files.map((file) => ({ file, relativePath: file.name }));

describe('size restrictions', () => {
  it('min-file-size refuses smaller files with an event and an English message', async () => {
    const zone = await fixture<StoreDropzone>(html`<store-dropzone multiple min-file-size="1500"></store-dropzone>`);
    expect(zone.minFileSize).to.equal(1500);
    const rejected = nextEvent(zone, 'store-files-reject');
    const added = nextEvent(zone, 'store-files-add');
    await zone.addFiles(picked(makeFile('tiny.txt', 10), makeFile('big.txt', 1500), makeFile('empty.txt', 0)));
    expect((await rejected).detail.files.map((f) => [f.relativePath, f.reason])).to.deep.equal([
      ['tiny.txt', 'min-size'],
      ['empty.txt', 'min-size'],
    ]);
    expect((await added).detail.files.map((f) => f.relativePath)).to.deep.equal(['big.txt']);
    await zone.updateComplete;
    expect(rows(zone)).to.deep.equal([
      ['min-size', 'tiny.txt: smaller than the minimum of 1.5 kB.'],
      ['min-size', 'empty.txt: smaller than the minimum of 1.5 kB.'],
    ]);
  });

  it('min-file-size and max-total-size speak Arabic under lang="ar" (sizes by Intl)', async () => {
    const wrapper = await fixture(
      html`<div lang="ar"><store-dropzone multiple min-file-size="5" max-total-size="2000"></store-dropzone></div>`,
    );
    const zone = wrapper.querySelector<StoreDropzone>('store-dropzone')!;
    await zone.addFiles(picked(makeFile('a.txt', 2), makeFile('b.txt', 1500), makeFile('c.txt', 600)));
    await zone.updateComplete;
    expect(rows(zone)).to.deep.equal([
      ['min-size', ar.dropzone.reject['min-size']('a.txt', formatBytes(5, 'ar'))],
      ['total-size', ar.dropzone.reject['total-size']('c.txt', formatBytes(2000, 'ar'))],
    ]);
    expect(rows(zone)[1][1]).to.contain('c.txt').and.contain(formatBytes(2000, 'ar'));
  });

  // Each in its page's own engine: the site's shared one lists what earlier tests' uploaders left, and these count.
  it('<store-uploader max-total-size> counts the uploads in its list, not cancelled or removed ones, in Hebrew too', async () => {
    const baseUrl = await serviceUrl();
    const wrapper = await fixture(
      html`<div lang="he"><store-uploader host="dedicated" base-url=${baseUrl} token=${TOKEN} max-total-size="1000" min-file-size="2"></store-uploader></div>`,
    );
    const el = wrapper.querySelector<StoreUploader>('store-uploader')!;
    await waitUntil(() => el.activeUploader, 'the uploader was not created');
    const uploader = el.activeUploader!;
    const zone = el.shadowRoot!.querySelector('store-dropzone')!;
    expect([zone.maxTotalSize, zone.minFileSize]).to.deep.equal([1000, 2]);

    await zone.addFiles(picked(makeFile(`first-${crypto.randomUUID()}.txt`, 600)));
    await waitUntil(() => uploader.snapshot.tasks[0]?.state === 'done', 'the first upload did not finish', {
      timeout: 30_000,
    });

    // 600 listed + 300 fits; 200 more would make 1100.
    const rejected = nextEvent(el, 'store-files-reject');
    await zone.addFiles(picked(makeFile('second.txt', 300), makeFile('third.txt', 200), makeFile('one-byte.txt', 1)));
    expect((await rejected).detail.files.map((f) => [f.relativePath, f.reason])).to.deep.equal([
      ['third.txt', 'total-size'],
      ['one-byte.txt', 'min-size'],
    ]);
    await zone.updateComplete;
    expect(rows(zone)).to.deep.equal([
      ['total-size', he.dropzone.reject['total-size']('third.txt', formatBytes(1000, 'he'))],
      ['min-size', he.dropzone.reject['min-size']('one-byte.txt', formatBytes(2, 'he'))],
    ]);
    await waitUntil(
      () => uploader.snapshot.tasks.length === 2 && uploader.snapshot.tasks.every((t) => t.state === 'done'),
      'the second upload did not finish',
      {
        timeout: 30_000,
      },
    );

    // Removing the first upload from the list frees its 600 bytes.
    uploader.remove(uploader.snapshot.tasks[0].id);
    await waitUntil(() => uploader.snapshot.tasks.length === 1);
    const added = nextEvent(el, 'store-files-add');
    await zone.addFiles(picked(makeFile('third.txt', 200)));
    expect((await added).detail.files.map((f) => f.relativePath)).to.deep.equal(['third.txt']);
    expect(rows(zone)).to.deep.equal([]);
    // Ended before the next test: the site's shared engine would list a running upload in its element too.
    await waitUntil(() => uploader.snapshot.tasks.every((t) => t.state === 'done'), 'the third upload did not finish', {
      timeout: 30_000,
    });
  });

  it('a cancelled upload does not count towards max-total-size', async () => {
    const baseUrl = await serviceUrl();
    const el = await fixture<StoreUploader>(
      html`<store-uploader host="dedicated" base-url=${baseUrl} token=${TOKEN} max-total-size="1000"></store-uploader>`,
    );
    await waitUntil(() => el.activeUploader, 'the uploader was not created');
    const uploader = el.activeUploader!;
    const zone = el.shadowRoot!.querySelector('store-dropzone')!;
    uploader.pauseAll();
    await zone.addFiles(picked(makeFile('held.txt', 900)));
    // By name: the site's shared engine may list other pages' uploads too.
    const task = uploader.task(uploader.snapshot.tasks.find((t) => t.name === 'held.txt')!.id)!;
    task.cancel();
    await task.done.catch(() => undefined);
    const rejected = nextEvent(zone, 'store-files-reject');
    const added = nextEvent(zone, 'store-files-add');
    await zone.addFiles(picked(makeFile('over.txt', 1001), makeFile('fits.txt', 800)));
    expect((await rejected).detail.files.map((f) => [f.relativePath, f.reason])).to.deep.equal([
      ['over.txt', 'total-size'],
    ]);
    expect((await added).detail.files.map((f) => f.relativePath)).to.deep.equal(['fits.txt']);
  });
});
