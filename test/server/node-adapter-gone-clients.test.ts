/**
 * The Node listener's last steps (`server/http/node-adapter.ts`, `server/http/transport.ts`) over `--https`: an
 * HTTP/2 answer with a status the service names itself (308 Resume Incomplete) is sent without a reason phrase, so
 * Node has nothing to warn about; and an answer whose client is gone (an admin cut, over HTTP/2 and HTTP/1.1, or
 * a download reset while the service held it) is dropped quietly: nothing in the service's log, no file left open. Each check failed once against a planted mutant of the line
 * it guards (issue 39).
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { connect, constants, type ClientHttp2Session } from 'node:http2';
import { request as httpsRequest, type RequestOptions } from 'node:https';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { type ServiceHandle, startService } from './helpers/service.ts';

let svc: ServiceHandle;
let ca: string;
let session: ClientHttp2Session;
const AUTH = { authorization: 'Bearer dev-token-alice' };

before(async () => {
  svc = await startService({ args: ['--https'] });
  ca = readFileSync(join(svc.dataDir, 'tls', 'ca.pem'), 'utf8');
  session = connect(svc.url, { ca });
});
after(async () => {
  session.destroy();
  await svc.stop();
});

type Answer = { status: number; headers: Record<string, unknown>; body: Buffer; error?: Error };

function h2(headers: Record<string, string>, body?: Buffer | string): Promise<Answer> {
  return new Promise((resolve) => {
    const stream = session.request({ ...AUTH, ...headers }, { endStream: body === undefined });
    let answer: Answer = { status: 0, headers: {}, body: Buffer.alloc(0) };
    const chunks: Buffer[] = [];
    stream.on('response', (h) => (answer = { ...answer, status: Number(h[':status']), headers: h }));
    stream.on('data', (c: Buffer) => chunks.push(c));
    stream.on('end', () => resolve({ ...answer, body: Buffer.concat(chunks) }));
    stream.on('error', (error: Error) => resolve({ ...answer, error }));
    if (body !== undefined) stream.end(body);
  });
}

/** A few round trips, so whatever the service did for the requests before them is done and logged. */
async function settle(): Promise<void> {
  for (let i = 0; i < 3; i++) {
    assert.equal((await h2({ ':method': 'GET', ':path': '/store/v3/about?fields=kind' })).status, 200);
  }
}

async function cutNextMediaUpload(): Promise<void> {
  const add = await h2(
    { ':method': 'POST', ':path': '/__admin/faults', 'content-type': 'application/json' },
    JSON.stringify({ match: { uploadType: 'media' }, action: { type: 'cut', afterBytes: 1000 }, times: 1 }),
  );
  assert.equal(add.status, 200, add.body.toString());
}

test('over HTTP/2 a 308 is sent as a bare status: the service warns of nothing', async () => {
  const from = svc.stderr.length;
  const start = await h2(
    {
      ':method': 'POST',
      ':path': '/upload/store/v3/files?uploadType=resumable',
      'content-type': 'application/json',
      'x-upload-content-length': '100',
    },
    JSON.stringify({ name: 'resumed.bin' }),
  );
  assert.equal(start.status, 200, start.body.toString());
  const location = new URL(String(start.headers.location));
  const status = await h2({
    ':method': 'PUT',
    ':path': location.pathname + location.search,
    'content-range': 'bytes */100',
    'content-length': '0',
  });
  assert.equal(status.status, 308, status.body.toString());
  await settle();
  assert.doesNotMatch(svc.stderr.slice(from), /Warning/);
});

test('an HTTP/2 request cut by the admin leaves nothing in the log', async () => {
  const from = svc.stderr.length;
  await cutNextMediaUpload();
  const cut = await h2(
    { ':method': 'POST', ':path': '/upload/store/v3/files?uploadType=media', 'content-type': 'text/plain' },
    Buffer.alloc(200_000, 0x61),
  );
  assert.equal((cut.error as NodeJS.ErrnoException | undefined)?.code, 'ERR_HTTP2_STREAM_ERROR');
  await settle();
  assert.doesNotMatch(svc.stderr.slice(from), /could not answer|Error/);
});

test('an HTTP/1.1 request cut by the admin leaves nothing in the log', async () => {
  const from = svc.stderr.length;
  await cutNextMediaUpload();
  const outcome = await new Promise<string>((resolve) => {
    const req = httpsRequest(
      `${svc.url}/upload/store/v3/files?uploadType=media`,
      {
        method: 'POST',
        ca,
        ALPNProtocols: ['http/1.1'],
        headers: { ...AUTH, 'content-type': 'text/plain', 'content-length': '200000' },
      } as RequestOptions,
      (res) => {
        res.resume();
        res.on('end', () => resolve(`answered ${res.statusCode}`));
      },
    );
    req.on('error', (e: NodeJS.ErrnoException) => resolve(`cut: ${e.code}`));
    req.end(Buffer.alloc(200_000, 0x61));
  });
  assert.match(outcome, /^cut: /);
  await settle();
  assert.doesNotMatch(svc.stderr.slice(from), /could not answer|Error/);
});

test('an HTTP/2 download whose client reset it while the service waited leaves nothing in the log and no file open', async () => {
  const up = await h2(
    { ':method': 'POST', ':path': '/upload/store/v3/files?uploadType=media&fields=id', 'content-type': 'text/plain' },
    Buffer.alloc(300_000, 0x62),
  );
  assert.equal(up.status, 200, up.body.toString());
  const id = (JSON.parse(up.body.toString()) as { id: string }).id;
  const from = svc.stderr.length;
  const add = await h2(
    { ':method': 'POST', ':path': '/__admin/faults', 'content-type': 'application/json' },
    JSON.stringify([
      { match: { method: 'GET', pathPrefix: `/store/v3/files/${id}` }, action: { type: 'delay', ms: 1000 }, times: 1 },
      // Held longer than the download: once it is answered, the download's own answer has been dealt with.
      { match: { method: 'GET', pathPrefix: '/store/v3/about' }, action: { type: 'delay', ms: 3000 }, times: 1 },
    ]),
  );
  assert.equal(add.status, 200, add.body.toString());
  const download = session.request({ ...AUTH, ':method': 'GET', ':path': `/store/v3/files/${id}?alt=media` });
  download.on('error', () => undefined);
  download.resume();
  // The service has the request once its delay is claimed: the fault has no use left and is no longer listed.
  for (;;) {
    const listed = await h2({ ':method': 'GET', ':path': '/__admin/faults' });
    const faults = (JSON.parse(listed.body.toString()) as { faults: { match: { pathPrefix?: string } }[] }).faults;
    if (!faults.some((f) => f.match.pathPrefix === `/store/v3/files/${id}`)) break;
  }
  download.close(constants.NGHTTP2_CANCEL);
  assert.equal((await h2({ ':method': 'GET', ':path': '/store/v3/about?fields=kind' })).status, 200);
  await settle();
  assert.doesNotMatch(svc.stderr.slice(from), /could not answer|Error/);
  // Nor is the file it would have sent left open (the service's own descriptors, Linux).
  const open = readdirSync(`/proc/${svc.pid}/fd`).flatMap((fd) => {
    try {
      return [readlinkSync(`/proc/${svc.pid}/fd/${fd}`)];
    } catch {
      return [];
    }
  });
  assert.deepEqual(
    open.filter((path) => path.startsWith(join(svc.dataDir, 'content'))),
    [],
    'no stored content held open',
  );
});
