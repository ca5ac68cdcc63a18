/**
 * The fault schedule of `--admin` (`server/faults.ts`, server/README.md "Faults"): a fault that cannot be read is
 * refused with a 400 whose message says which field is wrong and schedules nothing; a fault is listed as it will be
 * applied (the method upper-cased, the defaults filled in); it applies only to the requests its every condition
 * matches, after `skip` of them, `times` times, never to `/__admin`; its answer is the spec's error body.
 */
import assert from 'node:assert/strict';
import { afterEach, before, after, describe, it } from 'node:test';
import { DISK_ERRORS, SQLITE_ERRORS } from '../../server/storage-faults.ts';
import { type ServiceHandle, startService } from './helpers/service.ts';

let svc: ServiceHandle;
before(async () => {
  svc = await startService();
});
after(() => svc.stop());
afterEach(async () => {
  assert.equal((await svc.api('DELETE', '/__admin/faults', { token: null })).status, 204);
});

interface ErrorBody {
  error: { code: number; message: string; errors: { reason: string; domain?: string; message: string }[] };
}

const schedule = (body: unknown) => svc.api('POST', '/__admin/faults', { token: null, body: body as object });
const listed = async () =>
  ((await svc.api('GET', '/__admin/faults', { token: null })).json() as { faults: Record<string, unknown>[] }).faults;
const status503 = { type: 'status', status: 503 };

