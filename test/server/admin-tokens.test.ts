/** `/__admin/tokens`: a token issued at run time works at once; a revoked one gets 401 everywhere, as at a sign-out. */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type ServiceHandle, startService } from './helpers/service.ts';

let svc: ServiceHandle;
before(async () => {
  svc = await startService();
});
after(() => svc.stop());

describe('admin tokens', () => {
  it('issues a token for a new account, then revokes it: 401 on the API and on uploads', async () => {
    const issued = await svc.api('POST', '/__admin/tokens', {
      token: null,
      body: { token: 'tok-dana', user: 'dana@example.com' },
    });
    assert.equal(issued.status, 201);
    const about = await svc.api('GET', '/store/v3/about?fields=user', { token: 'tok-dana' });
    assert.equal(about.status, 200);
    assert.equal(about.json().user.emailAddress, 'dana@example.com');

    assert.equal((await svc.api('DELETE', '/__admin/tokens/tok-dana', { token: null })).status, 204);
    const after = await svc.api('GET', '/store/v3/about?fields=user', { token: 'tok-dana' });
    assert.equal(after.status, 401);
    assert.equal(after.json().error.errors[0].reason, 'authError');
    const upload = await svc.api('POST', '/upload/store/v3/files?uploadType=media', {
      token: 'tok-dana',
      headers: { 'Content-Type': 'text/plain' },
      body: 'hello',
    });
    assert.equal(upload.status, 401);
    // Another account's token is untouched.
    assert.equal((await svc.api('GET', '/store/v3/about?fields=user')).status, 200);
  });

  it('answers 404 for a token that is not valid and 400 for a malformed grant', async () => {
    const gone = await svc.api('DELETE', '/__admin/tokens/never-issued', { token: null });
    assert.equal(gone.status, 404);
    assert.match(gone.json().error.message, /never-issued/);
    const bad = await svc.api('POST', '/__admin/tokens', { token: null, body: { token: 'a b', user: 'x' } });
    assert.equal(bad.status, 400);
    assert.match(bad.json().error.message, /"token"/);
  });

  it('names a token’s user by the displayName it was issued with, else by the local part of its address', async () => {
    const grants = [
      { token: 'tok-named', user: 'Erin.Vale@example.com', displayName: 'Erin V.' },
      { token: 'tok-unnamed', user: 'Erin.Vale@example.com' },
    ];
    for (const grant of grants)
      assert.equal((await svc.api('POST', '/__admin/tokens', { token: null, body: grant })).status, 201);
    const named = await svc.api('GET', '/store/v3/about?fields=user(displayName,emailAddress)', { token: 'tok-named' });
    assert.deepEqual(named.json(), { user: { displayName: 'Erin V.', emailAddress: 'erin.vale@example.com' } });
    const unnamed = await svc.api('GET', '/store/v3/about?fields=user(displayName,emailAddress)', {
      token: 'tok-unnamed',
    });
    assert.deepEqual(unnamed.json(), { user: { displayName: 'Erin.Vale', emailAddress: 'erin.vale@example.com' } });
  });

  it('answers 400 naming the field for a grant whose client, serviceAccount or displayName has the wrong type', async () => {
    const grant = { token: 'tok-typed', user: 'typed@example.com' };
    for (const body of [
      { ...grant, client: 7 },
      { ...grant, serviceAccount: 'yes' },
    ]) {
      const r = await svc.api('POST', '/__admin/tokens', { token: null, body });
      assert.equal(r.status, 400, r.text);
      assert.equal(r.json().error.message, '"client" must be a string and "serviceAccount" a boolean.');
    }
    const named = await svc.api('POST', '/__admin/tokens', { token: null, body: { ...grant, displayName: 42 } });
    assert.equal(named.status, 400, named.text);
    assert.equal(named.json().error.message, '"displayName" must be a string.');
    // None of them issued the token.
    assert.equal((await svc.api('GET', '/store/v3/about', { token: 'tok-typed' })).status, 401);
  });

  it('revokes a configured development token too', async () => {
    assert.equal((await svc.api('DELETE', '/__admin/tokens/dev-token-carol', { token: null })).status, 204);
    assert.equal((await svc.api('GET', '/store/v3/about', { token: 'dev-token-carol' })).status, 401);
  });
});
