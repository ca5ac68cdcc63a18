/// <reference types="mocha" />
// Thumbnails and image resizing (issue 11), with the real worker uploader against the real store-service: the
// worker decodes each image upright and the row shows it in its `thumbnail` part; a file that is not an image keeps
// its icon; a removed row's object URL is revoked; `imageResize` sends a smaller image that the service stores with
// its MD5 verified, and the row shows both sizes.
import { expect, fixture, fixtureCleanup, html, waitUntil } from '@open-wc/testing';
import '../../../src/elements/progress-list/define.ts';
import '../../../src/elements/uploader/define.ts';
import type { StoreUploader } from '../../../src/elements/uploader/store-uploader.ts';
import type { StoreProgressList } from '../../../src/elements/progress-list/store-progress-list.ts';
import { ScriptedUploader } from '../../fixtures/scripted-uploader.ts';
import { TOKEN, baseUrl, download, testUploaders } from '../uploader/helpers.ts';
import { canvasImage, imageSize, withExifOrientation } from '../uploader/images.ts';
import { text } from './helpers.ts';

const uploader = testUploaders({ persist: false });

const row = (el: StoreProgressList, id: string) => el.shadowRoot!.querySelector<HTMLElement>(`[data-id="${id}"]`);

async function thumbnailOf(el: StoreProgressList, id: string): Promise<HTMLImageElement> {
  await waitUntil(() => row(el, id)?.querySelector('img[part="thumbnail"]'), `no thumbnail for ${id}`, {
    timeout: 20_000,
  });
  const img = row(el, id)!.querySelector<HTMLImageElement>('img[part="thumbnail"]')!;
  await img.decode();
  return img;
}

afterEach(() => {
  fixtureCleanup();
});

describe('thumbnails', () => {
  it('shows a PNG and a rotated JPEG decoded upright, keeps the icon of a non-image, and revokes a removed row URL', async () => {
    const u = uploader();
    const el = await fixture<StoreProgressList>(html`<store-progress-list .uploader=${u}></store-progress-list>`);
    const png = new File([await canvasImage(120, 80, 'image/png')], 'wide.png', { type: 'image/png' });
    const jpeg = new File([await withExifOrientation(await canvasImage(200, 100, 'image/jpeg'), 6)], 'phone.jpg', {
      type: 'image/jpeg',
    });
    const textFile = new File(['just words\n'], 'notes.txt', { type: 'text/plain' });
    const tasks = [u.add(png), u.add(jpeg), u.add(textFile)];
    await Promise.all(tasks.map((t) => t.done));

    const pngThumb = await thumbnailOf(el, tasks[0].id);
    expect(pngThumb.alt).to.equal('');
    expect(pngThumb.src).to.match(/^blob:/);
    expect([pngThumb.naturalWidth, pngThumb.naturalHeight]).to.deep.equal([64, 43]);
    expect(row(el, tasks[0].id)!.querySelector('[part="icon"]')).to.equal(null);

    // 200 × 100 stored with orientation 6 is shown 100 × 200: the thumbnail is portrait, 32 × 64.
    const jpegThumb = await thumbnailOf(el, tasks[1].id);
    expect([jpegThumb.naturalWidth, jpegThumb.naturalHeight]).to.deep.equal([32, 64]);
    // Upright means the red half (the image's left) is now on top.
    const probe = new OffscreenCanvas(32, 64).getContext('2d')!;
    probe.drawImage(jpegThumb, 0, 0);
    const top = probe.getImageData(16, 8, 1, 1).data;
    const bottom = probe.getImageData(16, 56, 1, 1).data;
    expect(top[0]).to.be.greaterThan(150);
    expect(top[2]).to.be.lessThan(100);
    expect(bottom[2]).to.be.greaterThan(150);

    const textRow = row(el, tasks[2].id)!;
    expect(textRow.querySelector('[part="thumbnail"]')).to.equal(null);
    expect(textRow.querySelector('[part="icon"]')!.getAttribute('data-kind')).to.equal('document');
    expect(await u.thumbnail(tasks[2].id, 64)).to.equal(undefined);

    // Removing the row revokes its URL: the blob: URL no longer loads.
    const url = pngThumb.src;
    expect((await fetch(url)).ok).to.equal(true);
    u.remove(tasks[0].id);
    await waitUntil(() => !row(el, tasks[0].id), 'the removed row stayed');
    let loaded = true;
    await fetch(url).then(
      () => undefined,
      () => (loaded = false),
    );
    expect(loaded).to.equal(false);
    // The others keep theirs.
    expect((await fetch(jpegThumb.src)).ok).to.equal(true);
  });

  it('revokes every URL when the list disconnects', async () => {
    const u = uploader();
    const el = await fixture<StoreProgressList>(html`<store-progress-list .uploader=${u}></store-progress-list>`);
    const task = u.add(new File([await canvasImage(40, 40, 'image/png')], 'dot.png', { type: 'image/png' }));
    const url = (await thumbnailOf(el, task.id)).src;
    el.remove();
    let loaded = true;
    await fetch(url).then(
      () => undefined,
      () => (loaded = false),
    );
    expect(loaded).to.equal(false);
  });
});

