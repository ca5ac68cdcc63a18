// The paths the kit and the service share (`src/protocol/routes.ts`, public in `store-upload-kit/protocol`): every
// ID goes in URL-encoded, so an ID with a slash, a space or a `?` names one resource and never another path; and a
// path made here is one the real service answers.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import {
  fileExportPath,
  filePath,
  fileWatchPath,
  permissionPath,
  permissionsPath,
  sessionPath,
  uploadFilePath,
} from '../../src/protocol/index.ts';
import { startService, type ServiceHandle } from '../server/helpers/service.ts';

const ODD = 'a/b c?d#e';
const ENC = 'a%2Fb%20c%3Fd%23e';

test('every path builder encodes the IDs it is given', () => {
  assert.equal(filePath(ODD), `/store/v3/files/${ENC}`);
  assert.equal(uploadFilePath(ODD), `/upload/store/v3/files/${ENC}`);
  assert.equal(permissionsPath(ODD), `/store/v3/files/${ENC}/permissions`);
  assert.equal(permissionPath(ODD, 'p/1'), `/store/v3/files/${ENC}/permissions/p%2F1`);
  assert.equal(fileWatchPath(ODD), `/store/v3/files/${ENC}/watch`);
  assert.equal(fileExportPath(ODD), `/store/v3/files/${ENC}/export`);
  assert.equal(sessionPath('u&1'), '/upload/store/v3/files?uploadType=resumable&upload_id=u%261');
  assert.equal(sessionPath('u1', ODD), `/upload/store/v3/files/${ENC}?uploadType=resumable&upload_id=u1`);
});

let service: ServiceHandle;
before(async () => {
  service = await startService();
});
after(async () => {
  await service.stop();
});

test("a permission's own path reaches it: read, then delete, through the paths made here", async () => {
  const file = await service.api('POST', '/store/v3/files', { body: { name: 'shared.txt' } });
  const { id } = file.json() as { id: string };
  const made = await service.api('POST', permissionsPath(id), {
    body: { type: 'user', role: 'reader', emailAddress: 'bob@example.com' },
  });
  assert.equal(made.status, 200, made.text);
  const { id: permissionId } = made.json() as { id: string };
  const read = await service.api('GET', permissionPath(id, permissionId));
  assert.equal(read.status, 200, read.text);
  assert.equal((read.json() as { role: string }).role, 'reader');
  assert.equal((await service.api('DELETE', permissionPath(id, permissionId))).status, 204);
  assert.equal((await service.api('GET', permissionPath(id, permissionId))).status, 404);
});