describe('the fault schedule', () => {
  it('a fault that cannot be read is a 400 saying which field is wrong, and nothing is scheduled', async () => {
    const cases: [unknown, string][] = [
      [[5], 'each fault must be an object'],
      [[null], 'each fault must be an object'],
      [{ match: ['GET'], action: status503 }, '"match" must be an object'],
      [{ match: { pathPrefix: 5 }, action: status503 }, 'match.pathPrefix must be a string'],
      [{ match: { pathRegex: true }, action: status503 }, 'match.pathRegex must be a string'],
      [{ match: { uploadType: 1 }, action: status503 }, 'match.uploadType must be a string'],
      [
        { match: { pathRegex: '(' }, action: status503 },
        'match.pathRegex: Invalid regular expression: /(/: Unterminated group',
      ],
      [{ match: {} }, '"action" must be an object with "type" status, cut, delay, disk, slowDisk or sqlite'],
      [{ action: null }, '"action" must be an object with "type" status, cut, delay, disk, slowDisk or sqlite'],
      [{ action: { type: 'status', status: 404 } }, 'action.status must be 403 or 5xx'],
      [{ action: { type: 'status', status: 600 } }, 'action.status must be 403 or 5xx'],
      [{ action: { type: 'status', status: 499 } }, 'action.status must be 403 or 5xx'],
      [{ action: { type: 'status', status: 99 } }, 'action.status must be an integer ≥ 100'],
      [{ action: { type: 'status', status: 503.5 } }, 'action.status must be an integer ≥ 100'],
      [{ action: { type: 'status', status: '503' } }, 'action.status must be an integer ≥ 100'],
      [{ action: { type: 'cut', afterBytes: -1 } }, 'action.afterBytes must be an integer ≥ 0'],
      [{ action: { type: 'delay' } }, 'action.ms must be an integer ≥ 0'],
      [
        { action: { type: 'disk', afterBytes: 0, error: 'EPERM' } },
        `action.error must be one of ${DISK_ERRORS.join(', ')}`,
      ],
      [{ action: { type: 'disk', afterBytes: -1 } }, 'action.afterBytes must be an integer ≥ 0'],
      [{ action: { type: 'disk', afterBytes: 0, bytesPerSecond: 0 } }, 'action.bytesPerSecond must be an integer ≥ 1'],
      [{ action: { type: 'slowDisk', bytesPerSecond: 0 } }, 'action.bytesPerSecond must be an integer ≥ 1'],
      [{ action: { type: 'sqlite', error: 'SQLITE_BUSY' } }, `action.error must be one of ${SQLITE_ERRORS.join(', ')}`],
      [{ action: { type: 'explode' } }, 'action.type must be "status", "cut", "delay", "disk", "slowDisk" or "sqlite"'],
      [{ action: status503, times: 0 }, 'times must be an integer ≥ 1'],
      [{ action: status503, skip: -1 }, 'skip must be an integer ≥ 0'],
      [{ faults: [{ action: status503 }, { action: { type: 'cut' } }] }, 'action.afterBytes must be an integer ≥ 0'],
    ];
    for (const [body, message] of cases) {
      const r = await schedule(body);
      assert.equal(r.status, 400, `${JSON.stringify(body)}: ${r.text}`);
      const error = (r.json() as ErrorBody).error;
      assert.equal(error.message, `Invalid fault: ${message}`, JSON.stringify(body));
      assert.equal(error.errors[0]?.reason, 'badRequest');
    }
    assert.deepEqual(await listed(), []);
  });

  it('a fault is listed as it applies: the method upper-cased, every condition kept, the defaults filled in', async () => {
    const match = {
      method: 'put',
      pathPrefix: '/upload/',
      pathRegex: '^/upload/store/v3/files$',
      uploadType: 'resumable',
    };
    const r = await schedule({
      faults: [
        { match, action: { type: 'disk', afterBytes: 0 } },
        { action: { type: 'disk', afterBytes: 7, error: 'EIO', bytesPerSecond: 100 }, times: 3, skip: 2 },
        { action: { type: 'sqlite' } },
        { action: { type: 'slowDisk', bytesPerSecond: 4096 } },
        { action: { type: 'cut', afterBytes: 0 } },
        { action: { type: 'delay', ms: 0 } },
        { action: { type: 'status', status: 403 } },
      ],
    });
    assert.equal(r.status, 200, r.text);
    const expected = [
      {
        match: { ...match, method: 'PUT' },
        action: { type: 'disk', error: 'ENOSPC', afterBytes: 0 },
        times: 1,
        skip: 0,
      },
      { match: {}, action: { type: 'disk', error: 'EIO', afterBytes: 7, bytesPerSecond: 100 }, times: 3, skip: 2 },
      { match: {}, action: { type: 'sqlite', error: 'SQLITE_FULL' }, times: 1, skip: 0 },
      { match: {}, action: { type: 'slowDisk', bytesPerSecond: 4096 }, times: 1, skip: 0 },
      { match: {}, action: { type: 'cut', afterBytes: 0 }, times: 1, skip: 0 },
      { match: {}, action: { type: 'delay', ms: 0 }, times: 1, skip: 0 },
      { match: {}, action: { type: 'status', status: 403 }, times: 1, skip: 0 },
    ].map((f) => ({ ...f, hits: 0 }));
    const answered = (r.json() as { faults: Record<string, unknown>[] }).faults;
    assert.deepEqual(
      answered.map(({ id, ...rest }) => (assert.equal(typeof id, 'number'), rest)),
      expected,
    );
    assert.deepEqual(await listed(), answered);
  });

  it('a status fault takes 403 and every 5xx, 500 and 599 included', async () => {
    const r = await schedule([500, 599, 403].map((status) => ({ action: { type: 'status', status } })));
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(
      (await listed()).map((f) => (f.action as { status: number }).status),
      [500, 599, 403],
    );
  });

  it('a status fault answers the matching requests after its skip, its times, with the spec error body', async () => {
    const r = await schedule({
      match: { method: 'get', pathPrefix: '/store/v3/about' },
      action: status503,
      skip: 1,
      times: 2,
    });
    assert.equal(r.status, 200, r.text);
    const about = () => svc.api('GET', '/store/v3/about?fields=user');
    assert.equal((await about()).status, 200, 'the skipped one');
    assert.equal((await svc.api('GET', '/store/v3/files?fields=files(id)')).status, 200, 'another path');
    for (const n of [1, 2]) {
      const failed = await about();
      assert.equal(failed.status, 503, `use ${n}`);
      assert.deepEqual(failed.json(), {
        error: {
          code: 503,
          message: 'Backend Error',
          errors: [{ domain: 'global', reason: 'backendError', message: 'Backend Error' }],
        },
      });
      if (n === 1) assert.deepEqual((await listed())[0]?.hits, 1);
    }
    assert.equal((await about()).status, 200, 'no use left');
    assert.deepEqual(await listed(), []);
  });

  it('a 403 fault is the usage limits rate-limit error', async () => {
    await schedule({ action: { type: 'status', status: 403 } });
    const r = await svc.api('GET', '/store/v3/about?fields=user');
    assert.equal(r.status, 403, r.text);
    assert.deepEqual(r.json(), {
      error: {
        code: 403,
        message: 'User rate limit exceeded.',
        errors: [{ domain: 'usageLimits', reason: 'userRateLimitExceeded', message: 'User rate limit exceeded.' }],
      },
    });
  });

  it('a fault never applies to the admin paths, which it would otherwise match', async () => {
    await schedule({ match: { pathPrefix: '/' }, action: status503 });
    assert.equal((await svc.api('GET', '/__admin/clock', { token: null })).status, 200);
    assert.equal((await listed()).length, 1);
    assert.equal((await svc.api('GET', '/store/v3/about?fields=user')).status, 503);
  });

  it('each condition must hold: method, path prefix, path pattern and upload type', async () => {
    const made = await svc.api('POST', '/store/v3/files?fields=id', { body: { name: 'faulted.txt' } });
    const id = (made.json() as { id: string }).id;
    const cases: { match: object; misses: [string, string]; hits: [string, string] }[] = [
      {
        match: { method: 'delete' },
        misses: ['GET', `/store/v3/files/${id}`],
        hits: ['DELETE', `/store/v3/files/${id}`],
      },
      {
        match: { pathPrefix: `/store/v3/files/${id}` },
        misses: ['GET', '/store/v3/files'],
        hits: ['GET', `/store/v3/files/${id}`],
      },
      {
        match: { pathRegex: '^/store/v3/files/[^/]+$' },
        misses: ['GET', `/store/v3/files/${id}/permissions`],
        hits: ['GET', `/store/v3/files/${id}`],
      },
      {
        match: { uploadType: 'resumable' },
        misses: ['POST', '/upload/store/v3/files?uploadType=media'],
        hits: ['POST', '/upload/store/v3/files?uploadType=resumable'],
      },
    ];
    for (const { match, misses, hits } of cases) {
      await schedule({ match, action: status503 });
      const missed = await svc.api(misses[0], misses[1], { body: misses[0] === 'POST' ? 'x' : undefined });
      assert.notEqual(missed.status, 503, `${JSON.stringify(match)} applied to ${misses.join(' ')}`);
      assert.equal((await listed()).length, 1, `${JSON.stringify(match)} was used by ${misses.join(' ')}`);
      const hit = await svc.api(hits[0], hits[1], { body: hits[0] === 'POST' ? 'x' : undefined });
      assert.equal(hit.status, 503, `${JSON.stringify(match)} on ${hits.join(' ')}: ${hit.text}`);
      assert.deepEqual(await listed(), []);
    }
  });
});
