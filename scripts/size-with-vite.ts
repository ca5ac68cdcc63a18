/**
 * The main thread up front as a Vite app ships it: `import 'store-upload-kit/elements'` built by Vite (Rolldown, its
 * own minifier, code splitting), then the entry chunk and the chunks it imports statically, each gzipped on its own.
 * `check-size` budgets esbuild's build of the same page; this line shows what the most common app bundler makes of
 * it (different chunking: Rolldown lets lazy chunks import from the entry instead of splitting shared modules off).
 * Reported only.
 */
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { build, type Rolldown } from 'vite';
import { minifyCssLiterals } from './css-literals.ts';

const ROOT = resolve(import.meta.dirname, '..');

export interface ViteUpFront {
  gzipBytes: number;
  /** Files the page fetches before anyone adds a file. */
  files: number;
}

export async function measureUpFrontWithVite(): Promise<ViteUpFront> {
  const entry = `import ${JSON.stringify(join(ROOT, 'src/elements/index.ts'))};`;
  const result = await build({
    root: ROOT,
    configFile: false,
    logLevel: 'silent',
    mode: 'production',
    plugins: [
      {
        name: 'page-entry',
        enforce: 'pre',
        resolveId: (id) => (id === 'virtual:page' ? '\0page' : undefined),
        load: (id) => (id === '\0page' ? entry : undefined),
        // The elements' styles as the package ships them (scripts/build-kit.ts minifies their css`…` text).
        transform: async (code, id) =>
          /\/src\/elements\/.*\.ts$/.test(id) ? { code: await minifyCssLiterals(code) } : undefined,
      },
    ],
    build: { write: false, modulePreload: false, rolldownOptions: { input: 'virtual:page' } },
  });
  const output = (Array.isArray(result) ? result[0] : result) as Rolldown.RolldownOutput;
  const chunks = new Map(
    output.output.filter((o): o is Rolldown.OutputChunk => o.type === 'chunk').map((c) => [c.fileName, c]),
  );
  const first = [...chunks.values()].find((c) => c.isEntry);
  if (!first) throw new Error('size-with-vite: no entry chunk');
  const loaded = new Set<string>();
  const queue = [first.fileName];
  while (queue.length) {
    const name = queue.pop()!;
    if (loaded.has(name)) continue;
    loaded.add(name);
    queue.push(...(chunks.get(name)?.imports ?? []));
  }
  let gzipBytes = 0;
  for (const name of loaded) gzipBytes += gzipSync(chunks.get(name)!.code, { level: 9 }).byteLength;
  return { gzipBytes, files: loaded.size };
}
