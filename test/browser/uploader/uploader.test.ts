// createUploader in headless Chromium: a real module worker (comlink), XHR progress, IndexedDB, the real service.
import { expect } from '@open-wc/testing';
import type { TaskSnapshot, UploadError } from '../../../src/uploader/index.ts';
import {
  addFault,
  baseUrl,
  download,
  faultsLeft,
  filesNamed,
  nextEvent,
  randomFile,
  sameBytes,
  testUploaders,
} from './helpers.ts';

const KiB = 1024;
const MiB = 1024 * KiB;

const uploader = testUploaders({ backoff: { baseMs: 20, capMs: 200 } });

describe('createUploader (worker)', () => {
  it('uploads a small file multipart and reports add/start/success', async () => {
    const u = uploader();
    const seen: string[] = [];
    for (const type of ['add', 'start', 'success']) u.addEventListener(type, () => seen.push(type));
    const file = randomFile(200 * KiB, 'text/plain');
    const task = u.add(file);
    expect(task.state).to.equal('queued');
    const stored = await task.done;
    expect(stored.name).to.equal(file.name);
    expect(stored.size).to.equal(String(file.size));
    expect(await sameBytes(file, await download(baseUrl, stored.id))).to.equal(true);
    expect(seen).to.deep.equal(['add', 'start', 'success']);
    expect(task.state).to.equal('done');
    expect(task.snapshot.strategy).to.equal('multipart');
    expect(u.snapshot.tasks.map((t) => t.id)).to.deep.equal([task.id]);
  });

  it('uploads a large file resumable in chunks with progress per acknowledged chunk', async () => {
    const u = uploader({ chunkSize: 256 * KiB, resumableThreshold: MiB });
    const acknowledged: number[] = [];
    u.addEventListener('progress', (e) => acknowledged.push(e.detail.bytesAcknowledged));
    const file = randomFile(MiB + 100 * KiB);
    const stored = await u.add(file).done;
    expect(await sameBytes(file, await download(baseUrl, stored.id))).to.equal(true);
    for (const at of [256 * KiB, 512 * KiB, 768 * KiB, MiB]) expect(acknowledged).to.include(at);
    expect(stored.md5Checksum).to.match(/^[0-9a-f]{32}$/);
  });

  it('pauses after an acknowledged chunk and resumes to a byte-identical file', async () => {
    const u = uploader({ chunkSize: 256 * KiB, resumableThreshold: 0 });
    await addFault(baseUrl, {
      match: { method: 'PUT', uploadType: 'resumable' },
      action: { type: 'delay', ms: 100 },
      times: 50,
    });
    const file = randomFile(MiB);
    const task = u.add(file);
    await nextEvent<TaskSnapshot>(u, 'progress', (s) => s.bytesAcknowledged >= 256 * KiB);
    task.pause();
    const paused = await nextEvent<{ tasks: TaskSnapshot[] }>(u, 'change', (s) => s.tasks[0]?.state === 'paused');
    expect(paused.tasks[0].bytesAcknowledged).to.be.at.least(256 * KiB);
    task.resume();
    const stored = await task.done;
    expect(await sameBytes(file, await download(baseUrl, stored.id))).to.equal(true);
  });

  it('cancel rejects done with code cancelled and leaves no file', async () => {
    const u = uploader({ chunkSize: 256 * KiB, resumableThreshold: 0 });
    await addFault(baseUrl, {
      match: { method: 'PUT', uploadType: 'resumable' },
      action: { type: 'delay', ms: 100 },
      times: 50,
    });
    const file = randomFile(MiB);
    const task = u.add(file);
    await nextEvent<TaskSnapshot>(u, 'progress', (s) => s.bytesAcknowledged >= 256 * KiB);
    task.cancel();
    const error = await task.done.then(
      () => undefined,
      (e: UploadError) => e,
    );
    expect(error?.code).to.equal('cancelled');
    expect(await filesNamed(baseUrl, file.name)).to.deep.equal([]);
    expect(await u.interrupted()).to.deep.equal([]);
  });

  it('retries a burst of 503s and connection cuts, then succeeds byte-identically', async () => {
    const u = uploader({ resumableThreshold: 0 });
    const file = randomFile(2 * MiB + 7);
    await addFault(baseUrl, {
      match: { method: 'PUT', uploadType: 'resumable' },
      action: { type: 'status', status: 503 },
      times: 2,
    });
    await addFault(baseUrl, {
      match: { method: 'PUT', uploadType: 'resumable' },
      action: { type: 'cut', afterBytes: 700 * KiB },
      times: 3,
    });
    // A status query (empty PUT) may take one of the cuts without being cut: three make sure a data PUT is. A cut
    // that comes before the request reported any byte sent is taken as a file the browser would not send by its path
    // (engine/by-path.ts), and sent again as a slice at once, without a `retry` event: so the cuts are counted at the
    // service, every one met, not by the events (under load the first progress report came after the cut).
    const retries: string[] = [];
    u.addEventListener('retry', (e) => retries.push(String(e.detail.retry?.cause)));
    const stored = await u.add(file).done;
    expect(await sameBytes(file, await download(baseUrl, stored.id))).to.equal(true);
    expect(retries.slice(0, 2)).to.deep.equal(['server-error', 'server-error']);
    expect(await faultsLeft(baseUrl), 'every 503 and cut was met').to.deep.equal([]);
    expect(await filesNamed(baseUrl, file.name)).to.deep.equal([{ id: stored.id }]);
  });

  it('lists an upload cut short by an earlier uploader and resumes it with the same file', async () => {
    // A page life that ends with `destroy()`: a dedicated worker, whose uploads stop with it.
    const first = uploader({ host: 'dedicated', chunkSize: 256 * KiB, resumableThreshold: 0 });
    await addFault(baseUrl, {
      match: { method: 'PUT', uploadType: 'resumable' },
      action: { type: 'delay', ms: 100 },
      times: 50,
    });
    const file = randomFile(MiB + 3);
    first.add(file);
    await nextEvent<TaskSnapshot>(first, 'progress', (s) => s.bytesAcknowledged >= 512 * KiB);
    first.destroy();

    const second = uploader({ host: 'dedicated', chunkSize: 256 * KiB, resumableThreshold: 0 });
    const found = await nextEvent<{ name: string; id: string; bytesAcknowledged: number }[]>(
      second,
      'interrupted-found',
    );
    const mine = found.find((u) => u.name === file.name)!;
    expect(mine.bytesAcknowledged).to.be.at.least(512 * KiB);
    const task = await second.resumeInterrupted(mine.id, file);
    const stored = await task.done;
    expect(await sameBytes(file, await download(baseUrl, stored.id))).to.equal(true);
    expect((await second.interrupted()).some((u) => u.id === mine.id)).to.equal(false);
  });

  it('fails an update of a missing file with code not-found', async () => {
    const u = uploader();
    const error = await u.add(randomFile(KiB), { updateFileId: 'missing' }).done.then(
      () => undefined,
      (e: UploadError) => e,
    );
    expect(error?.code).to.equal('not-found');
    expect(error?.status).to.equal(404);
  });
});
