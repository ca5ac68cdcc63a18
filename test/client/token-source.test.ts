// The worker's token source (`reuse: true`): one ask per streak of 401s. A refreshed token stays "unproven" until a
// request made with it is answered with something other than 401 — an answer to an older token proves nothing —
// and once proven, a later 401 on it asks the app again.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { TokenSource } from '../../src/client/token-source.ts';

/** A getter that hands out t1, t2, … and counts the asks. */
function counting() {
  const asked = { count: 0 };
  return { asked, get: () => `t${++asked.count}` };
}

test('an answer to an older token does not prove the refreshed one: its own 401 does not ask again', async () => {
  const { asked, get } = counting();
  const tokens = new TokenSource(get);
  assert.equal(await tokens.get(), 't1');
  assert.equal(await tokens.get(true, 't1'), 't2'); // a 401 on t1
  tokens.accepted('t1'); // a request still carrying t1 was answered 200 meanwhile
  assert.equal(await tokens.get(true, 't2'), 't2', 'the unproven refresh is not refreshed again');
  assert.equal(asked.count, 2);
});

test('a refreshed token a request proved is refreshed again on a later 401', async () => {
  const { asked, get } = counting();
  const tokens = new TokenSource(get);
  await tokens.get();
  assert.equal(await tokens.get(true, 't1'), 't2');
  tokens.accepted('t2');
  assert.equal(await tokens.get(true, 't2'), 't3', 'a proven token that later fails is replaced');
  assert.equal(asked.count, 3);
});
