/**
 * A provider's `sub` is the person's permission ID (issue 37): `about`, the owner of a file made through a resumable
 * upload (its commit rebuilds the owner from the session row) and its owner permission carry it, and a share by
 * address carries the ID of the person the service has seen with that address — the service in `auth.mode: "jwt"`
 * against a real OpenID provider's keys.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { JWTPayload } from 'jose';
import { startService, type ServiceHandle } from './helpers/service.ts';
import { AUDIENCE, startProvider, type TestProvider } from './helpers/oidc-provider.ts';
import { signWith } from './helpers/bearer-checks.ts';
import { permissionIdFor } from '../../server/store/ids.ts';

describe("a provider's sub as the permission ID", () => {
  let provider: TestProvider;
  let svc: ServiceHandle;
  const now = () => Math.floor(Date.now() / 1000);
  const tokenOf = (sub: string, email: string, over: JWTPayload = {}) =>
    signWith(provider.keys[0], {
      iss: provider.issuer,
      aud: AUDIENCE,
      sub,
      client_id: 'store-app',
      email,
      iat: now(),
      exp: now() + 600,
      ...over,
    });
  const aboutId = async (token: string): Promise<string> => {
    const r = await svc.api('GET', '/store/v3/about?fields=user(permissionId)', { token });
    assert.equal(r.status, 200, r.text);
    return r.json<{ user: { permissionId: string } }>().user.permissionId;
  };

  before(async () => {
    provider = await startProvider();
    svc = await startService({
      config: { trustCa: [provider.caFile], auth: { mode: 'jwt', issuer: provider.issuer, audience: AUDIENCE } },
    });
  });
  after(async () => {
    await svc.stop();
    await provider.close();
  });

  test("about's permissionId follows sub, not the address", async () => {
    const first = await aboutId(await tokenOf('sub-dana', 'dana@example.com'));
    assert.match(first, /^\d+$/);
    assert.notEqual(first, permissionIdFor('user', 'dana@example.com'));
    // A refreshed token of the same person: the same ID.
    assert.equal(await aboutId(await tokenOf('sub-dana', 'dana@example.com', { iat: now() - 5 })), first);
    // Another subject of the provider with that address is another person.
    assert.notEqual(await aboutId(await tokenOf('sub-someone-else', 'dana@example.com')), first);
  });

  test("a resumable upload's file is owned under the session owner's sub, and a share by address takes the seen ID", async () => {
    const erin = await tokenOf('sub-erin', 'erin@example.com');
    const erinId = await aboutId(erin);
    const frankId = await aboutId(await tokenOf('sub-frank', 'frank@example.com'));
    const bytes = Buffer.from('bytes under a provider subject\n');
    const start = await svc.api('POST', '/upload/store/v3/files?uploadType=resumable', {
      token: erin,
      headers: { 'x-upload-content-type': 'text/plain', 'x-upload-content-length': String(bytes.length) },
      body: { name: 'subject.txt' },
    });
    assert.equal(start.status, 200, start.text);
    const location = String(start.headers.location);
    const done = await svc.api('PUT', `${location}&fields=id,owners,permissions`, { token: erin, body: bytes });
    assert.equal(done.status, 200, done.text);
    const file = done.json<{ id: string; owners: { permissionId: string }[]; permissions: { id: string }[] }>();
    assert.equal(file.owners[0].permissionId, erinId);
    assert.deepEqual(
      file.permissions.map((p) => p.id),
      [erinId],
    );

    const share = (emailAddress: string) =>
      svc.api('POST', `/store/v3/files/${file.id}/permissions`, {
        token: erin,
        body: { type: 'user', role: 'reader', emailAddress },
      });
    const toFrank = await share('Frank@example.com');
    assert.equal(toFrank.status, 200, toFrank.text);
    assert.equal(toFrank.json<{ id: string }>().id, frankId);
    const toStranger = await share('grace@example.com');
    assert.equal(toStranger.status, 200, toStranger.text);
    assert.equal(toStranger.json<{ id: string }>().id, permissionIdFor('user', 'grace@example.com'));
  });
});
