import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { domainOf, errorBody, MESSAGES, readErrorBody, reasonOf } from '../../src/protocol/errors.ts';
import { sessionPath, filePath, UPLOAD_FILES_PATH } from '../../src/protocol/routes.ts';

describe('error bodies', () => {
  it('builds the supplement §7 shape', () => {
    assert.deepEqual(
      errorBody(404, 'notFound', MESSAGES.fileNotFound('abc'), { location: 'fileId', locationType: 'parameter' }),
      {
        error: {
          code: 404,
          message: 'File not found: abc.',
          errors: [
            {
              message: 'File not found: abc.',
              domain: 'global',
              reason: 'notFound',
              location: 'fileId',
              locationType: 'parameter',
            },
          ],
        },
      },
    );
    assert.equal(errorBody(403, 'userRateLimitExceeded', 'x').error.errors[0]?.domain, 'usageLimits');
    assert.equal(domainOf('rateLimitExceeded'), 'usageLimits');
    assert.equal(domainOf('forbidden'), 'global');
  });

  it('reads error bodies back', () => {
    const body = errorBody(401, 'required', MESSAGES.loginRequired);
    assert.deepEqual(readErrorBody(JSON.parse(JSON.stringify(body))), body);
    assert.equal(reasonOf(body), 'required');
    assert.equal(readErrorBody({ error: 'nope' }), undefined);
    assert.equal(readErrorBody(null), undefined);
    // Another server's `{"error": null}` is no error body either (not a TypeError from reading it).
    assert.equal(readErrorBody({ error: null }), undefined);
    // Another server's JSON error (a proxy's, a gateway's) is not taken for the service's: each part must be there.
    for (const error of [
      { message: 'Bad gateway' },
      { code: '502', message: 'Bad gateway', errors: [] },
      { code: 502, errors: [] },
      { code: 502, message: 'Bad gateway', errors: 'upstream' },
    ]) {
      assert.equal(readErrorBody({ error }), undefined, JSON.stringify(error));
    }
    assert.equal(
      MESSAGES.offsetGap(10, 5),
      'the upload offset is 10 byte(s), which exceeds already uploaded size of 5 byte(s)',
    );
  });
});

describe('routes', () => {
  it('builds paths with encoded ids', () => {
    assert.equal(filePath('a/b'), '/store/v3/files/a%2Fb');
    assert.equal(sessionPath('U1'), `${UPLOAD_FILES_PATH}?uploadType=resumable&upload_id=U1`);
    assert.equal(sessionPath('U1', 'f1'), '/upload/store/v3/files/f1?uploadType=resumable&upload_id=U1');
  });
});
