/**
 * Resumable sessions that update a stored file (`PATCH /upload/…/files/:fileId?uploadType=resumable`): their URI is a
 * capability like a create session's, and a commit the service refuses ends the session instead of keeping its bytes
 * for a retry that can only be refused again.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { bytesOf } from './helpers/bytes.ts';
import { type ServiceHandle, startService } from './helpers/service.ts';

const BLOCK = 256 * 1024;
const BOB = 'dev-token-bob';

let svc: ServiceHandle;
before(async () => {
  svc = await startService();
});
after(() => svc.stop());

/** A stored file and an update session on it for `size` bytes; returns the file's ID and the session URI. */
async function updateSession(name: string, size: number): Promise<{ fileId: string; location: string }> {
  const made = await svc.api('POST', '/upload/store/v3/files?uploadType=media&fields=id', {
    body: 'first version',
    headers: { 'Content-Type': 'text/plain' },
  });
  assert.equal(made.status, 200, made.text);
  const fileId = (made.json() as { id: string }).id;
  const rename = await svc.api('PATCH', `/store/v3/files/${fileId}`, { body: { name } });
  assert.equal(rename.status, 200, rename.text);
  const start = await svc.api('PATCH', `/upload/store/v3/files/${fileId}?uploadType=resumable`, {
    body: {},
    headers: { 'X-Upload-Content-Length': String(size), 'X-Upload-Content-Type': 'application/octet-stream' },
  });
  assert.equal(start.status, 200, start.text);
  const location = String(start.headers.location);
  assert.ok(location.includes(`/files/${fileId}?`), location);
  return { fileId, location };
}

const statusQuery = (location: string, size: number) =>
  svc.api('PUT', location, { token: null, headers: { 'Content-Range': `bytes */${size}` } });

describe('update sessions', () => {
  it('an update session is cancelled by its URI alone, without a sign-in', async () => {
    const { fileId, location } = await updateSession('cancel-me.txt', 10);
    const cancelled = await svc.api('DELETE', location, { token: null });
    assert.equal(cancelled.status, 499, cancelled.text);
    assert.equal((await statusQuery(location, 10)).status, 404);
    const file = await svc.api('GET', `/store/v3/files/${fileId}?alt=media`);
    assert.equal(file.text, 'first version');
  });

  it('an update its owner may no longer make is refused at the commit, and its session is gone with its bytes', async () => {
    const size = 2 * BLOCK + 100;
    const bytes = bytesOf(size, 175);
    // Bob's file, Alice a writer of it: she starts an update and sends its first block.
    const made = await svc.api('POST', '/upload/store/v3/files?uploadType=media&fields=id', {
      token: BOB,
      body: 'bob wrote this',
      headers: { 'Content-Type': 'text/plain' },
    });
    assert.equal(made.status, 200, made.text);
    const fileId = (made.json() as { id: string }).id;
    const share = await svc.api('POST', `/store/v3/files/${fileId}/permissions?fields=id`, {
      token: BOB,
      body: { type: 'user', role: 'writer', emailAddress: 'alice@example.com' },
    });
    assert.equal(share.status, 200, share.text);
    const start = await svc.api('PATCH', `/upload/store/v3/files/${fileId}?uploadType=resumable`, {
      body: {},
      headers: { 'X-Upload-Content-Length': String(size), 'X-Upload-Content-Type': 'application/octet-stream' },
    });
    assert.equal(start.status, 200, start.text);
    const location = String(start.headers.location);
    const first = await svc.api('PUT', location, {
      token: null,
      body: bytes.subarray(0, BLOCK),
      headers: { 'Content-Range': `bytes 0-${BLOCK - 1}/${size}` },
    });
    assert.equal(first.status, 308, first.text);
    // Bob takes her access away: the commit of her last bytes checks it again, and refuses it.
    const permissionId = (share.json() as { id: string }).id;
    const revoke = await svc.api('DELETE', `/store/v3/files/${fileId}/permissions/${permissionId}`, { token: BOB });
    assert.equal(revoke.status, 204, revoke.text);
    const last = await svc.api('PUT', location, {
      token: null,
      body: bytes.subarray(BLOCK),
      headers: { 'Content-Range': `bytes ${BLOCK}-${size - 1}/${size}` },
    });
    assert.ok(last.status === 403 || last.status === 404, `${last.status} ${last.text}`);
    // Refused for good: a status query finds no session to resume, not the bytes kept for another try.
    const status = await statusQuery(location, size);
    assert.equal(status.status, 404, `${status.status} ${String(status.headers.range)} ${status.text}`);
    assert.equal(
      (status.json() as { error: { errors: { location?: string }[] } }).error.errors[0]?.location,
      'upload_id',
      `the session itself is not found, not its file again: ${status.text}`,
    );
    const file = await svc.api('GET', `/store/v3/files/${fileId}?alt=media`, { token: BOB });
    assert.equal(file.text, 'bob wrote this');
  });
});
