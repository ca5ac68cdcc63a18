/**
 * The body of a permission create (`POST /files/{id}/permissions`): each wrong or missing field is a 400 whose reason,
 * message and location name that field and what it must be, and a refused body grants nothing.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type ServiceHandle, startService } from './helpers/service.ts';

let svc: ServiceHandle;
let fileId: string;
before(async () => {
  svc = await startService();
  const made = await svc.api('POST', '/store/v3/files?fields=id', { body: { name: 'to-share.txt' } });
  assert.equal(made.status, 200, made.text);
  fileId = (made.json() as { id: string }).id;
});
after(() => svc.stop());

interface ErrorBody {
  error: { code: number; message: string; errors: { reason: string; location?: string; locationType?: string }[] };
}

/** The 400 a permission body gets: [reason, message, location, locationType]. */
async function refusal(body: unknown): Promise<[string, string, string?, string?]> {
  const r = await svc.api('POST', `/store/v3/files/${fileId}/permissions`, {
    body: JSON.stringify(body),
    headers: { 'Content-Type': 'application/json' },
  });
  assert.equal(r.status, 400, r.text);
  const { message, errors } = (r.json() as ErrorBody).error;
  const [first] = errors;
  return [first?.reason ?? '', message, first?.location, first?.locationType];
}

describe('a permission body', () => {
  it('without a role: required, naming permission.role', async () => {
    assert.deepEqual(await refusal({ type: 'user', emailAddress: 'gina@example.com' }), [
      'required',
      'The permission role field is required.',
      'permission.role',
      'body',
    ]);
  });

  it('with a role or a type the service does not grant: invalid, listing the supported ones', async () => {
    const [reason, message, location] = await refusal({
      type: 'user',
      role: 'admin',
      emailAddress: 'gina@example.com',
    });
    assert.deepEqual([reason, location], ['invalidParameter', 'permission.role']);
    assert.match(message, /^Invalid permission role: "admin" is not supported; expected one of: .*\bwriter\b/);
    const [typeReason, typeMessage, typeLocation] = await refusal({ type: 'group', role: 'reader' });
    assert.deepEqual([typeReason, typeLocation], ['invalidParameter', 'permission.type']);
    assert.match(typeMessage, /^Invalid permission type: "group" is not supported; expected one of: .*\buser\b/);
    const [numberReason, , numberLocation] = await refusal({ type: 'user', role: 4, emailAddress: 'gina@example.com' });
    assert.deepEqual([numberReason, numberLocation], ['invalidParameter', 'permission.role']);
  });

  it('of a user without an e-mail address: required, naming permission.emailAddress', async () => {
    assert.deepEqual(await refusal({ type: 'user', role: 'reader' }), [
      'required',
      'The permission emailAddress field is required for a user permission.',
      'permission.emailAddress',
      'body',
    ]);
    assert.deepEqual((await refusal({ type: 'user', role: 'reader', emailAddress: 7 })).slice(0, 3), [
      'invalidParameter',
      'Invalid permission emailAddress: 7 is not a string.',
      'permission.emailAddress',
    ]);
  });

  it('that is no object: required, naming the permission', async () => {
    for (const body of [['user', 'reader'], 'user reader', 5]) {
      const [reason, , location] = await refusal(body);
      assert.deepEqual([reason, location], ['required', 'permission'], JSON.stringify(body));
    }
  });

  it('refused grants nothing: only the owner holds the file', async () => {
    const listed = await svc.api('GET', `/store/v3/files/${fileId}/permissions?fields=permissions(role,emailAddress)`);
    assert.deepEqual((listed.json() as { permissions: unknown[] }).permissions, [
      { role: 'owner', emailAddress: 'alice@example.com' },
    ]);
  });
});
