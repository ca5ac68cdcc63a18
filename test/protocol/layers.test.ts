// Imports point down the layers, never up: protocol ← client ← uploader ← elements; the service sees protocol only,
// and only as its package's users do, through the kit's published `store-upload-kit/protocol` entry.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve, dirname } from 'node:path';

const root = resolve(import.meta.dirname, '../..');

/** Every `.ts` file below `dir`, as paths relative to the repository root. */
function sources(dir: string): string[] {
  const abs = join(root, dir);
  let out: string[] = [];
  let entries: string[];
  try {
    entries = readdirSync(abs);
  } catch {
    return out;
  }
  for (const name of entries) {
    const path = join(abs, name);
    if (statSync(path).isDirectory()) out = out.concat(sources(relative(root, path)));
    else if (name.endsWith('.ts')) out.push(relative(root, path));
  }
  return out;
}

/** Module specifiers of static and dynamic imports and re-exports. */
function specifiers(file: string): string[] {
  const text = readFileSync(join(root, file), 'utf8');
  const found: string[] = [];
  for (const m of text.matchAll(
    /(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)|^\s*import\s*['"]([^'"]+)['"]/gm,
  )) {
    found.push(m[1] ?? m[2] ?? m[3]);
  }
  return found;
}

/** The top folder of the repository a relative import lands in (`src/client`, `server`, …). */
function layerOf(file: string, spec: string): string {
  const target = relative(root, resolve(root, dirname(file), spec));
  const parts = target.split('/');
  return parts[0] === 'src' ? `src/${parts[1]}` : parts[0];
}

const rules: Record<string, { layers: string[]; packages: boolean; node: boolean }> = {
  'src/protocol': { layers: ['src/protocol'], packages: false, node: false },
  'src/client': { layers: ['src/protocol', 'src/client'], packages: true, node: false },
  'src/uploader': { layers: ['src/protocol', 'src/client', 'src/uploader'], packages: true, node: false },
  // The elements stand on the headless core: its intake (drop, paste, folders, handles, restrictions) is theirs too.
  'src/elements': {
    layers: ['src/protocol', 'src/client', 'src/uploader', 'src/headless', 'src/elements'],
    packages: true,
    node: false,
  },
  // The headless core for apps' own UIs: the uploader's facade and types, nothing of the elements (no Lit).
  'src/headless': { layers: ['src/uploader', 'src/headless'], packages: false, node: false },
  'src/react': { layers: ['src/elements', 'src/headless', 'src/react'], packages: true, node: false },
  'src/vue': { layers: ['src/elements', 'src/headless', 'src/vue'], packages: true, node: false },
  'src/svelte': { layers: ['src/elements', 'src/headless', 'src/svelte'], packages: true, node: false },
  'src/angular': { layers: ['src/headless', 'src/angular'], packages: true, node: false },
  server: { layers: ['server'], packages: true, node: true },
};

/** Layer pairs where the lower layer's modules may be named directly (for code splitting; see below). */
const DIRECT_OK = new Set([
  'src/client → src/protocol',
  'src/uploader → src/protocol',
  'src/uploader → src/client',
  // The intake loads in chunks of its own (the folder walk, the restrictions): named by module, as the uploader's.
  'src/elements → src/headless',
]);
/**
 * Single modules of a lower layer that a higher one may name directly, for the same reason: the elements ask whether
 * uploads were left unfinished before they load the uploader, and through `src/uploader/index.ts` a bundler that
 * splits by file (esbuild) would put the whole uploader facade into every page's first chunk. The facade they load
 * on demand names its two modules, or esbuild counts every module the entry re-exports as reached from it. And the
 * navigation hold: the dropzone and the uploader element hold a leaving page from the pick until the uploader has the
 * files, before the uploader has loaded.
 */
const DIRECT_MODULES = new Set([
  'src/uploader/contract/stored-sessions.ts',
  'src/uploader/page/navigation-hold.ts',
  'src/uploader/page/create-uploader.ts',
  'src/uploader/page/before-upload-loader.ts',
]);

/** The kit's entries a layer may import by package name (the service is a separate package that depends on the kit). */
const KIT_ENTRIES: Record<string, readonly string[]> = { server: ['store-upload-kit/protocol'] };

