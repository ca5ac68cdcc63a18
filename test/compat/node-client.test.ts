/**
 * `@googleapis/drive` (Google's Node client, v3) against the real service.
 *
 * Why a proxy: the client builds every URL as `(rootUrl + '/drive/v3/…')` and media URLs as
 * `(rootUrl + '/upload/drive/v3/…')` (build/v3.js); the API-level `rootUrl` option only replaces the *origin* of
 * the non-media URL (googleapis-common apirequest.js: `new URL(path, rootUrl)` with the original absolute path), and
 * the per-call `rootUrl` option is concatenated in front of the fixed `/drive/v3` path. No option (`rootUrl`,
 * gaxios `baseURL`, which only applies to relative URLs) turns `drive/v3` into `store/v3`; a per-call `url` does
 * for calls without media, but media calls ignore it (the media URL wins). So most of this suite points the client
 * at its own loopback proxy (`path-proxy.ts`) that rewrites `/drive/v3`, `/upload/drive/v3` and `/batch/drive/v3`
 * to `/store/v3`; one test shows the in-process alternative, a gaxios request interceptor on the auth client.
 * Media calls also need the per-call `{ rootUrl }`: the API-level one does not reach the media URL.
 * The client has no resumable upload (only `uploadType=multipart` with metadata and `media` without), and
 * `auth` given as a string is sent as an API `key`, not a bearer token: an OAuth2 client carries the dev token.
 */
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import { auth, drive, type drive_v3 } from '@googleapis/drive';
import { type ServiceHandle, startService } from '../server/helpers/service.ts';
import { type PathProxy, startPathProxy } from './path-proxy.ts';

const md5 = (b: Buffer) => createHash('md5').update(b).digest('hex');
/** A GaxiosError's status and the reason of the service's JSON error body, as the client surfaces them. */
const failure = (err: any) => `${err.status} ${err.response?.data?.error?.errors?.[0]?.reason}`;

