/**
 * The repository's TypeScript files and their relative imports, read as text: what the layer, cycle and export
 * checks walk. Type-only imports count too (a cycle through types still ties two modules together).
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

/** The repository root. */
export const ROOT = resolve(import.meta.dirname, '../..');

/** Every `.ts`/`.tsx` file below `dir` (relative to the root), as root-relative paths. */
export function sources(dir: string): string[] {
  const abs = join(ROOT, dir);
  if (!existsSync(abs)) return [];
  const out: string[] = [];
  for (const name of readdirSync(abs)) {
    const path = join(abs, name);
    if (statSync(path).isDirectory()) out.push(...sources(relative(ROOT, path)));
    else if (/\.tsx?$/.test(name) && !name.endsWith('.d.ts')) out.push(relative(ROOT, path));
  }
  return out;
}

/** Module specifiers of a file's static and dynamic imports and re-exports. */
export function specifiers(file: string): string[] {
  const text = readFileSync(join(ROOT, file), 'utf8');
  const found: string[] = [];
  for (const m of text.matchAll(
    /(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)|^\s*import\s*['"]([^'"]+)['"]/gm,
  )) {
    found.push(m[1] ?? m[2] ?? m[3]);
  }
  return found;
}

/** The root-relative file a relative specifier of `file` names (`.js` written for a `.ts` source resolves to it). */
export function resolveRelative(file: string, spec: string): string {
  const target = relative(ROOT, resolve(ROOT, dirname(file), spec));
  if (existsSync(join(ROOT, target))) return target;
  return target.replace(/\.js$/, '.ts');
}

/** Import cycles among `files` (relative imports only), each as the list of files around it. */
export function cycles(files: readonly string[]): string[][] {
  const graph = new Map(
    files.map((f) => [
      f,
      specifiers(f)
        .filter((s) => s.startsWith('.'))
        .map((s) => resolveRelative(f, s)),
    ]),
  );
  const found: string[][] = [];
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (file: string): void => {
    state.set(file, 'open');
    stack.push(file);
    for (const next of graph.get(file) ?? []) {
      if (state.get(next) === 'open') found.push(stack.slice(stack.indexOf(next)).concat(next));
      else if (!state.has(next) && graph.has(next)) visit(next);
    }
    stack.pop();
    state.set(file, 'done');
  };
  for (const file of files) if (!state.has(file)) visit(file);
  return found;
}
