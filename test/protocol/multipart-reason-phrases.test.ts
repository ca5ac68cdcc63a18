/** Reason phrases of a batch's inner answers (`src/protocol/multipart-reason-phrases.ts`): known codes by name, others by class. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { reasonPhrase } from '../../src/protocol/multipart-reason-phrases.ts';

test('a code outside the table gets its class’s generic phrase', () => {
  assert.deepEqual(
    [199, 299, 399, 498, 599].map((status) => [status, reasonPhrase(status)]),
    [
      [199, 'Informational'],
      [299, 'Success'],
      [399, 'Redirection'],
      [498, 'Client Error'],
      [599, 'Server Error'],
    ],
  );
});

test('known codes keep their own phrase', () => {
  assert.equal(reasonPhrase(200), 'OK');
  assert.equal(reasonPhrase(503), 'Service Unavailable');
});
