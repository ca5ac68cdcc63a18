// `thumbnail(id)` of a task the page does not know (src/uploader/page/main-thread-uploader.ts), in Node against the
// real service: no thumbnail, no error — a list row may ask after its task left the list.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { pageSuite } from './helpers/page-uploader.ts';

const suite = pageSuite();

test('the thumbnail of a task the page does not know is undefined, not an error', async () => {
  const p = suite.page();
  assert.equal(await p.uploader.thumbnail('no-such-task', 64), undefined);
});
