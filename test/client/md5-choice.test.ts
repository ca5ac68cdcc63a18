// Which MD5 an uploader hashes with (`createMd5`): the page's `'js'` gets ts-md5 whatever else is possible, and
// `'auto'` gets hash-wasm where WebAssembly compiles (Node does); a saved state names its implementation, since one
// cannot be loaded into the other, and both give the same digest of the same bytes.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { test } from 'node:test';
import { createMd5 } from '../../src/uploader/engine/hashing/choose-md5.ts';

test("'js' hashes with ts-md5, 'auto' with hash-wasm, to the same digest", async () => {
  const bytes = new TextEncoder().encode('the same bytes for both implementations\n'.repeat(1000));
  const expected = createHash('md5').update(bytes).digest('hex');
  for (const [preference, impl] of [
    ['js', 'js'],
    ['auto', 'wasm'],
    ['auto', 'wasm'], // the second time from what the first learnt of WebAssembly here
    ['js', 'js'],
  ] as const) {
    const md5 = await createMd5(preference);
    assert.equal(md5.impl, impl, preference);
    md5.update(bytes);
    assert.equal(md5.save().impl, impl);
    assert.equal(md5.hex(), expected);
  }
});
