// Commands that travel with the add (issue 40): a pause or cancel a page gives a task before its engine has it — in the
// add's own message (`AddRequest`'s fifth), or in a message right behind it on the same port — is applied as the task
// arrives, before it may send anything, whatever the engine has fetched already (its pool of file IDs full or empty).
// The page's side (`AddBatch.hold`) is in test/browser/uploader/held-commands.test.ts. Counted at a proxy in front of
// the real service: no create request for a task stopped on its way, and the bytes of the one resumed are stored.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, test } from 'node:test';
import { startService, type ServiceHandle } from '../server/helpers/service.ts';
import { attachedPage, sharedWorker } from './helpers/attached-page.ts';
import { download, filesNamed, md5, randomFile, TOKEN } from './helpers/engine-harness.ts';
import { startCountingProxy, type CountingProxy } from './helpers/counting-proxy.ts';
import type { AddRequest, HeldCommand } from '../../src/uploader/contract/worker-contract.ts';
import { withTimeout } from '../../src/uploader/contract/with-timeout.ts';

const KiB = 1024;

/** A wait for events, bounded: a task that never gets there fails here, not at the runner's limit. */
const within = <T>(wait: Promise<T>) => withTimeout(wait, 30_000, () => new Error('no such event within 30 s'));

let service: ServiceHandle;
let proxy: CountingProxy;
before(async () => {
  service = await startService();
  proxy = await startCountingProxy(service.url);
});
after(async () => {
  await proxy.close();
  await service.stop();
});

/**
 * Calls as a page's port delivers its messages: in order, each in a task of its own, so the worker may finish handling
 * one (and its engine send a create) before it reads the next.
 */
function port() {
  let delivered = Promise.resolve();
  return <T>(call: () => Promise<T>): Promise<T> => {
    const turn = delivered.then(() => new Promise<void>((resolve) => setImmediate(resolve)));
    delivered = turn;
    return turn.then(call);
  };
}

/** Requests that create a file or a resumable session (what a stopped task must never send). */
const creates = () =>
  proxy.requests.filter((r) => r.method === 'POST' && r.url.startsWith('/upload/store/v3/files')).length;

for (const strategy of ['multipart', 'resumable'] as const)
  for (const ids of ['empty', 'full'] as const)
    test(`${strategy}, the engine's file IDs ${ids}: a pause or cancel in the add's message or right behind it is applied as the task arrives, and it sends nothing`, async () => {
      const { hubs } = sharedWorker();
      const resumableThreshold = strategy === 'multipart' ? 1024 * KiB : 0;
      const a = await attachedPage(hubs, { baseUrl: proxy.url, resumableThreshold }, () => TOKEN, {
        token: TOKEN,
        turns: true,
      });
      const upload = async (taskId = randomUUID()) => {
        const file = randomFile(40 * KiB);
        const added = a.connection.add(taskId, file.file, file);
        a.connection.turnEnded();
        await added;
        const done = await a.when((e, s) => s.id === taskId && (e === 'success' || e === 'error'));
        assert.equal(done.state, 'done', `${taskId}: ${JSON.stringify(done.error)}`);
        assert.equal(md5(await download(service.url, done.file!.id)), md5(file.bytes));
        return file;
      };
      // A full pool: the engine holds IDs from the batch its first file fetched, so a multipart create needs no wait.
      if (ids === 'full') await upload();
      const before = creates();

      const files = Array.from({ length: 4 }, () => randomFile(40 * KiB));
      const taskIds = files.map(() => randomUUID());
      const request = (i: number, held?: HeldCommand): AddRequest =>
        held ? [taskIds[i]!, files[i]!.file, files[i]!, {}, held] : [taskIds[i]!, files[i]!.file, files[i]!, {}];
      // As a page's port delivers one turn: each add, the commands given in the turn behind it, then the turn's end.
      const send = port();
      const added = [
        send(() => a.connection.addMany([request(0, 'cancel')], TOKEN)),
        send(() => a.connection.addMany([request(1)], TOKEN)),
        send(() => a.connection.cancel(taskIds[1]!)),
        send(() => a.connection.addMany([request(2, 'pause')], TOKEN)),
        send(() => a.connection.addMany([request(3)], TOKEN)),
        send(() => a.connection.pause(taskIds[3]!)),
        send(async () => a.connection.turnEnded()),
      ];
      const ended = await within(
        Promise.all(
          taskIds.map((id, i) => a.when((_, s) => s.id === id && s.state === (i < 2 ? 'cancelled' : 'paused'))),
        ),
      );
      await Promise.all(added);
      assert.deepEqual(
        ended.map((s) => s.state),
        ['cancelled', 'cancelled', 'paused', 'paused'],
      );
      // A later file goes through to its end: everything added before it has been taken and decided by then.
      await upload();
      assert.equal(creates() - before, 1, 'one create: the later file’s; none for the four stopped on arrival');
      for (const file of files.slice(0, 2)) assert.deepEqual(await filesNamed(service.url, file.name), []);

      // The paused ones were never started: resumed, they upload whole.
      void a.connection.resume(taskIds[3]!);
      const resumed = await within(a.when((e, s) => s.id === taskIds[3] && (e === 'success' || e === 'error')));
      assert.equal(resumed.state, 'done');
      assert.equal(md5(await download(service.url, resumed.file!.id)), md5(files[3]!.bytes));
      assert.equal(a.events.filter(([, s]) => s.id === taskIds[0] && s.state === 'uploading').length, 0);
    });

test('a resume right behind a pause takes the pause back; a cancel stays whatever follows it', async () => {
  const { hubs } = sharedWorker();
  const a = await attachedPage(hubs, { baseUrl: proxy.url, resumableThreshold: 1024 * KiB }, () => TOKEN, {
    token: TOKEN,
    turns: true,
  });
  const kept = randomFile(40 * KiB);
  const gone = randomFile(40 * KiB);
  const [keptId, goneId] = [randomUUID(), randomUUID()];
  const send = port();
  void send(() => a.connection.addMany([[keptId, kept.file, kept, {}, 'pause']], TOKEN));
  void send(() => a.connection.resume(keptId));
  void send(() => a.connection.addMany([[goneId, gone.file, gone, {}]], TOKEN));
  void send(() => a.connection.cancel(goneId));
  void send(() => a.connection.resume(goneId));
  void send(() => a.connection.pause(goneId));
  void send(async () => a.connection.turnEnded());
  const [done, cancelled] = await within(
    Promise.all([
      a.when((e, s) => s.id === keptId && (e === 'success' || e === 'error')),
      a.when((_, s) => s.id === goneId && s.state === 'cancelled'),
    ]),
  );
  assert.equal(md5(await download(service.url, done.file!.id)), md5(kept.bytes));
  assert.equal(cancelled.state, 'cancelled');
  assert.deepEqual(await filesNamed(service.url, gone.name), []);
});
