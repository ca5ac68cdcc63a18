// `interrupted-found` tells the app of uploads a former visit left (src/uploader/page/main-thread-uploader.ts), in Node
// against the real service: a visit that left none fires no event, only the empty answer.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { pageSuite } from './helpers/page-uploader.ts';

const suite = pageSuite();

test('with nothing interrupted, interrupted() answers an empty list and no interrupted-found is fired', async () => {
  const p = suite.page();
  assert.deepEqual(await p.uploader.interrupted(), []);
  assert.deepEqual(p.of('interrupted-found'), []);
});