describe('thumbnails of a long list', () => {
  it('asks only for the rows in view, two at a time, and for the others once they are scrolled to', async () => {
    let running = 0;
    let most = 0;
    const u = new ScriptedUploader({
      tasks: Array.from({ length: 40 }, (_, i) => ({
        id: `t${i}`,
        name: `photo-${i}.png`,
        type: 'image/png',
        total: 1000,
      })),
      thumbnail: async () => {
        running++;
        most = Math.max(most, running);
        const blob = await canvasImage(64, 48, 'image/png');
        running--;
        return blob;
      },
    });
    const el = await fixture<StoreProgressList>(html`<store-progress-list .uploader=${u}></store-progress-list>`);
    const asked = () => u.calls.filter((c) => c.method === 'thumbnail').map((c) => c.id);
    await thumbnailOf(el, 't0');
    await thumbnailOf(el, 't7');
    const scroller = el.shadowRoot!.querySelector<HTMLElement>('[part="list"]')!;
    const rowsInView = Math.ceil(scroller.clientHeight / row(el, 't0')!.offsetHeight);
    expect(asked().length).to.be.at.most(rowsInView + 1);
    expect(asked()).to.not.include('t39');
    expect(most).to.be.at.most(2);
    scroller.scrollTop = scroller.scrollHeight;
    await thumbnailOf(el, 't39');
    expect(asked()).to.not.include('t20');
  });
});

