// Answers the engine cannot trust, against the real service over loopback: a 308 whose Range says more bytes are
// stored than the file has is unreadable, retried as a server error and, when it stays so, the task fails saying so;
// a final answer whose size is not what was sent fails the task with integrity (issue 39's mutants of
// engine/resumable-upload.ts, the stored offset checked against the file's size, and engine/verify-result.ts).
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { H_CONTENT_RANGE } from '../../src/protocol/headers.ts';
import type { HttpPort } from '../../src/uploader/contract/ports.ts';
import { UploadError } from '../../src/uploader/contract/upload-error.ts';
import { startService, type ServiceHandle } from '../server/helpers/service.ts';
import { addFault, clearFaults, filesNamed, harness, md5, randomFile } from './helpers/engine-harness.ts';
import { nodeHttp } from './helpers/node-http-port.ts';

const KiB = 1024;

let service: ServiceHandle;
before(async () => {
  service = await startService();
});
after(async () => {
  await service.stop();
});

test('a status query answered with a Range past the end of the file fails the task as unreadable, not stored', async () => {
  await clearFaults(service.url);
  // The first chunk is refused, so the next attempt asks the service what it stored.
  await addFault(service.url, {
    match: { method: 'PUT', uploadType: 'resumable' },
    action: { type: 'status', status: 503 },
    times: 1,
  });
  const file = randomFile(3 * 256 * KiB);
  const statusQueries: string[] = [];
  const http: HttpPort = {
    send: async (req, hooks) => {
      const response = await nodeHttp.send(req, hooks);
      if (!req.headers[H_CONTENT_RANGE]?.startsWith('bytes */') || response.status !== 308) return response;
      statusQueries.push(req.headers[H_CONTENT_RANGE]);
      const pastEnd = `bytes=0-${file.bytes.length + 99}`;
      return {
        status: response.status,
        text: response.text,
        protocol: response.protocol,
        header: (name) => (name.toLowerCase() === 'range' ? pastEnd : response.header(name)),
      };
    },
  };
  const h = harness(service.url, {
    http,
    resumableThreshold: 0,
    chunkSize: 256 * KiB,
    maxRetries: 2,
    backoff: { baseMs: 1, capMs: 5 },
  });
  await h.engine.add('t1', file);
  await assert.rejects(h.engine.done('t1'), (e: unknown) => {
    assert.ok(e instanceof UploadError, String(e));
    assert.match(e.message, /unreadable Range header on 308: bytes=0-786531/);
    return true;
  });
  await clearFaults(service.url);
  assert.ok(statusQueries.length >= 2, `each retry asked again (${statusQueries.length})`);
  assert.deepEqual(await filesNamed(service.url, file.name), [], 'nothing stored under the name');
});

test('a final answer whose size is not what was sent fails the task with integrity, naming both sizes', async () => {
  await clearFaults(service.url);
  const file = randomFile(300 * KiB);
  // The service's own answer to the multipart upload, with its size one byte short (a proxy that altered it).
  const http: HttpPort = {
    send: async (req, hooks) => {
      const response = await nodeHttp.send(req, hooks);
      if (req.method !== 'POST' || response.status !== 200 || !req.url.includes('uploadType=multipart'))
        return response;
      const stored = JSON.parse(response.text) as { size?: string };
      return {
        status: response.status,
        text: JSON.stringify({ ...stored, size: String(file.bytes.length - 1) }),
        protocol: response.protocol,
        header: (name) => response.header(name),
      };
    },
  };
  const h = harness(service.url, { http });
  await h.engine.add('t1', file);
  await assert.rejects(h.engine.done('t1'), (e: unknown) => {
    assert.ok(e instanceof UploadError, String(e));
    assert.equal(e.code, 'integrity');
    assert.equal(e.message, `the service stored ${file.bytes.length - 1} bytes; ${file.bytes.length} were sent`);
    return true;
  });
});

test('a 308 saying every byte is stored is finished by a status query, never by an empty range', async () => {
  await clearFaults(service.url);
  const file = randomFile(2 * 256 * KiB);
  const total = file.bytes.length;
  const ranges: string[] = [];
  let rewritten = false;
  // The service's answer to the last chunk, once, as a 308 for the whole file (a proxy or service that finishes late).
  const http: HttpPort = {
    send: async (req, hooks) => {
      const range = req.headers[H_CONTENT_RANGE];
      if (range !== undefined) ranges.push(range);
      const response = await nodeHttp.send(req, hooks);
      if (rewritten || range !== `bytes ${256 * KiB}-${total - 1}/${total}` || response.status !== 200) return response;
      rewritten = true;
      return {
        status: 308,
        text: '',
        protocol: response.protocol,
        header: (name) => (name.toLowerCase() === 'range' ? `bytes=0-${total - 1}` : null),
      };
    },
  };
  const h = harness(service.url, { http, resumableThreshold: 0, chunkSize: 256 * KiB, maxRetries: 0 });
  await h.engine.add('t1', file);
  const stored = await h.engine.done('t1');
  assert.ok(rewritten, 'the last chunk was answered with the 308');
  assert.equal(stored.md5Checksum, md5(file.bytes));
  assert.deepEqual(ranges, [
    `bytes 0-${256 * KiB - 1}/${total}`,
    `bytes ${256 * KiB}-${total - 1}/${total}`,
    `bytes */${total}`,
  ]);
  assert.deepEqual((await filesNamed(service.url, file.name)).length, 1, 'stored once');
});
