// What crosses between the page and the engine per file (issue 20): across threads every call is a message and its
// reply, so the files of one turn go in a call per doubling (`page/add-batch.ts`: the first at once, inside its `add`,
// so the engine starts while the app's loop goes on) and each task's end comes with its events, not as the answer to a
// request per task. Real engine in the page (a counting subclass of the real service, real adapters)
// against the real store-service: bytes stored, calls counted, each `done` settled with the right outcome.
import { expect } from '@open-wc/testing';
import { MemoryLocks } from '../../../src/uploader/adapters/memory-locks.ts';
import { MemorySessionStore } from '../../../src/uploader/adapters/memory-session-store.ts';
import { systemClock } from '../../../src/uploader/adapters/system-clock.ts';
import { xhrHttp } from '../../../src/uploader/adapters/xhr-http.ts';
import { UploadWorkerService } from '../../../src/uploader/index.ts';
import type { AddOptions, CreateUploaderOptions, TaskSnapshot, UploadError } from '../../../src/uploader/index.ts';
import type { AddAnswer, AddRequest, FileInfo, TaskResult } from '../../../src/uploader/contract/worker-contract.ts';
import { canvasImage } from './images.ts';
import { addFault, baseUrl, download, filesNamed, sameBytes, testUploaders } from './helpers.ts';

/** The real service, counting what the page asks of it. */
class CountingService extends UploadWorkerService {
  readonly calls = { add: 0, addMany: 0, batched: 0, result: 0 };
  /** The number of files in each `addMany`, in order. */
  readonly batches: number[] = [];

  override add(taskId: string, file: Blob, info: FileInfo, options?: AddOptions): Promise<TaskSnapshot> {
    this.calls.add++;
    return super.add(taskId, file, info, options);
  }

  override addMany(requests: readonly AddRequest[]): Promise<AddAnswer[]> {
    this.calls.addMany++;
    this.calls.batched += requests.length;
    this.batches.push(requests.length);
    return super.addMany(requests);
  }

  override result(taskId: string): Promise<TaskResult> {
    this.calls.result++;
    return super.result(taskId);
  }
}

const uploader = testUploaders({ persist: false, maxRetries: 0 });

function inPage(options: Partial<CreateUploaderOptions> = {}) {
  const service = new CountingService(() => ({
    http: xhrHttp,
    store: new MemorySessionStore(),
    clock: systemClock,
    locks: new MemoryLocks(),
  }));
  return { service, u: uploader({ service, ...options }) };
}

const text = (i: number) => new File([`file ${i} ${crypto.randomUUID()}\n`], `c-${crypto.randomUUID()}.txt`);

describe('calls between the page and the engine', () => {
  it('300 files added in one turn cross in 10 calls, the first inside its add; every done settles from the events, with no request per task', async () => {
    const { service, u } = inPage();
    await u.interrupted();
    const files = Array.from({ length: 300 }, (_, i) => text(i));
    const first = u.add(files[0]!);
    // The engine has the first file before the app's loop goes on (the page's attach was on its way already).
    expect(service.batches).to.deep.equal([1]);
    const tasks = [first, ...files.slice(1).map((file) => u.add(file))];
    expect(service.batches).to.deep.equal([1, 1, 2, 4, 8, 16, 32, 64, 128]);
    const stored = await Promise.all(tasks.map((task) => task.done));

    expect(service.batches).to.deep.equal([1, 1, 2, 4, 8, 16, 32, 64, 128, 44]);
    expect(service.calls).to.deep.equal({ add: 300, addMany: 10, batched: 300, result: 0 });
    expect(new Set(stored.map((file) => file.id)).size).to.equal(300);
    expect(tasks.every((task) => task.state === 'done')).to.equal(true);
    for (const i of [0, 1, 149, 298, 299]) {
      expect(stored[i]!.name).to.equal(files[i]!.name);
      expect(await sameBytes(files[i]!, await download(baseUrl, stored[i]!.id))).to.equal(true);
    }
  });

  it('adds of separate turns cross separately, each answered; an image the engine resizes goes alone', async () => {
    const { service, u } = inPage({ imageResize: { maxWidth: 64, maxHeight: 64 } });
    await u.interrupted();
    const first = [u.add(text(1)), u.add(text(2))];
    await Promise.all(first.map((task) => task.done));
    const image = await canvasImage(300, 200, 'image/png');
    const photo = u.add(new File([image], `c-${crypto.randomUUID()}.png`, { type: 'image/png' }));
    const second = [u.add(text(3)), u.add(text(4)), u.add(text(5))];
    await Promise.all([photo, ...second].map((task) => task.done));

    // The first turn's two files, then the second turn's three: 1 and 1, then 1, 1 and the 1 left.
    expect(service.batches).to.deep.equal([1, 1, 1, 1, 1]);
    expect(service.calls).to.deep.equal({ add: 6, addMany: 5, batched: 5, result: 0 });
    expect(photo.snapshot.originalSize).to.equal(image.size);
    expect(photo.snapshot.total).to.be.below(image.size);
  });

  it('a failure, a cancel and a retry settle each attempt’s done from the events, with its code', async () => {
    const { service, u } = inPage();
    await u.interrupted();
    await addFault(baseUrl, {
      match: { method: 'POST', uploadType: 'multipart' },
      action: { type: 'status', status: 503 },
      times: 1,
    });
    const failing = u.add(text(1));
    const failed = failing.done;
    expect(
      await failed.then(
        () => 'resolved',
        (e: UploadError) => e.code,
      ),
    ).to.equal('retries-exhausted');

    const held = u.add(new File([new Uint8Array(8 * 1024 * 1024)], `c-${crypto.randomUUID()}.bin`));
    held.cancel();
    expect(
      await held.done.then(
        () => 'resolved',
        (e: UploadError) => e.code,
      ),
    ).to.equal('cancelled');
    expect(held.state).to.equal('cancelled');

    failing.retry();
    const file = await failing.done;
    expect(failing.state).to.equal('done');
    expect(await filesNamed(baseUrl, failing.snapshot.name)).to.deep.equal([{ id: file.id }]);
    expect(service.calls.result).to.equal(0);
  });
});
