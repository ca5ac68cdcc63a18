// Which MD5 an uploader hashes with (`createMd5`): the page's `'js'` gets ts-md5 whatever else is possible, and
// `'auto'` gets hash-wasm where WebAssembly compiles (Node does); a saved state names its implementation, since one
// cannot be loaded into the other, and both give the same digest of the same bytes.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { execFile } from 'node:child_process';
import { test } from 'node:test';
import { promisify } from 'node:util';
import { createMd5 } from '../../src/uploader/engine/hashing/choose-md5.ts';

const run = promisify(execFile);

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

test("'auto' where WebAssembly cannot compile hashes with ts-md5, the first time and every time after", async () => {
  // A Node without WebAssembly (`--jitless`), as a page whose CSP refuses it: the first try fails, and what it
  // learnt sends every later engine to ts-md5 rather than to hash-wasm again.
  const module = new URL('../../src/uploader/engine/hashing/choose-md5.ts', import.meta.url).href;
  const script = `
    const { createMd5 } = await import(${JSON.stringify(module)});
    const out = [];
    for (let i = 0; i < 3; i++) {
      const md5 = await createMd5('auto');
      md5.update(new TextEncoder().encode('abc'));
      out.push([md5.impl, md5.hex()]);
    }
    console.log(JSON.stringify(out));`;
  const { stdout } = await run(process.execPath, ['--jitless', '--import', 'tsx', '--input-type=module', '-e', script]);
  const abc = createHash('md5').update('abc').digest('hex');
  assert.deepEqual(JSON.parse(stdout.trim().split('\n').at(-1)!), [
    ['js', abc],
    ['js', abc],
    ['js', abc],
  ]);
});