for (const [layer, rule] of Object.entries(rules)) {
  test(`${layer} imports only ${rule.layers.join(', ')}${rule.node ? ' and node:' : ''}`, () => {
    const wrong: string[] = [];
    for (const file of sources(layer)) {
      for (const spec of specifiers(file)) {
        if (spec.startsWith('.')) {
          const target = layerOf(file, spec);
          if (!rule.layers.includes(target)) wrong.push(`${file} → ${spec}`);
          // Another layer is reached through its one public entry (CONVENTIONS.md), never its internals — except
          // that the client and the uploader may name the protocol's and the client's modules directly, so that a
          // chunk loaded on demand (the batch codec, downloads, the hasher) stays out of the worker's first load.
          else if (
            target !== layer &&
            !DIRECT_OK.has(`${layer} → ${target}`) &&
            !DIRECT_MODULES.has(relative(root, resolve(root, dirname(file), spec))) &&
            !relative(root, resolve(root, dirname(file), spec)).endsWith(`${target}/index.ts`)
          ) {
            wrong.push(`${file} → ${spec} (not ${target}/index.ts)`);
          }
        } else if (spec.startsWith('node:')) {
          if (!rule.node) wrong.push(`${file} → ${spec}`);
        } else if (!rule.packages) {
          wrong.push(`${file} → ${spec}`);
        } else if (/^store-upload-kit(\/|$)/.test(spec) && !(KIT_ENTRIES[layer] ?? []).includes(spec)) {
          wrong.push(`${file} → ${spec}`);
        }
      }
    }
    assert.deepEqual(wrong, []);
  });
}

/**
 * The uploader is laid out by thread (ARCHITECTURE.md): `page/` runs on the main thread, `worker/` holds the upload
 * worker's entries and their comlink services (and, in `worker/hash-worker/`, the hash worker's), `engine/` the upload
 * state machine, `adapters/` the ports' implementations, and `contract/` what the threads share: types, ports,
 * options, settings, the worker contract, errors, timeouts. What the page loads must not pull the engine, the worker
 * or an adapter onto the main thread (type-only imports cost nothing); the engine sees only its own modules, the
 * contract, the client and the protocol.
 */
const UPLOADER = 'src/uploader';
const CONTRACT = `${UPLOADER}/contract/`;

/** Value imports (not `import type`) of a file, as repository paths. */
function valueImports(file: string): string[] {
  const text = readFileSync(join(root, file), 'utf8');
  const found: string[] = [];
  for (const m of text.matchAll(
    /(?:import|export)\s(?!type\s)[^'"]*?from\s*['"](\.[^'"]+)['"]|import\(\s*['"](\.[^'"]+)['"]\s*\)|^\s*import\s*['"](\.[^'"]+)['"]/gm,
  )) {
    found.push(relative(root, resolve(root, dirname(file), m[1] ?? m[2] ?? m[3])));
  }
  return found;
}

/** Every relative import of `file`, type-only ones included, as repository paths. */
function relativeImports(file: string): string[] {
  return specifiers(file)
    .filter((spec) => spec.startsWith('.'))
    .map((spec) => relative(root, resolve(root, dirname(file), spec)));
}

