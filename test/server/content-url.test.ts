// `--content s3://BUCKET[/PREFIX]` and the AWS variables, as `store-service` reads them before it touches a bucket
// (`parseContentUrl`): a mistake stops the node with one line that says what was wrong, not a failure at the first
// upload.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseContentUrl } from '../../server/content/index.ts';

test('a bucket, a prefix without its trailing slashes, and the endpoint, region and keys from the environment', () => {
  const env = {
    AWS_ENDPOINT_URL_S3: 'http://127.0.0.1:7480',
    AWS_ENDPOINT_URL: 'http://elsewhere.example',
    AWS_REGION: 'eu-west-1',
    AWS_ACCESS_KEY_ID: 'key',
    AWS_SECRET_ACCESS_KEY: 'secret',
  };
  assert.deepEqual(parseContentUrl('s3://my-bucket.files/team/store//', env), {
    bucket: 'my-bucket.files',
    prefix: 'team/store',
    endpoint: 'http://127.0.0.1:7480',
    region: 'eu-west-1',
    accessKeyId: 'key',
    secretAccessKey: 'secret',
  });
  assert.deepEqual(parseContentUrl('s3://abc', { AWS_ENDPOINT_URL: 'http://gw.example' }), {
    bucket: 'abc',
    endpoint: 'http://gw.example',
  });
  assert.deepEqual(parseContentUrl('s3://abc/', {}), { bucket: 'abc' });
});

for (const [url, message] of [
  ['https://bucket.example/x', /content must be s3:\/\/BUCKET\[\/PREFIX\], got "https:\/\/bucket.example\/x"/],
  ['s3://', /content must be s3:\/\/BUCKET/],
  ['s3://My_Bucket', /"My_Bucket" is not a valid S3 bucket name/],
  ['s3://ab', /"ab" is not a valid S3 bucket name/],
  ['s3://-bucket', /"-bucket" is not a valid S3 bucket name/],
  [`s3://${'b'.repeat(64)}`, /is not a valid S3 bucket name \(3–63/],
] as const)
  test(`${url || '(empty)'} is refused with a message that says why`, () => {
    assert.throws(() => parseContentUrl(url, {}), message);
  });
