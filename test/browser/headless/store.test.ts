// The headless core in the browser against the real service (issue 31): immutable snapshots at most one a frame,
// byte-identical uploads through the store, one store per options, an unsubscribe mid-upload that cancels nothing,
// a store that attaches to the shared engine seeing the uploads it already runs, and two accounts' stores on one
// engine each seeing only their own.
import { expect } from '@open-wc/testing';
import { createUploader } from '../../../src/uploader/index.ts';
import { uploadStore, type TaskView, type UploadsSnapshot } from '../../../src/headless/index.ts';
import { baseUrl, download, randomFile, sameBytes, TOKEN } from '../uploader/helpers.ts';
import { freshOptions, MiB, slowPuts, snapshotWhere, testStores } from './helpers.ts';

const store = testStores();

/** What a `switch` on the union narrows to: each state's own field, typed without `!`. */
function describeTask(task: TaskView): string {
  switch (task.state) {
    case 'done':
      return `done ${task.file.id}`;
    case 'failed':
      return `failed ${task.error.code}`;
    case 'retrying':
      return `retrying ${task.retry.cause}`;
    default:
      return task.state;
  }
}

describe('headless store', () => {
  it('uploads byte-identical; snapshots are immutable, the same object between changes, at most one a frame', async () => {
    await slowPuts(20);
    const s = store();
    let frame = 0;
    let counting = true;
    const count = () => {
      frame++;
      if (counting) requestAnimationFrame(count);
    };
    requestAnimationFrame(count);
    const seen: { snapshot: UploadsSnapshot; frame: number }[] = [];
    const stop = s.subscribe(() => seen.push({ snapshot: s.getSnapshot(), frame }));
    const file = randomFile(2 * MiB + 5);
    const [task] = s.add(file);
    const stored = await task.done;
    const last = await snapshotWhere(s, (x) => x.tasks[0]?.state === 'done');
    counting = false;
    stop();
    expect(await sameBytes(file, await download(baseUrl, stored.id))).to.equal(true);
    expect(describeTask(last.tasks[0])).to.equal(`done ${stored.id}`);
    expect(seen.length).to.be.greaterThan(2);
    // A new object on each notification, never two in one frame, and frozen.
    for (let i = 1; i < seen.length; i++) {
      expect(seen[i].snapshot).to.not.equal(seen[i - 1].snapshot);
      expect(seen[i].frame).to.be.greaterThan(seen[i - 1].frame);
    }
    expect(Object.isFrozen(last)).to.equal(true);
    expect(s.getSnapshot()).to.equal(s.getSnapshot());
    expect(last.totalBytes).to.equal(file.size);
    expect(last.active).to.equal(0);
  });

  it('many changes within one frame make one uploader `change`, which the store passes on in the same frame', async () => {
    const s = store();
    const storeFrames: number[] = [];
    const changeFrames: number[] = [];
    let frame = 0;
    const stop = s.subscribe(() => storeFrames.push(frame));
    const uploader = s.uploader!;
    // Every task event the uploader announces is a change of its snapshot: far more of them than frames.
    let taskEvents = 0;
    for (const type of ['add', 'start', 'progress', 'success'] as const)
      uploader.addEventListener(type, () => taskEvents++);
    uploader.addEventListener('change', () => changeFrames.push(frame));
    // Files added one macrotask apart: several turns, each with a change, within one frame.
    const channel = new MessageChannel();
    const nextTurn = () =>
      new Promise((resolve) => {
        channel.port1.onmessage = resolve;
        channel.port2.postMessage(0);
      });
    const tasks = [];
    let counting = true;
    const count = () => {
      frame++;
      if (counting) requestAnimationFrame(count);
    };
    requestAnimationFrame(count);
    for (let i = 0; i < 20; i++) {
      tasks.push(...s.add(randomFile(1024)));
      await nextTurn();
    }
    await Promise.all(tasks.map((t) => t.done));
    await snapshotWhere(s, (x) => x.tasks.length === 20 && x.active === 0);
    counting = false;
    stop();
    expect(taskEvents).to.be.greaterThan(changeFrames.length);
    // The uploader's own pacing: never two changes in one frame.
    expect(new Set(changeFrames).size).to.equal(changeFrames.length);
    // The store paces nothing again: each change reaches its listener, in the frame it came in.
    expect(storeFrames).to.deep.equal(changeFrames);
  });

  it('progress reaches the store within one frame of its batch arriving from the worker', async () => {
    await slowPuts(20);
    const s = store();
    let frame = 0;
    let counting = true;
    const count = () => {
      frame++;
      if (counting) requestAnimationFrame(count);
    };
    requestAnimationFrame(count);
    // `progress` is announced as the worker's batch is applied; the store's listener must follow by the next frame.
    const arrived: number[] = [];
    const lag: number[] = [];
    const stop = s.subscribe(() => {
      for (const at of arrived.splice(0)) lag.push(frame - at);
    });
    s.uploader!.addEventListener('progress', () => arrived.push(frame));
    const [task] = s.add(randomFile(3 * MiB + 7));
    await task.done;
    await snapshotWhere(s, (x) => x.active === 0);
    counting = false;
    stop();
    expect(lag.length).to.be.greaterThan(2);
    expect(Math.max(...lag)).to.be.at.most(1);
  });

  it('gives one store per serialisable options, whatever the token getter, and keeps asking the latest getter', async () => {
    const options = freshOptions();
    const a = uploadStore(options);
    let asked = '';
    const b = uploadStore({
      ...options,
      getAccessToken: () => {
        asked = 'second';
        return TOKEN;
      },
    });
    try {
      expect(b).to.equal(a);
      expect(uploadStore({ ...options, shareKey: 'other' })).to.not.equal(a);
      const [task] = a.add(randomFile(300 * 1024));
      await task.done;
      expect(asked).to.equal('second');
      expect(a.uploader).to.equal(b.uploader);
    } finally {
      a.destroy();
    }
  });

  it('an unsubscribe mid-upload cancels nothing; the next subscriber sees the finished task at once', async () => {
    await slowPuts(80);
    const s = store();
    const stop = s.subscribe(() => undefined);
    const file = randomFile(2 * MiB);
    const [task] = s.add(file);
    await snapshotWhere(s, (x) => x.tasks[0]?.state === 'uploading' && x.tasks[0].bytesSent > 0);
    stop();
    const stored = await task.done;
    expect(await sameBytes(file, await download(baseUrl, stored.id))).to.equal(true);
    // Subscribing again refreshes before it returns: no frame shows the stale "uploading".
    const again = s.subscribe(() => undefined);
    expect(s.getSnapshot().tasks[0].state).to.equal('done');
    again();
  });

  it('two accounts on one shared engine: each store lists only its own account’s uploads', async () => {
    await slowPuts(80);
    const shareKey = crypto.randomUUID();
    const alice = store({ shareKey, account: 'alice', getAccessToken: () => TOKEN });
    const bob = store({ shareKey, account: 'bob', getAccessToken: () => 'dev-token-bob' });
    expect(alice).not.to.equal(bob);
    const [mine] = alice.add(randomFile(1 * MiB));
    await snapshotWhere(alice, (x) => x.tasks[0]?.state === 'uploading');
    const [theirs] = bob.add(randomFile(100 * 1024));
    await theirs.done;
    // Bob's store was attached to the engine all through Alice's upload, and lists only his own.
    expect((await snapshotWhere(bob, (x) => x.tasks[0]?.state === 'done')).tasks.map((t) => t.id)).to.deep.equal([
      theirs.id,
    ]);
    await mine.done;
    const done = await snapshotWhere(alice, (x) => x.tasks[0]?.state === 'done');
    expect(done.tasks.map((t) => t.id)).to.deep.equal([mine.id]);
  });

  it('a store that attaches to the shared engine sees the uploads another uploader of the site already runs', async () => {
    await slowPuts(80);
    const options = freshOptions();
    const other = createUploader({ ...options });
    try {
      const file = randomFile(2 * MiB);
      const running = other.add(file);
      await new Promise<void>((resolve) => {
        const onProgress = () => {
          if (running.snapshot.bytesSent === 0) return;
          other.removeEventListener('progress', onProgress);
          resolve();
        };
        other.addEventListener('progress', onProgress);
      });
      const s = store(options);
      const seen = await snapshotWhere(s, (x) => x.tasks.some((t) => t.name === file.name));
      expect(seen.tasks.find((t) => t.name === file.name)!.state).to.be.oneOf(['uploading', 'queued', 'verifying']);
      await running.done;
      await snapshotWhere(s, (x) => x.tasks.find((t) => t.name === file.name)?.state === 'done');
    } finally {
      other.destroy();
    }
  });
});
