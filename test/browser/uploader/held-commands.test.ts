// Commands that travel with the add (issue 40), from the page's side: `pause()` and `cancel()` given in the turn of
// `add()` — to a file whose add is already posted to the site's shared worker, or still waiting in the page's batch —
// reach the engine with the add, which stops the task as it arrives: the service receives no create request for it,
// whether the engine has its file IDs at hand (fetched when the page attached) or not. Counted at the real service
// (a fault that delays no one, on every upload POST: its hits are the creates the service received).
import { expect } from '@open-wc/testing';
import type { UploadTask } from '../../../src/uploader/index.ts';
import { addFault, baseUrl, download, filesNamed, nextEvent, randomFile, sameBytes, testUploaders } from './helpers.ts';

const uploader = testUploaders({ persist: false });

/** Upload POSTs (multipart creates and resumable session starts) the service received since the fault was set. */
async function createsSeen(): Promise<number> {
  const res = await fetch(`${baseUrl}/__admin/faults`);
  const { faults } = (await res.json()) as { faults: { id: number; hits: number; match: { pathPrefix?: string } }[] };
  return faults.find((f) => f.match.pathPrefix === '/upload/store/v3/files')?.hits ?? 0;
}

const stopped = (task: UploadTask, state: 'paused' | 'cancelled', u: EventTarget) =>
  task.state === state ? Promise.resolve() : nextEvent(u, 'change', () => task.state === state);

for (const strategy of ['multipart', 'resumable'] as const)
  for (const ids of ['fetched at the attach', 'fetched by a first upload'] as const)
    describe(`${strategy}, the engine's file IDs ${ids}`, () => {
      it('a pause or cancel in the turn of add() stops the task before it sends: no create for it, and a resumed one stores its bytes', async () => {
        const u = uploader({ resumableThreshold: strategy === 'multipart' ? 1024 * 1024 : 0 });
        await u.interrupted(); // attached: an engine fetches its first file IDs then
        if (ids === 'fetched by a first upload') await u.add(randomFile(1024)).done;
        await addFault(baseUrl, {
          match: { method: 'POST', pathPrefix: '/upload/store/v3/files' },
          action: { type: 'delay', ms: 0 },
          times: 1000,
        });
        const files = Array.from({ length: 4 }, () => randomFile(40 * 1024));
        // One turn: the first two go to the engine inside their add (the cancel and pause follow them on the port),
        // the third waits in the page's batch with its cancel until the fourth's add sends both.
        const tasks: UploadTask[] = [];
        const add = (i: number) => tasks.push(u.add(files[i]!));
        add(0);
        tasks[0]!.cancel();
        add(1);
        tasks[1]!.pause();
        add(2);
        tasks[2]!.cancel();
        add(3);
        tasks[3]!.pause();
        const ends = [tasks[0]!.done, tasks[2]!.done].map((done) =>
          done.then(
            () => 'stored',
            (error: { code?: string }) => error.code,
          ),
        );
        expect(await Promise.all(ends)).to.deep.equal(['cancelled', 'cancelled']);
        await Promise.all([stopped(tasks[1]!, 'paused', u), stopped(tasks[3]!, 'paused', u)]);

        // A later file to its end: what came before it was decided by then.
        const later = u.add(randomFile(1024));
        await later.done;
        expect(await createsSeen()).to.equal(1, "only the later file's create reached the service");
        for (const i of [0, 2]) expect(await filesNamed(baseUrl, files[i]!.name)).to.deep.equal([]);

        tasks[1]!.resume();
        const stored = await tasks[1]!.done;
        expect(await sameBytes(files[1]!, await download(baseUrl, stored.id))).to.equal(true);
        expect(await createsSeen()).to.equal(2);
      });
    });
