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

  it('of a user whose address is not one, or a domain that is not a name: invalid, quoting it', async () => {
    for (const email of ['gina', 'gina@example', 'gi na@example.com', 'a@b@example.com', 'gina@example.com extra']) {
      assert.deepEqual((await refusal({ type: 'user', role: 'reader', emailAddress: email })).slice(0, 3), [
        'invalidParameter',
        `Invalid permission emailAddress: "${email}" is not an e-mail address.`,
        'permission.emailAddress',
      ]);
    }
    for (const domain of [
      'example',
      '-bad.example',
      'exa_mple.com',
      `${'a'.repeat(64)}.com`,
      'example.c',
      `${`${'a'.repeat(60)}.`.repeat(5)}com`,
    ]) {
      assert.deepEqual((await refusal({ type: 'domain', role: 'reader', domain })).slice(0, 3), [
        'invalidParameter',
        `Invalid permission domain: "${domain}" is not a domain name.`,
        'permission.domain',
      ]);
    }
    assert.deepEqual(await refusal({ type: 'domain', role: 'reader' }), [
      'required',
      'The permission domain field is required for a domain permission.',
      'permission.domain',
      'body',
    ]);
    assert.deepEqual(await refusal({ type: 'user', role: 'reader', emailAddress: '' }), [
      'required',
      'The permission emailAddress field is required for a user permission.',
      'permission.emailAddress',
      'body',
    ]);
    assert.deepEqual(await refusal({ type: '', role: 'reader' }), [
      'required',
      'The permission type field is required.',
      'permission.type',
      'body',
    ]);
    assert.deepEqual(await refusal({ role: 'reader' }), [
      'required',
      'The permission type field is required.',
      'permission.type',
      'body',
    ]);
  });

  it('with sendNotificationEmail other than true or false: invalid, quoting it', async () => {
    const r = await svc.api('POST', `/store/v3/files/${fileId}/permissions?sendNotificationEmail=1`, {
      body: { type: 'user', role: 'reader', emailAddress: 'gina@example.com' },
    });
    assert.equal(r.status, 400, r.text);
    assert.equal(
      (r.json() as ErrorBody).error.message,
      'Invalid value for sendNotificationEmail: "1" (expected true or false).',
    );
  });

  it('a permission id the file does not have is a 404 naming it', async () => {
    const r = await svc.api('GET', `/store/v3/files/${fileId}/permissions/nobody-here`);
    assert.equal(r.status, 404, r.text);
    const body = r.json() as ErrorBody;
    assert.equal(body.error.message, 'Permission not found: nobody-here.');
    assert.deepEqual(body.error.errors[0], {
      ...body.error.errors[0],
      location: 'permissionId',
      locationType: 'parameter',
    });
  });

  it('refused grants nothing: only the owner holds the file', async () => {
    const listed = await svc.api('GET', `/store/v3/files/${fileId}/permissions?fields=permissions(role,emailAddress)`);
    assert.deepEqual((listed.json() as { permissions: unknown[] }).permissions, [
      { role: 'owner', emailAddress: 'alice@example.com' },
    ]);
  });
});

describe('a permission body that is taken', () => {
  it('is read without case or blanks: the address and the domain are kept in lower case', async () => {
    const made = await svc.api('POST', '/store/v3/files?fields=id', { body: { name: 'shared-widely.txt' } });
    const id = (made.json() as { id: string }).id;
    for (const [body, expected] of [
      [{ type: 'user', role: 'writer', emailAddress: '  Gina@Example.COM ' }, { emailAddress: 'gina@example.com' }],
      [{ type: 'domain', role: 'reader', domain: 'Partner.Example.org' }, { domain: 'partner.example.org' }],
    ] as const) {
      const r = await svc.api('POST', `/store/v3/files/${id}/permissions?fields=type,role,emailAddress,domain`, {
        body,
      });
      assert.equal(r.status, 200, r.text);
      assert.deepEqual(r.json(), { type: body.type, role: body.role, ...expected });
    }
    const quiet = await svc.api('POST', `/store/v3/files/${id}/permissions?sendNotificationEmail=false&fields=role`, {
      body: { type: 'user', role: 'reader', emailAddress: 'hal@example.com' },
    });
    assert.equal(quiet.status, 200, quiet.text);
  });
});
