/**
 * Interrupted uploads: a connection cut mid-body (admin fault and a raw socket) and kill -9 of the service keep
 * every whole 256 KiB block received; the upload then resumes to a byte-identical file.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, it } from 'node:test';
import { bytesOf } from './helpers/bytes.ts';
import { type ServiceHandle, startService } from './helpers/service.ts';

const BLOCK = 256 * 1024;
let svc: ServiceHandle;
before(async () => {
  svc = await startService();
});
after(() => svc.stop());

const md5 = (b: Uint8Array) => createHash('md5').update(b).digest('hex');

async function startSession(): Promise<{ uri: string; id: string }> {
  const r = await svc.api('POST', '/upload/store/v3/files?uploadType=resumable', { body: { name: 'cut.bin' } });
  assert.equal(r.status, 200);
  return { uri: r.headers.location as string, id: r.headers['x-svc-upload-id'] as string };
}

/** Waits until the session's part file holds at least `size` bytes (the service has written them). */
async function waitForPart(id: string, size: number): Promise<void> {
  const path = join(svc.dataDir, 'sessions', `${id}.part`);
  await until(() => existsSync(path) && statSync(path).size >= size, `part file of ${id} to reach ${size} bytes`);
}

/** Polls a condition on the service's data directory (a state, not a time) until it holds; fails after 30 s. */
async function until(condition: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    // eslint-disable-next-line no-restricted-syntax -- time-wait: the poll interval of a state check on disk; the service offers no event for it.
    await sleep(10);
  }
}

async function status(uri: string, total: number | '*' = '*') {
  return svc.api('PUT', uri, { token: null, body: '', headers: { 'Content-Range': `bytes */${total}` } });
}

async function resumeAndCheck(uri: string, data: Buffer, stored: number) {
  const r = await svc.api('PUT', uri, {
    token: null,
    body: data.subarray(stored),
    headers: { 'Content-Range': `bytes ${stored}-${data.length - 1}/${data.length}` },
  });
  assert.equal(r.status, 200, r.text);
  const f = r.json();
  assert.equal(f.md5Checksum, md5(data));
  assert.equal(f.size, String(data.length));
  const d = await svc.api('GET', `/store/v3/files/${f.id}?alt=media`);
  assert.ok(d.body.equals(data), 'download is byte-identical');
}

/** Opens a raw socket, sends a PUT declaring the whole file, writes `send` bytes, and returns the socket. */
function rawPut(uri: string, total: number, body: Buffer) {
  const url = new URL(uri);
  const socket = connect(Number(url.port), url.hostname);
  socket.on('error', () => undefined);
  socket.write(`PUT ${url.pathname}${url.search} HTTP/1.1\r\nHost: ${url.host}\r\nContent-Length: ${total}\r\n\r\n`);
  socket.write(body);
  return socket;
}

