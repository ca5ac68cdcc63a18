// The page's token goes with its attach when the app's getter gives a string at once (uploader/page/start-host.ts):
// the engine then knows the page's account without asking back, and the app is asked once, not twice.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { filesNamed, TOKEN } from './helpers/engine-harness.ts';
import { pageSuite } from './helpers/page-uploader.ts';

const suite = pageSuite();

test('a getter that answers a string at once is asked once for the attach and the upload that follows', async () => {
  let asked = 0;
  const p = suite.page({
    getAccessToken: () => {
      asked++;
      return TOKEN;
    },
  });
  const name = `attach-token-${crypto.randomUUID()}.txt`;
  const task = p.uploader.add(new File(['asked once'], name, { type: 'text/plain' }));
  await task.done;
  assert.equal((await filesNamed(suite.service.url, name)).length, 1);
  assert.equal(asked, 1, 'the app was asked once');
});
