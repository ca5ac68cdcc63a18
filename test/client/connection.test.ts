// The upload worker's client keeps its token until a 401 (`reuseToken`), and a refreshed token becomes a proven one
// once the service accepts a request made with it: a later sign-out of that token then asks the app again, at the
// real reference service (tokens issued and revoked at run time).
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, test } from 'node:test';
import { createUploadClient } from '../../src/client/index.ts';
import { startService, type ServiceHandle } from '../server/helpers/service.ts';
import { grantToken, revokeToken } from './helpers/accounts.ts';

let service: ServiceHandle;
before(async () => {
  service = await startService();
});
after(async () => {
  await service.stop();
});

test('a refreshed token the service accepted is refreshed again when it is later refused: each 401 streak asks once', async () => {
  const [first, second, third] = [1, 2, 3].map((n) => `alice-${n}-${randomUUID()}`);
  for (const token of [first!, second!, third!]) await grantToken(service.url, token, 'alice@example.com');
  await revokeToken(service.url, first!); // the app's first answer is already signed out
  const given: string[] = [];
  const tokens = [first!, second!, third!];
  const client = createUploadClient({
    baseUrl: service.url,
    getAccessToken: () => {
      const token = tokens[given.length]!;
      given.push(token);
      return token;
    },
  });

  // 401 on the first token, asked again, accepted with the second.
  assert.equal((await client.generateIds(1)).length, 1);
  assert.deepEqual(given, [first, second]);
  assert.equal((await client.generateIds(1)).length, 1, 'the accepted token is kept');
  assert.deepEqual(given, [first, second]);

  // The second, proven by the answers above, is signed out: the next call asks once more and goes through.
  await revokeToken(service.url, second!);
  assert.equal((await client.generateIds(2)).length, 2);
  assert.deepEqual(given, [first, second, third]);
  assert.equal(await client.accessToken(), third);
});