describe('@googleapis/drive against store-service (through a path-rewriting proxy)', { timeout: 120_000 }, () => {
  let svc: ServiceHandle;
  let proxy: PathProxy;
  let client: drive_v3.Drive;
  let rootUrl: string;
  before(async () => {
    svc = await startService();
    proxy = await startPathProxy(svc.url);
    rootUrl = `${proxy.url}/`;
    const oauth = new auth.OAuth2();
    oauth.setCredentials({ access_token: 'dev-token-alice' });
    client = drive({ version: 'v3', rootUrl, auth: oauth, retry: false });
  });
  after(async () => {
    await proxy.close();
    await svc.stop();
  });

  const stored = async (id: string) => {
    const r = await svc.api('GET', `/store/v3/files/${id}?alt=media`);
    assert.equal(r.status, 200);
    return r.body;
  };

  it('without the proxy the client asks for /drive/v3, which the service does not serve', async () => {
    const oauth = new auth.OAuth2();
    oauth.setCredentials({ access_token: 'dev-token-alice' });
    const direct = drive({ version: 'v3', rootUrl: `${svc.url}/`, auth: oauth, retry: false });
    await assert.rejects(direct.files.list({}), (err: any) => err.status === 404);
  });

  it('per-call `url` reaches /store/v3 for a call without media, but a media call ignores it (the media URL wins)', async () => {
    const oauth = new auth.OAuth2();
    oauth.setCredentials({ access_token: 'dev-token-alice' });
    const direct = drive({ version: 'v3', rootUrl, auth: oauth, retry: false });
    const listed = await direct.files.list({ fields: 'kind' }, { url: `${svc.url}/store/v3/files` });
    assert.deepEqual(listed.data, { kind: 'store#fileList' });
    const before = proxy.seen.length;
    await direct.files.create(
      { requestBody: { name: 'via-proxy.txt' }, media: { mimeType: 'text/plain', body: 'x' } },
      { rootUrl, url: `${svc.url}/upload/store/v3/files` },
    );
    assert.equal(proxy.seen.at(before)?.from.split('?')[0], '/upload/drive/v3/files', 'the per-call url was ignored');
  });

  it('without a proxy: a gaxios request interceptor on the auth client rewrites /drive/v3 (media calls included)', async () => {
    const oauth = new auth.OAuth2();
    oauth.setCredentials({ access_token: 'dev-token-alice' });
    oauth.transporter.interceptors.request.add({
      resolved: async (config) => {
        const url = new URL(String(config.url));
        url.pathname = url.pathname.replace(/^\/(upload\/|batch\/)?drive\/v3(?=\/|$)/, '/$1store/v3');
        return { ...config, url };
      },
    });
    const direct = drive({ version: 'v3', rootUrl: `${svc.url}/`, auth: oauth, retry: false });
    const data = Buffer.from('no proxy\r\n');
    const made = await direct.files.create(
      { requestBody: { name: 'interceptor.txt' }, media: { mimeType: 'text/plain', body: Readable.from([data]) } },
      { rootUrl: `${svc.url}/` },
    );
    assert.equal(made.status, 200);
    assert.ok((await stored(made.data.id as string)).equals(data));
    const got = await direct.files.get({ fileId: made.data.id as string, fields: 'name,md5Checksum' });
    assert.deepEqual(got.data, { name: 'interceptor.txt', md5Checksum: md5(data) });
  });

  it('auth as a string is an API key (key=…), so the service answers 401 Login Required', async () => {
    const keyed = drive({ version: 'v3', rootUrl, auth: 'dev-token-alice', retry: false });
    await assert.rejects(keyed.files.list({}), (err: any) => failure(err) === '401 required');
    assert.match(proxy.seen.at(-1)?.from ?? '', /[?&]key=dev-token-alice/);
  });

  it('files.create with media and metadata (multipart, CRLF-framed) stores the bytes; content ending in CR and CRLF kept', async () => {
    for (const data of [Buffer.from('one\r\ntwo\r'), Buffer.from('a\r\nb\r\n'), randomBytes(300_000)]) {
      const res = await client.files.create(
        {
          requestBody: { name: 'node.bin', mimeType: 'application/octet-stream' },
          media: { mimeType: 'application/octet-stream', body: Readable.from([data]) },
          fields: 'id,name,md5Checksum,size',
        },
        { rootUrl },
      );
      assert.equal(res.status, 200);
      assert.equal(res.data.md5Checksum, md5(data));
      assert.equal(res.data.size, String(data.length));
      assert.ok((await stored(res.data.id as string)).equals(data));
      const sent = proxy.seen.at(-1);
      assert.equal(sent?.to.split('?')[0], '/upload/store/v3/files');
      assert.match(sent?.to ?? '', /uploadType=multipart/);
      assert.match(sent?.contentType ?? '', /^multipart\/related; boundary=/);
    }
  });

  it('files.create with a string body and no metadata is a simple upload named Untitled', async () => {
    const res = await client.files.create({ media: { mimeType: 'text/plain', body: 'plain text\r' } }, { rootUrl });
    assert.equal(res.status, 200);
    assert.equal(res.data.name, 'Untitled');
    assert.equal(res.data.mimeType, 'text/plain');
    assert.equal((await stored(res.data.id as string)).toString(), 'plain text\r');
    assert.match(proxy.seen.at(-1)?.to ?? '', /uploadType=media/);
  });

  it('get with fields, list with q, metadata update, media update, get alt=media stream, delete', async () => {
    const created = await client.files.create(
      { requestBody: { name: 'node-crud.txt' }, media: { mimeType: 'text/plain', body: 'first' } },
      { rootUrl },
    );
    const id = created.data.id as string;

    const got = await client.files.get({ fileId: id, fields: 'id,name,md5Checksum' });
    assert.deepEqual(got.data, { id, name: 'node-crud.txt', md5Checksum: md5(Buffer.from('first')) });

    const listed = await client.files.list({
      q: "name = 'node-crud.txt' and trashed = false",
      fields: 'files(id,name)',
    });
    assert.deepEqual(listed.data, { files: [{ id, name: 'node-crud.txt' }] });

    const renamed = await client.files.update({
      fileId: id,
      requestBody: { name: 'renamed.txt' },
      fields: 'name,version',
    });
    assert.equal(renamed.data.name, 'renamed.txt');
    assert.equal(proxy.seen.at(-1)?.method, 'PATCH');

    const next = randomBytes(70_000);
    const replaced = await client.files.update(
      {
        fileId: id,
        media: { mimeType: 'application/octet-stream', body: Readable.from([next]) },
        fields: 'md5Checksum,size',
      },
      { rootUrl },
    );
    assert.equal(replaced.data.md5Checksum, md5(next));
    assert.equal(proxy.seen.at(-1)?.to.split('?')[0], `/upload/store/v3/files/${id}`);

    const stream = await client.files.get({ fileId: id, alt: 'media' }, { responseType: 'stream' });
    const chunks: Buffer[] = [];
    for await (const c of stream.data) chunks.push(Buffer.from(c));
    assert.ok(Buffer.concat(chunks).equals(next));

    const removed = await client.files.delete({ fileId: id });
    assert.equal(removed.status, 204);
    await assert.rejects(client.files.get({ fileId: id }), (err: any) => failure(err) === '404 notFound');
  });

  it('files.update with metadata and media is a PATCH multipart upload; a conversion exports back as a stream', async () => {
    const created = await client.files.create(
      { requestBody: { name: 'both.txt' }, media: { mimeType: 'text/plain', body: 'old' } },
      { rootUrl },
    );
    const id = created.data.id as string;
    const updated = await client.files.update(
      {
        fileId: id,
        requestBody: { name: 'both-renamed.txt' },
        media: { mimeType: 'text/plain', body: 'new content\r\n' },
        fields: 'name,md5Checksum,version',
      },
      { rootUrl },
    );
    assert.equal(updated.data.name, 'both-renamed.txt');
    assert.equal(updated.data.md5Checksum, md5(Buffer.from('new content\r\n')));
    assert.equal(proxy.seen.at(-1)?.method, 'PATCH');
    assert.match(proxy.seen.at(-1)?.to ?? '', new RegExp(`^/upload/store/v3/files/${id}\\?.*uploadType=multipart`));

    const csv = 'a,b\r\n1,2\r\n';
    const sheet = await client.files.create(
      {
        requestBody: { name: 'sheet', mimeType: 'application/vnd.svc-apps.spreadsheet' },
        media: { mimeType: 'text/csv', body: csv },
      },
      { rootUrl },
    );
    assert.equal(sheet.data.mimeType, 'application/vnd.svc-apps.spreadsheet');
    const exported = await client.files.export(
      { fileId: sheet.data.id as string, mimeType: 'text/csv' },
      { responseType: 'stream' },
    );
    let text = '';
    for await (const c of exported.data) text += Buffer.from(c).toString();
    assert.equal(text.replace(/\r\n/g, '\n'), 'a,b\n1,2\n');
  });

  it('generateIds, create with a pre-generated id, 409 on the retry; about, change log and watch errors', async () => {
    const ids = await client.files.generateIds({ count: 1, space: 'drive', type: 'files' });
    assert.equal(ids.data.kind, 'store#generatedIds');
    const id = ids.data.ids?.[0] as string;
    const made = await client.files.create({ requestBody: { id, name: 'pre.txt' }, fields: 'id' });
    assert.equal(made.data.id, id);
    await assert.rejects(
      client.files.create({ requestBody: { id, name: 'pre.txt' } }),
      (err: any) => failure(err) === '409 fileIdInUse',
    );

    const about = await client.about.get({ fields: 'kind,user(emailAddress)' });
    assert.deepEqual(about.data, { kind: 'store#about', user: { emailAddress: 'alice@example.com' } });
    const start = await client.changes.getStartPageToken({});
    assert.equal(start.data.kind, 'store#startPageToken');
    await client.files.update({ fileId: id, requestBody: { name: 'pre-renamed.txt' } });
    const changes = await client.changes.list({ pageToken: start.data.startPageToken as string });
    assert.equal(changes.data.kind, 'store#changeList');
    assert.deepEqual(
      changes.data.changes?.map((c) => [c.fileId, c.file?.name]),
      [[id, 'pre-renamed.txt']],
    );

    const channel = { id: 'node-compat-1', type: 'web_hook', address: 'http://example.com/hook' };
    await assert.rejects(
      client.files.watch({ fileId: id, requestBody: channel }),
      (err: any) => failure(err) === '400 push.webhookUrlNotHttps',
    );
    await assert.rejects(
      client.channels.stop({ requestBody: { id: 'nope', resourceId: 'nope' } }),
      (err: any) => failure(err) === '404 notFound',
    );
  });

  it('permissions.create shares a file; the share is visible to the grantee', async () => {
    const created = await client.files.create(
      { requestBody: { name: 'shared.txt' }, media: { mimeType: 'text/plain', body: 'shared' } },
      { rootUrl },
    );
    const id = created.data.id as string;
    const perm = await client.permissions.create({
      fileId: id,
      requestBody: { type: 'user', role: 'reader', emailAddress: 'bob@example.com' },
      fields: 'id',
      sendNotificationEmail: false,
    });
    assert.equal(perm.status, 200);
    assert.deepEqual(Object.keys(perm.data), ['id']);
    const asBob = await svc.api('GET', `/store/v3/files/${id}?fields=id`, { token: 'dev-token-bob' });
    assert.equal(asBob.status, 200);
  });
});