test('the page half of the uploader loads no engine, worker or adapter module onto the main thread', () => {
  const seen = new Set<string>();
  const queue = sources(`${UPLOADER}/page`);
  const wrong: string[] = [];
  while (queue.length) {
    const file = queue.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    for (const target of valueImports(file)) {
      if (!target.startsWith(`${UPLOADER}/`)) continue;
      if (/^src\/uploader\/(engine|worker|adapters)\//.test(target)) wrong.push(`${file} → ${target}`);
      else queue.push(target);
    }
  }
  assert.deepEqual(wrong, []);
});

test('the contract between the threads (src/uploader/contract/) imports nothing of engine/, page/, worker/, adapters/', () => {
  const files = sources(CONTRACT);
  assert.ok(files.length > 0, `no files in ${CONTRACT}`);
  const wrong = files.flatMap((file) =>
    relativeImports(file)
      .filter((target) => target.startsWith(`${UPLOADER}/`) && !target.startsWith(CONTRACT))
      .map((target) => `${file} → ${target}`),
  );
  assert.deepEqual(wrong, []);
  // The uploader's own top level holds the public entry only: a shared module belongs in contract/.
  const top = sources(UPLOADER).filter((f) => !f.slice(UPLOADER.length + 1).includes('/'));
  assert.deepEqual(top, [`${UPLOADER}/index.ts`]);
});

test('page/ names no module of the worker folder, not even a type: it starts the workers from a URL', () => {
  const wrong = sources(`${UPLOADER}/page`).flatMap((file) =>
    relativeImports(file)
      .filter((target) => target.startsWith(`${UPLOADER}/worker/`))
      .map((target) => `${file} → ${target}`),
  );
  assert.deepEqual(wrong, []);
  // What it does name of the worker: the entries it starts, as `new URL('../worker/….js', import.meta.url)`.
  const started = sources(`${UPLOADER}/page`).flatMap((file) =>
    [...readFileSync(join(root, file), 'utf8').matchAll(/new URL\(\s*'([^']+)',\s*import\.meta\.url\)/g)].map((m) =>
      relative(root, resolve(root, dirname(file), m[1].replace(/\.js$/, '.ts'))),
    ),
  );
  assert.deepEqual(started.filter((target) => target.startsWith(`${UPLOADER}/worker/`)).sort(), [
    `${UPLOADER}/worker/shared-worker.ts`,
    `${UPLOADER}/worker/worker.ts`,
  ]);
});

test('the engine imports only itself, the uploader contract, the client and the protocol', () => {
  const wrong: string[] = [];
  for (const file of sources(`${UPLOADER}/engine`)) {
    for (const spec of specifiers(file)) {
      if (!spec.startsWith('.')) continue;
      const target = relative(root, resolve(root, dirname(file), spec));
      const ok =
        target.startsWith(`${UPLOADER}/engine/`) ||
        target.startsWith(CONTRACT) ||
        /^src\/(client|protocol)\//.test(target);
      if (!ok) wrong.push(`${file} → ${spec}`);
    }
  }
  assert.deepEqual(wrong, []);
});

/**
 * Inside the service the transport is the top: `server/http/` turns Node's requests into the request model
 * (`server/api-request.ts`) and is started only by the entries that start a server. The stores are the bottom: they
 * hold rows and bytes and see no request-handling module. What both share, the request model and the errors, sits
 * at the top of `server/` (server/README.md, "Layout").
 */
const SERVER_ENTRIES = ['server/index.ts', 'server/cli.ts', 'server/relay/start.ts'];
/** The service mounted in an app's own server (`createStoreHandler`): an entry too, of its own folder. */
const MOUNTED_ENTRY = 'server/handler/';
const ABOVE_THE_STORES = [
  'server/http/',
  'server/handlers/',
  'server/handlers/',
  'server/handlers/',
  'server/batch/',
  'server/push/',
  'server/dispatch.ts',
  'server/router.ts',
  'server/context.ts',
];

/** Every relative import of the service's files, as `[importing file, imported repository path]`. */
function serverImports(): [string, string][] {
  return sources('server').flatMap((file) =>
    specifiers(file)
      .filter((spec) => spec.startsWith('.'))
      .map((spec): [string, string] => [file, relative(root, resolve(root, dirname(file), spec))]),
  );
}

test("the service's transport (server/http/) is imported only by the entries that start a server", () => {
  const wrong = serverImports()
    .filter(([file, target]) => target.startsWith('server/http/') && !file.startsWith('server/http/'))
    .filter(([file]) => !SERVER_ENTRIES.includes(file) && !file.startsWith(MOUNTED_ENTRY))
    .map(([file, target]) => `${file} → ${target}`);
  assert.deepEqual(wrong, []);
});

test("the service's stores (server/store/) import no transport, route, handler or dispatch module", () => {
  const wrong = serverImports()
    .filter(([file, target]) => file.startsWith('server/store/') && ABOVE_THE_STORES.some((m) => target.startsWith(m)))
    .map(([file, target]) => `${file} → ${target}`);
  assert.deepEqual(wrong, []);
});

test("the service's request handlers are in one folder (server/handlers/): no route is added anywhere else", () => {
  const adding = sources('server')
    .filter((file) => /\brouter\.add\(/.test(readFileSync(join(root, file), 'utf8')))
    .filter((file) => !file.startsWith('server/handlers/'));
  assert.deepEqual(adding, []);
});