describe('imageResize', () => {
  it('sends a rotated JPEG scaled into the bounds, upright, MD5-verified, and shows both sizes', async () => {
    const u = uploader({ imageResize: { maxWidth: 800, maxHeight: 600, type: 'image/jpeg', quality: 0.9 } });
    const el = await fixture<StoreProgressList>(html`<store-progress-list .uploader=${u}></store-progress-list>`);
    // 2000 × 1000 with orientation 6: upright it is 1000 × 2000, which fits 800 × 600 at 300 × 600.
    const original = new File(
      [await withExifOrientation(await canvasImage(2000, 1000, 'image/jpeg', true), 6)],
      'big.jpg',
      {
        type: 'image/jpeg',
        lastModified: 1_700_000_000_000,
      },
    );
    const task = u.add(original);
    const file = await task.done;
    const snapshot = task.snapshot;
    expect(snapshot.originalSize).to.equal(original.size);
    expect(snapshot.total).to.be.lessThan(original.size);

    const stored = await download(baseUrl, file.id);
    expect(stored.length).to.equal(snapshot.total);
    expect(await imageSize(new Blob([stored as Uint8Array<ArrayBuffer>]))).to.deep.equal({ width: 300, height: 600 });
    // The engine compared the service's MD5 with the bytes it sent (verify is on): `done` resolved, so they matched.
    const meta = await fetch(`${baseUrl}/store/v3/files/${file.id}?fields=md5Checksum,size,mimeType`, {
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    const resource = (await meta.json()) as { md5Checksum: string; size: string; mimeType: string };
    expect(resource.size).to.equal(String(stored.length));
    expect(resource.md5Checksum).to.match(/^[0-9a-f]{32}$/);
    expect(resource.mimeType).to.equal('image/jpeg');

    await waitUntil(() => row(el, task.id)?.getAttribute('data-state') === 'done', 'row not done');
    const size = row(el, task.id)!.querySelector('[part="size"]')!;
    expect(size.querySelectorAll('bdi')).to.have.length(2);
    expect(text(size.querySelector('.visually-hidden'))).to.match(/^[\d.]+ MB, resized to [\d.]+ kB$/);
  });

  it('leaves an image within the bounds and a non-image as they are', async () => {
    const u = uploader({ imageResize: { maxWidth: 800, maxHeight: 600 } });
    const small = new File([await canvasImage(300, 200, 'image/png')], 'small.png', { type: 'image/png' });
    const task = u.add(small);
    const file = await task.done;
    expect(task.snapshot.originalSize).to.equal(undefined);
    expect((await download(baseUrl, file.id)).length).to.equal(small.size);
  });

  it('keeps the resized image with its session, so it resumes in a new uploader without the file', async () => {
    const options = {
      persist: true,
      resumableThreshold: 0,
      chunkSize: 256 * 1024,
      imageResize: { maxWidth: 1600, maxHeight: 1600, quality: 0.98 },
    } as const;
    const first = uploader(options);
    const original = new File(
      [await canvasImage(2400, 1800, 'image/jpeg', true, 0.98)],
      `resume-${crypto.randomUUID()}.jpg`,
      {
        type: 'image/jpeg',
        lastModified: 1_700_000_000_000,
      },
    );
    const task = first.add(original);
    await new Promise<void>((resolve) => {
      const onProgress = () => {
        if (task.snapshot.bytesAcknowledged === 0) return;
        first.removeEventListener('progress', onProgress);
        task.pause();
        resolve();
      };
      first.addEventListener('progress', onProgress);
    });
    await waitUntil(() => task.state === 'paused', 'not paused');
    const sentSize = task.snapshot.total;
    expect(sentSize).to.be.greaterThan(256 * 1024);
    first.destroy();

    const second = uploader(options);
    const found = (await second.interrupted()).find((i) => i.name === original.name);
    expect(found, 'interrupted upload').to.not.equal(undefined);
    expect(found!.canResumeWithoutFile).to.equal(true);
    expect(found!.total).to.equal(sentSize);
    const resumed = await second.resumeInterrupted(found!.id);
    const file = await resumed.done;
    expect(resumed.snapshot.originalSize).to.equal(original.size);
    const stored = await download(baseUrl, file.id);
    expect(stored.length).to.equal(sentSize);
    expect(await imageSize(new Blob([stored as Uint8Array<ArrayBuffer>]))).to.deep.equal({ width: 1600, height: 1200 });
  });
});

describe('image-resize attribute of <store-uploader>', () => {
  it('reads bounds, type and quality, and refuses what it cannot read', async () => {
    const el = await fixture<StoreUploader>(
      html`<store-uploader image-resize="1920x1080 image/webp 0.8"></store-uploader>`,
    );
    expect(el.imageResize).to.deep.equal({ maxWidth: 1920, maxHeight: 1080, type: 'image/webp', quality: 0.8 });
    el.setAttribute('image-resize', 'x1200');
    expect(el.imageResize).to.deep.equal({ maxHeight: 1200 });
    for (const bad of ['big', '1920', '1920x1080 image/jpeg 2', 'x']) {
      el.setAttribute('image-resize', bad);
      expect(el.imageResize, bad).to.equal(undefined);
    }
  });

  it('makes the uploader it creates send images scaled into the bounds', async () => {
    const el = await fixture<StoreUploader>(
      html`<store-uploader base-url=${baseUrl} token=${TOKEN} image-resize="400x300 image/jpeg 0.9"></store-uploader>`,
    );
    const original = new File([await canvasImage(1600, 1200, 'image/jpeg', true)], 'photo.jpg', {
      type: 'image/jpeg',
      lastModified: 1_700_000_000_000,
    });
    const input = el
      .shadowRoot!.querySelector('store-dropzone')!
      .shadowRoot!.getElementById('files') as HTMLInputElement;
    const dt = new DataTransfer();
    dt.items.add(original);
    input.files = dt.files;
    input.dispatchEvent(new Event('change'));
    await waitUntil(() => el.value.length === 1, 'the image was not uploaded', { timeout: 20_000 });
    const stored = await download(baseUrl, el.value[0]);
    expect(stored.length).to.be.lessThan(original.size);
    expect(await imageSize(new Blob([stored as Uint8Array<ArrayBuffer>]))).to.deep.equal({ width: 400, height: 300 });
  });
});
