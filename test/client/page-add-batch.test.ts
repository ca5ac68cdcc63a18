// How the page hands the files of one turn to the engine (page/add-batch.ts): the first at once, inside `add()`,
// then batches as large as all sent before it, and the rest at the turn's end — a message per doubling, so the first
// upload is not held back by the sizes of a long selection. Page uploader in Node against the real service.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { download, md5 } from './helpers/engine-harness.ts';
import { pageSuite, seededFile } from './helpers/page-uploader.ts';

const suite = pageSuite();

/** A page attached to its engine (one upload done), and the size of each batch it hands the engine from now on. */
async function countedPage(seed: number) {
  const p = suite.page({});
  await p.uploader.add(seededFile(10, seed, 'attach.bin')).done;
  const batches: number[] = [];
  const addMany = p.service.addMany.bind(p.service);
  p.service.addMany = (requests, token) => {
    batches.push(requests.length);
    return addMany(requests, token);
  };
  return { p, batches };
}

test('the files added in one turn go to the engine 1, 1, 2 at once and the rest at the turn’s end; all are stored', async () => {
  const { p, batches } = await countedPage(39);
  const files = Array.from({ length: 7 }, (_, i) => seededFile(1000 + i, 40 + i, `turn-${i}.bin`));
  const tasks = files.map((file, i) => {
    const task = p.uploader.add(file);
    if (i === 0) assert.deepEqual(batches, [1], 'the first file is handed over within add()');
    return task;
  });
  assert.deepEqual(batches, [1, 1, 2], 'within the turn: a message per doubling');
  const stored = await Promise.all(tasks.map((t) => t.done));
  assert.deepEqual(batches, [1, 1, 2, 3], 'the rest at the turn’s end, in one message');
  for (const [i, file] of files.entries()) {
    const bytes = new Uint8Array(await file.arrayBuffer());
    assert.equal(md5(await download(suite.service.url, stored[i]!.id)), md5(bytes));
  }
});

test('a turn whose adds all went within it sends nothing more at its end: no empty batch', async () => {
  const { p, batches } = await countedPage(59);
  const files = Array.from({ length: 4 }, (_, i) => seededFile(500 + i, 60 + i, `whole-turn-${i}.bin`));
  const tasks = files.map((file) => p.uploader.add(file));
  await Promise.all(tasks.map((t) => t.done));
  assert.deepEqual(batches, [1, 1, 2]);
});
