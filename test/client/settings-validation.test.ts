// `createUploader`'s options are checked once, where the settings are made (`resolveSettings`): an option that cannot
// work fails at once with a `bad-request` UploadError naming it, and every option that can work is taken.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { resolveSettings } from '../../src/uploader/contract/settings.ts';
import { UploadError } from '../../src/uploader/contract/upload-error.ts';

const base = { baseUrl: 'https://store.example', getAccessToken: () => 'token' };

const refused: [string, Record<string, unknown>, RegExp][] = [
  ['a relative baseUrl', { baseUrl: '/api' }, /baseUrl must be an absolute http\(s\) URL/],
  ['a baseUrl of another scheme', { baseUrl: 'ftp://store.example' }, /baseUrl must be an absolute http\(s\) URL/],
  ['an empty account', { account: '' }, /account must be a non-empty string/],
  ['an account that is not a string', { account: 7 }, /account must be a non-empty string/],
  ['a chunk size off the 256 KiB grid', { chunkSize: 300 * 1024 }, /chunkSize must be a positive multiple of 262144/],
  ['a chunk size that is a word', { chunkSize: 'big' }, /chunkSize must be a multiple of 256 KiB or 'adaptive'/],
  ['no concurrency', { concurrency: 0 }, /concurrency must be a whole number of at least 1; got 0/],
  ['a fractional retry count', { maxRetries: 1.5 }, /maxRetries must be a whole number of at least 0/],
  ['a negative backoff', { backoff: { baseMs: -1 } }, /backoff\.baseMs must be a whole number of at least 0/],
  [
    'an image width of 0',
    { imageResize: { maxWidth: 0 } },
    /imageResize\.maxWidth must be a whole number of at least 1/,
  ],
];

for (const [label, options, message] of refused)
  test(`${label} is refused with a bad-request that names it`, () => {
    assert.throws(
      () => resolveSettings({ ...base, ...options } as Parameters<typeof resolveSettings>[0]),
      (error: unknown) => error instanceof UploadError && error.code === 'bad-request' && message.test(error.message),
    );
  });

test('options that can work are taken as given', () => {
  // The account names the signed-in one for the worker (not a setting of the engine): checked, then passed on.
  assert.doesNotThrow(() => resolveSettings({ ...base, account: 'alice@example.com' }));
  const settings = resolveSettings({
    ...base,
    chunkSize: 'adaptive',
    concurrency: 1,
    maxRetries: 0,
    resumableThreshold: 0,
  });
  assert.equal(settings.concurrency, 1);
  assert.equal(settings.maxRetries, 0);
  assert.equal(settings.resumableThreshold, 0);
  assert.equal(resolveSettings({ ...base, chunkSize: 512 * 1024 }).chunkSize, 512 * 1024);
});

test('no baseUrl at all is refused, saying it got none (an empty one)', () => {
  assert.throws(
    () => resolveSettings({ getAccessToken: () => 'token' } as Parameters<typeof resolveSettings>[0]),
    (error: unknown) =>
      error instanceof UploadError &&
      error.code === 'bad-request' &&
      error.message === 'baseUrl must be an absolute http(s) URL of the service; got ""',
  );
});
