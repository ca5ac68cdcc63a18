// The kit's version as the page knows it names the folder of the copied worker files (page/copied-workers.ts),
// which the kit's package (packages/store-upload-kit) ships under `dist/workers/<version>/`: it must be that
// package's version, as scripts/build-workers.ts demands (issue 39's survivor of page/kit-version.ts, an empty
// version that would put every kit version's workers at one URL).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { KIT_VERSION } from '../../src/uploader/page/kit-version.ts';

test("the page's kit version is the package's version", () => {
  const { version } = JSON.parse(
    readFileSync(new URL('../../packages/store-upload-kit/package.json', import.meta.url), 'utf8'),
  ) as {
    version: string;
  };
  assert.match(version, /^\d+\.\d+\.\d+/);
  assert.equal(KIT_VERSION, version);
});
