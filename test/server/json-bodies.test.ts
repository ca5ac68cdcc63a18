/**
 * How the service reads a JSON request body (`server/context.ts`): it must say it is JSON (`application/json` or a
 * `+json` type, in any case, with any parameters), or the call is a 400 naming the Content-Type it got and pointing
 * at that header; text that is not JSON is a 400 parseError; an empty body is no body, whatever its type. Nothing is
 * created by a refused call.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type ServiceHandle, startService } from './helpers/service.ts';

let svc: ServiceHandle;
before(async () => {
  svc = await startService();
});
after(() => svc.stop());

interface ErrorBody {
  error: { code: number; message: string; errors: { reason: string; location?: string; locationType?: string }[] };
}

const create = (body: string, contentType?: string) =>
  svc.api('POST', '/store/v3/files?fields=name', {
    body,
    headers: contentType === undefined ? {} : { 'Content-Type': contentType },
  });

const stored = async (name: string) =>
  (
    (await svc.api('GET', `/store/v3/files?q=${encodeURIComponent(`name = '${name}'`)}&fields=files(id)`)).json() as {
      files: unknown[];
    }
  ).files.length;

describe('JSON request bodies', () => {
  it('are read under any spelling of a JSON media type', async () => {
    for (const type of [
      'application/json',
      'Application/JSON; charset=utf-8',
      ' application/json ;x=1',
      'application/merge-patch+json',
    ]) {
      const name = `typed ${type}`;
      const r = await create(JSON.stringify({ name }), type);
      assert.equal(r.status, 200, `${type}: ${r.text}`);
      assert.deepEqual(r.json(), { name });
    }
  });

  it('under another type are a 400 naming the type it got and pointing at Content-Type; nothing is created', async () => {
    for (const [type, got] of [
      ['text/plain', '"text/plain"'],
      ['application/jsonx', '"application/jsonx"'],
      ['json', '"json"'],
      [undefined, 'no Content-Type'],
    ] as const) {
      const r = await create(JSON.stringify({ name: 'mistyped.txt' }), type);
      assert.equal(r.status, 400, `${type}: ${r.text}`);
      const body = r.json() as ErrorBody;
      assert.equal(body.error.message, `The request body must be JSON with Content-Type application/json; got ${got}.`);
      assert.deepEqual(body.error.errors[0], {
        ...body.error.errors[0],
        reason: 'badRequest',
        location: 'Content-Type',
        locationType: 'header',
      });
    }
    assert.equal(await stored('mistyped.txt'), 0);
  });

  it('that are not JSON are a 400 parseError saying what the parser found', async () => {
    const r = await create('{"name": "half', 'application/json');
    assert.equal(r.status, 400, r.text);
    const body = r.json() as ErrorBody;
    assert.equal(body.error.errors[0]?.reason, 'parseError');
    assert.match(body.error.message, /^Invalid JSON payload received\. .*JSON/);
    assert.equal(await stored('half'), 0);
  });

  it('that are empty are no body, whatever their type: the file gets the default name', async () => {
    const r = await create('', 'text/plain');
    assert.equal(r.status, 200, r.text);
    assert.equal(typeof (r.json() as { name: unknown }).name, 'string');
  });
});
