/**
 * What the Node adapter writes on the wire where no handler speaks: the answer to request headers over the limit,
 * and a client that half-closes its connection in the middle of a body (a cut, never a malformed request). Raw
 * HTTP/1.1, so every byte the service writes is seen.
 */
import assert from 'node:assert/strict';
import { mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { openRaw, requestHead, statuses } from './helpers/raw-http.ts';
import { type ServiceHandle, startService } from './helpers/service.ts';

const AUTH = 'Bearer dev-token-alice';

let svc: ServiceHandle;
before(async () => {
  svc = await startService();
});
after(() => svc.stop());

describe('the Node adapter on the wire', () => {
  it('request headers over the limit are a 431 whose error reason is headersTooLarge', async () => {
    const conn = await openRaw(svc.url);
    try {
      await conn.write(
        requestHead('GET', '/store/v3/files', { Host: 'localhost', Authorization: AUTH, 'X-Big': 'x'.repeat(200_000) }),
      );
      const text = await conn.waitFor((t) => /\r\n\r\n[\s\S]*\}/.test(t), 20_000, 'the 431 and its body');
      assert.deepEqual(statuses(text), [431], text);
      const body = JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4)) as {
        error: { code: number; errors: { reason: string }[] };
      };
      assert.equal(body.error.code, 431);
      assert.equal(body.error.errors[0]?.reason, 'headersTooLarge');
      assert.match(text, /^HTTP\/1\.1 431 Request Header Fields Too Large\r\n/);
      assert.equal(
        (body.error as unknown as { message: string }).message,
        'The request headers are larger than the limit of 16384 bytes.',
      );
    } finally {
      conn.drop();
    }
  });

  it('a request without a Host header (HTTP/1.0) gets a session URI on the address the service listens on', async () => {
    const conn = await openRaw(svc.url);
    try {
      const body = JSON.stringify({ name: 'no-host.bin' });
      await conn.write(
        `POST /upload/store/v3/files?uploadType=resumable HTTP/1.0\r\nAuthorization: ${AUTH}\r\n` +
          `Content-Type: application/json\r\nX-Upload-Content-Length: 10\r\nContent-Length: ${body.length}\r\n\r\n${body}`,
      );
      const text = await conn.waitFor((t) => /\r\nlocation: [^\r]*\r\n/i.test(t), 20_000, 'the session URI');
      assert.match(text, /^HTTP\/1\.[01] 200 /);
      const location = /\r\nlocation: ([^\r]*)\r\n/i.exec(text)?.[1] ?? '';
      assert.ok(location.startsWith(`${svc.url}/upload/store/v3/files?`), location);
    } finally {
      conn.drop();
    }
  });

  it('a session URI is on the host the request named', async () => {
    const port = new URL(svc.url).port;
    const conn = await openRaw(svc.url);
    try {
      const body = JSON.stringify({ name: 'named-host.bin' });
      await conn.write(
        requestHead('POST', '/upload/store/v3/files?uploadType=resumable', {
          Host: `localhost:${port}`,
          Authorization: AUTH,
          'Content-Type': 'application/json',
          'X-Upload-Content-Length': 10,
          'Content-Length': body.length,
        }) + body,
      );
      const text = await conn.waitFor((t) => /\r\nlocation: [^\r]*\r\n/i.test(t), 20_000, 'the session URI');
      const location = /\r\nlocation: ([^\r]*)\r\n/i.exec(text)?.[1] ?? '';
      assert.ok(location.startsWith(`http://localhost:${port}/upload/store/v3/files?`), location);
    } finally {
      conn.drop();
    }
  });

  it('a single-valued header sent twice with different values is a 400 pointing at that header', async () => {
    const conn = await openRaw(svc.url);
    try {
      await conn.write(
        'GET /store/v3/files HTTP/1.1\r\nHost: localhost\r\n' +
          `Authorization: ${AUTH}\r\nContent-Type: text/plain\r\nContent-Type: text/csv\r\nConnection: close\r\n\r\n`,
      );
      const text = await conn.closed(20_000);
      assert.deepEqual(statuses(text), [400], text);
      const body = JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4)) as {
        error: { errors: { location?: string; locationType?: string }[] };
      };
      assert.deepEqual(body.error.errors[0], {
        ...body.error.errors[0],
        location: 'content-type',
        locationType: 'header',
      });
      assert.equal(
        (body.error as unknown as { message: string }).message,
        'The content-type header was sent 2 times with different values; send it once.',
      );
    } finally {
      conn.drop();
    }
  });

  it('a client that half-closes in the middle of a body is cut off without an answer, and nothing is stored', async () => {
    const before = await svc.api('GET', '/store/v3/files?q=name%3D%27half-closed.bin%27&fields=files(id)');
    assert.deepEqual(before.json(), { files: [] });
    const conn = await openRaw(svc.url);
    await conn.write(
      requestHead('POST', '/upload/store/v3/files?uploadType=media', {
        Host: 'localhost',
        Authorization: AUTH,
        'Content-Type': 'application/octet-stream',
        'Content-Length': 1000,
      }) + 'x'.repeat(10),
    );
    // FIN after 10 of 1000 bytes: the parser reports HPE_INVALID_EOF_STATE, which is the client going away.
    conn.socket.end();
    const received = await conn.closed(20_000);
    assert.equal(received, '', `the service answered a cut body:\n${received}`);
    const after = await svc.api('GET', '/store/v3/files?q=trashed%3Dfalse&fields=files(id,name,size)');
    assert.equal(after.status, 200, after.text);
    assert.deepEqual(
      (after.json() as { files: { size?: string }[] }).files.filter((f) => f.size === '10'),
      [],
      'no file of the 10 bytes sent',
    );
  });
  it('a single-valued header sent twice with the same value, blanks aside, is no conflict', async () => {
    const text = await exchange(
      'GET /store/v3/about?fields=user HTTP/1.1\r\nHost: localhost\r\n' +
        `Authorization: ${AUTH}\r\nAuthorization:  ${AUTH} \r\nConnection: close\r\n\r\n`,
    );
    assert.deepEqual(statuses(text), [200], text);
  });

  it('a resumable session answers with its own reason phrases: 308 Resume Incomplete, 499 Client Closed Request', async () => {
    const started = await svc.api('POST', '/upload/store/v3/files?uploadType=resumable', {
      body: { name: 'phrases.bin' },
      headers: { 'X-Upload-Content-Length': '10' },
    });
    assert.equal(started.status, 200, started.text);
    const session = new URL(started.headers.location as string);
    const target = `${session.pathname}${session.search}`;
    const query = await exchange(
      requestHead('PUT', target, {
        Host: 'localhost',
        'Content-Range': 'bytes */10',
        'Content-Length': 0,
        Connection: 'close',
      }),
    );
    assert.match(query, /^HTTP\/1\.1 308 Resume Incomplete\r\n/);
    assert.match(query, /\r\ncontent-length: 0\r\n/i);
    const cancel = await exchange(requestHead('DELETE', target, { Host: 'localhost', Connection: 'close' }));
    assert.match(cancel, /^HTTP\/1\.1 499 Client Closed Request\r\n/);
  });

  it('a HEAD of a download has the length the GET sends and no body; a 204 has no Content-Length', async () => {
    const made = await svc.api('POST', '/upload/store/v3/files?uploadType=media&fields=id', {
      body: 'h'.repeat(1234),
      headers: { 'Content-Type': 'application/octet-stream' },
    });
    const id = (made.json() as { id: string }).id;
    const head = await exchange(
      requestHead('HEAD', `/store/v3/files/${id}?alt=media`, {
        Host: 'localhost',
        Authorization: AUTH,
        Connection: 'close',
      }),
    );
    assert.deepEqual(statuses(head), [200], head);
    assert.match(head, /\r\ncontent-length: 1234\r\n/i);
    assert.ok(head.endsWith('\r\n\r\n'), `a body after the HEAD's head:\n${head}`);
    const deleted = await exchange(
      requestHead('DELETE', `/store/v3/files/${id}`, { Host: 'localhost', Authorization: AUTH, Connection: 'close' }),
    );
    assert.deepEqual(statuses(deleted), [204], deleted);
    assert.doesNotMatch(deleted, /\r\ncontent-length:/i);
  });

  it('thirty HEADs of a download leave no file open in the service: the stream of bytes it did not send is closed', async () => {
    const made = await svc.api('POST', '/upload/store/v3/files?uploadType=media&fields=id', {
      body: 'head '.repeat(1000),
      headers: { 'Content-Type': 'text/plain' },
    });
    const id = (made.json() as { id: string }).id;
    // The service's open descriptors (Linux): a connection's socket closes with it, a file left open stays.
    const open = () => readdirSync(`/proc/${svc.pid}/fd`).length;
    const before = open();
    for (let i = 0; i < 30; i++) {
      const r = await svc.api('HEAD', `/store/v3/files/${id}?alt=media`);
      assert.equal(r.status, 200);
    }
    const grown = open() - before;
    assert.ok(grown < 10, `${grown} more descriptors open after 30 HEADs`);
  });

  it('a HEAD of a download never reads the stored bytes: it is answered when they cannot be read', async () => {
    const marker = 'a HEAD reads none of this. ';
    const made = await svc.api('POST', '/upload/store/v3/files?uploadType=media&fields=id', {
      body: marker.repeat(400),
      headers: { 'Content-Type': 'text/plain' },
    });
    assert.equal(made.status, 200, made.text);
    const id = (made.json() as { id: string }).id;
    // The stored object becomes a folder (a damaged data folder): it opens, and every read of it fails (EISDIR).
    const stored = readdirSync(join(svc.dataDir, 'content'), { withFileTypes: true, recursive: true })
      .filter((e) => e.isFile())
      .map((e) => join(e.parentPath, e.name))
      .filter((path) => readFileSync(path, 'utf8').startsWith(marker));
    assert.equal(stored.length, 1, `one stored object holds the upload: ${stored.join(', ')}`);
    rmSync(stored[0] as string);
    mkdirSync(stored[0] as string);
    const head = await svc.api('HEAD', `/store/v3/files/${id}?alt=media`);
    assert.equal(head.status, 200);
    assert.equal(head.headers['content-length'], String(marker.length * 400));
    assert.equal(head.body.length, 0);
  });

  it('a HEAD of a JSON answer has the length of the JSON the GET sends', async () => {
    const get = await svc.api('GET', '/store/v3/about?fields=user');
    const head = await exchange(
      requestHead('HEAD', '/store/v3/about?fields=user', {
        Host: 'localhost',
        Authorization: AUTH,
        Connection: 'close',
      }),
    );
    assert.deepEqual(statuses(head), [200], head);
    assert.match(head, new RegExp(`\\r\\ncontent-length: ${get.body.length}\\r\\n`, 'i'));
    assert.ok(head.endsWith('\r\n\r\n'), head);
  });

  it('a client that half-closes in the middle of its request head gets no answer: it has gone', async () => {
    const conn = await openRaw(svc.url);
    await conn.write(`GET /store/v3/files HTTP/1.1\r\nHost: localhost\r\nAuthorization: ${AUTH}\r\nX-Half: `);
    conn.socket.end();
    const received = await conn.closed(20_000);
    assert.equal(received, '', `the service answered a half-sent head:\n${received}`);
  });

  it('a request that is not HTTP is a 400 Bad Request whose JSON says so, readable from any origin', async () => {
    const text = await exchange('GET /store/v3/files HTTP/1.1\r\nHost: localhost\r\nno colon here\r\n\r\n');
    assert.match(text, /^HTTP\/1\.1 400 Bad Request\r\n/);
    assert.match(text, /\r\nAccess-Control-Allow-Origin: \*\r\n/);
    const body = text.slice(text.indexOf('\r\n\r\n') + 4);
    assert.match(text, new RegExp(`\\r\\nContent-Length: ${Buffer.byteLength(body)}\\r\\n`));
    const error = (JSON.parse(body) as { error: { message: string; errors: { reason: string }[] } }).error;
    assert.match(error.message, /^The request is not valid HTTP: .+ \(HPE_[A-Z_]+\)\.$/);
    assert.equal(error.errors[0]?.reason, 'badRequest');
  });
});

/** Writes `bytes` on a new raw connection and returns everything the service sent until it closed. */
async function exchange(bytes: string): Promise<string> {
  const conn = await openRaw(svc.url);
  try {
    await conn.write(bytes);
    return await conn.closed(20_000);
  } finally {
    conn.drop();
  }
}
