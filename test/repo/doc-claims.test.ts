// Claims of CONVENTIONS.md and ARCHITECTURE.md that no compiler or lint rule reads: which service tests start the
// service through the shared helper, and what the package folders hold. (The import claims are ESLint's
// `no-restricted-imports` in eslint.config.js and test/protocol/layers.test.ts.)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, resolveRelative, specifiers } from './source-graph.ts';
import { ARCHITECTURE, hops, section, walkBreaks, walkSteps } from './architecture-walk.ts';

const HELPER = 'test/server/helpers/service.ts';
/** Modules that start the standalone service: a test that imports one starts it without the helper. */
const SERVICE_STARTERS = ['server/index.ts', 'server/cli.ts', 'server/service.ts'];

const serverTests = readdirSync(join(ROOT, 'test/server'))
  .filter((name) => name.endsWith('.test.ts'))
  .map((name) => `test/server/${name}`);

const imports = (file: string) =>
  specifiers(file)
    .filter((s) => s.startsWith('.'))
    .map((s) => resolveRelative(file, s));

test('a service test starts the service only through test/server/helpers/service.ts', () => {
  const wrong = serverTests.flatMap((file) => {
    const text = readFileSync(join(ROOT, file), 'utf8');
    const starters = imports(file).filter((target) => SERVICE_STARTERS.includes(target));
    const spawned = /spawn\([^)]*(cli\.ts|store-service)/.test(text) ? ['spawns the service'] : [];
    return [...starters, ...spawned].map((what) => `${file}: ${what}`);
  });
  assert.deepEqual(wrong, []);
});

test('the service tests that run without the helper are the ones CONVENTIONS.md names, each testing one part', () => {
  const withoutHelper = serverTests.filter((file) => !imports(file).includes(HELPER)).map((f) => f.slice(12));
  const conventions = readFileSync(join(ROOT, 'CONVENTIONS.md'), 'utf8');
  const bullet = conventions.split('\n- ').find((b) => b.includes('helpers/service.ts'));
  assert.ok(bullet, 'CONVENTIONS.md has a bullet on test/server/helpers/service.ts');
  const named = [...bullet.matchAll(/`([\w-]+\.test\.ts)`/g)].map((m) => m[1]);
  assert.deepEqual(withoutHelper.sort(), named.sort());
});

test('packages/ holds only manifests, licences and bin shims that load the built code: no source', () => {
  const tracked = execFileSync('git', ['ls-files', 'packages'], { cwd: ROOT, encoding: 'utf8' }).split('\n');
  const wrong = tracked.filter(Boolean).filter((file) => {
    if (/^packages\/[\w-]+\/(package\.json|LICENSE)$/.test(file)) return false;
    if (!/^packages\/[\w-]+\/bin\/[\w-]+\.js$/.test(file)) return true;
    // A shim: a shebang, comments, and one import of the package's compiled `dist/`.
    const code = readFileSync(join(ROOT, file), 'utf8')
      .split('\n')
      .filter((line) => line.trim() && !line.startsWith('#!') && !line.startsWith('//'));
    return !(code.length === 1 && /^import '\.\.\/dist\/[\w/.-]+\.js';$/.test(code[0]!));
  });
  assert.deepEqual(wrong, []);
});

test("one page-side store: only headless/uploads-follower.ts listens to an uploader's changes, and the elements and the headless store stand on it", () => {
  const pageSide = ['src/elements', 'src/headless', 'src/react', 'src/vue', 'src/svelte', 'src/angular'];
  const listeners = pageSide
    .flatMap((dir) =>
      readdirSync(join(ROOT, dir), { recursive: true, encoding: 'utf8' })
        .filter((name) => name.endsWith('.ts'))
        .map((name) => `${dir}/${name}`),
    )
    // An uploader's `change` (an <input>'s is another matter: its listener is on `input`).
    .filter((file) => /(uploader|this)\??\.addEventListener\('change'/.test(readFileSync(join(ROOT, file), 'utf8')));
  assert.deepEqual(listeners, ['src/headless/uploads-follower.ts']);
  for (const file of ['src/elements/internal/uploader-controller.ts', 'src/headless/upload-store.ts'])
    assert.ok(imports(file).includes('src/headless/uploads-follower.ts'), `${file} stands on the follower`);
});

const table = hops(ARCHITECTURE);

test('the walk of a dropped file: at most 15 files, each existing, entered once, and leading to the next', () => {
  const steps = walkSteps(section(ARCHITECTURE, 'The walk of a dropped file'));
  assert.equal(steps[0], 'src/elements/dropzone/store-dropzone.ts');
  assert.equal(steps.at(-1), 'src/uploader/adapters/xhr-http.ts');
  assert.ok(steps.length <= 15, `${steps.length} steps`);
  assert.deepEqual(walkBreaks(steps, table), []);
  // The check can fail: the same files in another order, or a file off the path, break the walk.
  assert.notDeepEqual(walkBreaks([...steps].reverse(), table), []);
  assert.notDeepEqual(walkBreaks(steps.toSpliced(5, 0, 'src/uploader/engine/retry-policy.ts'), table), []);
});

test('the walk of a chunk PUT in the service: from the Node request to the content backend, each step leading to the next', () => {
  const steps = walkSteps(section(ARCHITECTURE, 'The walk of a chunk PUT in the service'));
  assert.equal(steps[0], 'server/http/node-adapter.ts');
  assert.ok(steps.at(-1)?.startsWith('server/content/'), `${steps.at(-1)} is not the content backend`);
  assert.ok(steps.length <= 8, `${steps.length} steps`);
  assert.deepEqual(walkBreaks(steps, table), []);
  assert.notDeepEqual(walkBreaks([...steps].reverse(), table), []);
});