describe('cut connections', () => {
  it('admin cut fault: keeps whole blocks, then resumes byte-identical', async () => {
    const data = bytesOf(BLOCK * 4 + 123);
    const { uri } = await startSession();
    const fault = await svc.api('POST', '/__admin/faults', {
      token: null,
      body: {
        match: { method: 'PUT', uploadType: 'resumable' },
        action: { type: 'cut', afterBytes: BLOCK * 2 + 5000 },
      },
    });
    assert.equal(fault.status, 200);
    await assert.rejects(svc.api('PUT', uri, { token: null, body: data }));
    const s = await status(uri);
    assert.equal(s.status, 308);
    assert.equal(s.headers.range, `bytes=0-${BLOCK * 2 - 1}`);
    await resumeAndCheck(uri, data, BLOCK * 2);
  });

  it('raw socket closed mid-body: keeps whole blocks, then resumes', async () => {
    const data = bytesOf(BLOCK * 3 + 10, 9);
    const { uri, id } = await startSession();
    const socket = rawPut(uri, data.length, data.subarray(0, BLOCK + 100));
    await waitForPart(id, BLOCK);
    socket.destroy();
    // The status query waits for the cut request to finish (one lock per session).
    let s = await status(uri);
    assert.equal(s.status, 308);
    assert.equal(s.headers.range, `bytes=0-${BLOCK - 1}`);
    s = await status(uri, data.length);
    assert.equal(s.headers.range, `bytes=0-${BLOCK - 1}`);
    await resumeAndCheck(uri, data, BLOCK);
  });

  it('a simple upload cut mid-body creates nothing', async () => {
    const before = (await svc.api('GET', '/store/v3/files?pageSize=1000&fields=files(id)')).json().files.length;
    const url = new URL(`${svc.url}/upload/store/v3/files?uploadType=media`);
    const socket = connect(Number(url.port), url.hostname);
    socket.on('error', () => undefined);
    socket.write(
      `POST ${url.pathname}${url.search} HTTP/1.1\r\nHost: ${url.host}\r\nAuthorization: Bearer dev-token-alice\r\nContent-Type: text/plain\r\nContent-Length: 1000\r\n\r\nhalf`,
    );
    // Cut only once the service is receiving the body (its temp file exists), so the cut lands mid-body.
    const tmp = join(svc.dataDir, 'tmp');
    await until(() => existsSync(tmp) && readdirSync(tmp).length > 0, 'the upload to start writing its temp file');
    socket.destroy();
    // A later request on the same service still works and sees no new file.
    const afterCount = (await svc.api('GET', '/store/v3/files?pageSize=1000&fields=files(id)')).json().files.length;
    assert.equal(afterCount, before);
  });
});

describe('kill -9 and restart', () => {
  it('keeps the stored blocks of an upload killed mid-request, then resumes byte-identical', async () => {
    const data = bytesOf(BLOCK * 5 + 77, 21);
    const { uri, id } = await startSession();
    const first = await svc.api('PUT', uri, {
      token: null,
      body: data.subarray(0, BLOCK),
      headers: { 'Content-Range': `bytes 0-${BLOCK - 1}/*` },
    });
    assert.equal(first.status, 308);
    const socket2 = (() => {
      const url = new URL(uri);
      const s = connect(Number(url.port), url.hostname);
      s.on('error', () => undefined);
      s.write(
        `PUT ${url.pathname}${url.search} HTTP/1.1\r\nHost: ${url.host}\r\nContent-Range: bytes ${BLOCK}-${data.length - 1}/${data.length}\r\n` +
          `Content-Length: ${data.length - BLOCK}\r\n\r\n`,
      );
      s.write(data.subarray(BLOCK, BLOCK * 3 + 1000));
      return s;
    })();
    await waitForPart(id, BLOCK * 3);
    await svc.kill('SIGKILL');
    socket2.destroy();
    await svc.restart();
    const s = await status(uri);
    assert.equal(s.status, 308);
    assert.equal(s.headers.range, `bytes=0-${BLOCK * 3 - 1}`);
    await resumeAndCheck(uri, data, BLOCK * 3);
  });

  it('keeps files, sessions, generated IDs and the change log across restarts', async () => {
    const f = (
      await svc.api('POST', '/upload/store/v3/files?uploadType=media', {
        body: 'persist',
        headers: { 'Content-Type': 'text/plain' },
      })
    ).json();
    const ids = (await svc.api('GET', '/store/v3/files/generateIds?count=2')).json().ids;
    const { uri } = await startSession();
    await svc.api('PUT', uri, {
      token: null,
      body: bytesOf(BLOCK),
      headers: { 'Content-Range': `bytes 0-${BLOCK - 1}/*` },
    });
    await svc.kill('SIGKILL');
    await svc.restart();
    assert.equal((await svc.api('GET', `/store/v3/files/${f.id}?alt=media`)).text, 'persist');
    assert.equal((await status(uri)).headers.range, `bytes=0-${BLOCK - 1}`);
    const withId = await svc.api('POST', '/store/v3/files', { body: { id: ids[0] } });
    assert.equal(withId.status, 200);
    assert.equal(withId.json().id, ids[0]);
    // A clean SIGTERM restart too.
    await svc.restart();
    assert.equal((await svc.api('GET', `/store/v3/files/${ids[0]}`)).status, 200);
  });
});
