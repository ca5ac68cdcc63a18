// Acceptance, from the npm entry in a real worker: what an app gets for bad options and for tokens. Bad options throw
// at createUploader (nothing starts); a token that expired is refreshed once for the whole uploader even when several
// uploads hit the 401 at once; a token that never works ends each task with `auth` after one refresh, no loop.
import { expect } from '@open-wc/testing';
import { createUploader } from '../../../src/uploader/index.ts';
import type { Uploader, UploadError } from '../../../src/uploader/index.ts';
import {
  baseUrl,
  download,
  filesNamed,
  grantToken,
  randomFile,
  revokeToken,
  sameBytes,
  storedRecords,
  testUploaders,
  TOKEN,
} from './helpers.ts';

const KiB = 1024;
const uploader = testUploaders();

/** An uploader whose getAccessToken answers `tokens` in turn (the last repeats), counting the calls. */
function withTokens(
  tokens: string[],
  options: Partial<Parameters<typeof createUploader>[0]> = {},
): { u: Uploader; calls: () => number } {
  let calls = 0;
  const u = uploader({
    getAccessToken: async () => tokens[Math.min(calls++, tokens.length - 1)],
    backoff: { baseMs: 20, capMs: 100 },
    ...options,
  });
  return { u, calls: () => calls };
}

describe('acceptance: options and tokens', () => {
  it('throws a bad-request UploadError at createUploader for options that cannot work', () => {
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ chunkSize: 100 * KiB }, /chunkSize must be a positive multiple of 262144 bytes \(256 KiB\); got 102400/],
      [{ concurrency: 0 }, /concurrency must be a whole number of at least 1; got 0/],
      [{ baseUrl: 'ftp://x' }, /baseUrl must be an absolute http\(s\) URL/],
      [{ getAccessToken: 'token' }, /getAccessToken must be a function/],
    ];
    for (const [options, message] of cases) {
      let caught: UploadError | undefined;
      try {
        uploader(options);
      } catch (error) {
        caught = error as UploadError;
      }
      expect(caught?.name, JSON.stringify(options)).to.equal('UploadError');
      expect(caught?.code).to.equal('bad-request');
      expect(caught?.message).to.match(message);
    }
  });

  it('three parallel uploads hitting 401 with an expired token ask for a new token once', async () => {
    // A token that expires (is revoked) after the page learned its account: the app's getter keeps returning it until
    // asked again after the 401s, as an app with a cached token does.
    const expiring = `tok-${crypto.randomUUID()}`;
    await grantToken(expiring, 'alice@example.com');
    const { u, calls } = withTokens([expiring, TOKEN], { resumableThreshold: 0 });
    await u.interrupted(); // attached: the page gave its token once (its account is learned from it)
    await revokeToken(expiring);
    const files = [randomFile(300 * KiB), randomFile(200 * KiB), randomFile(100 * KiB)];
    const stored = await Promise.all(files.map((file) => u.add(file).done));
    // Once as the page attached (its account is learned from that token, which the uploads then use), once after the
    // 401s: three uploads refused at once ask for one new token.
    expect(calls()).to.equal(2);
    for (const [i, file] of files.entries()) {
      expect(await sameBytes(file, await download(baseUrl, stored[i].id))).to.equal(true);
      expect(await filesNamed(baseUrl, file.name)).to.deep.equal([{ id: stored[i].id }]);
    }
    expect(await storedRecords()).to.deep.equal([]);
  });

  it('a token that never works: each task fails with auth, the app is asked twice in all', async () => {
    const { u, calls } = withTokens(['bad-token']);
    const retries: unknown[] = [];
    u.addEventListener('retry', (e) => retries.push(e));
    const errors = await Promise.all(
      [randomFile(KiB), randomFile(2 * KiB)].map((f) =>
        u.add(f).done.then(
          () => undefined,
          (e: UploadError) => e,
        ),
      ),
    );
    for (const error of errors) {
      expect(error?.code).to.equal('auth');
      expect(error?.status).to.equal(401);
    }
    // At attach, and once more after the refusal; the files then fail at once with the token refused.
    expect(calls()).to.equal(2);
    expect(retries).to.deep.equal([]);
  });
});
