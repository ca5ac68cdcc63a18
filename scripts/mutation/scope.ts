// What the mutation run covers: the code that decides whether a byte is kept (issue 39). The share it reports is of
// the non-test lines of src/ (translations aside) and server/, counted as `wc -l` counts them.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

/** Folders and files mutated, relative to the repository. */
export const SCOPE = [
  'src/uploader/engine',
  'src/uploader/page',
  'src/uploader/adapters',
  'src/uploader/*.ts',
  'src/uploader/contract',
  'src/protocol',
  'src/client',
  'server/store',
  'server/metadata',
  'server/content',
  'server/http',
  'server/handlers',
  'server/batch',
  'server/handler',
  'server/*.ts',
] as const;

/**
 * Left out of the sample: the PostgreSQL and S3 backends run only in the cluster stage (PostgreSQL and Ceph started
 * from nothing, minutes a mutant); they count in the denominator of the share, not in the scope. The S3 backend's
 * chunk queue and part pipeline are out with it: only S3 content reaches them, so no node suite could judge them.
 */
export const LEFT_OUT = [
  'server/metadata/postgres-metadata.ts',
  'server/metadata/postgres-signals.ts',
  'server/content/s3-client.ts',
  'server/content/s3-content.ts',
  'server/content/s3-session-content.ts',
  'server/content/s3-staging.ts',
  'server/content/chunk-queue.ts',
  'server/content/part-pipeline.ts',
  // The watch and change-log handler joined the other handlers' folder; push delivery stays out of the scope.
  'server/handlers/push.ts',
];

/** The element catalogues of words: translations, not code (the i18n folder's code files stay counted). */
const I18N = 'src/elements/i18n/';
const I18N_CODE = new Set([
  'index',
  'direction',
  'plural',
  'merge',
  'resolve',
  'built-in-languages',
  'languages',
  'catalogue',
]);

/** Whether `path` (relative) is a translation. */
export function isTranslation(path: string): boolean {
  if (!path.startsWith(I18N)) return false;
  const name = path.slice(I18N.length).replace(/\.ts$/, '');
  return !name.includes('/') && !I18N_CODE.has(name);
}

/** Every `.ts` file below `dir`, relative to `root`, sorted. */
export function tsFiles(root: string, dir: string): string[] {
  return filesUnder(root, dir, ['.ts']);
}

/**
 * Every file below `dir` ending in one of `extensions` (declaration files aside), relative to `root`, sorted; `dir`
 * itself when it names such a file.
 */
export function filesUnder(root: string, dir: string, extensions: readonly string[]): string[] {
  const found: string[] = [];
  if (!existsSync(join(root, dir))) return found;
  if (!statSync(join(root, dir)).isDirectory()) return extensions.some((e) => dir.endsWith(e)) ? [dir] : [];
  const walk = (at: string): void => {
    for (const entry of readdirSync(at, { withFileTypes: true })) {
      const path = join(at, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (extensions.some((e) => entry.name.endsWith(e)) && !entry.name.endsWith('.d.ts')) {
        found.push(relative(root, path));
      }
    }
  };
  walk(join(root, dir));
  return found.sort();
}

/** The files `patterns` name (a folder, or `folder/*.ts` for that folder's own files), less {@link LEFT_OUT}. */
export function scopeFiles(root: string, patterns: readonly string[] = SCOPE, leftOut = LEFT_OUT): string[] {
  const files = new Set<string>();
  for (const pattern of patterns) {
    if (pattern.endsWith('/*.ts')) {
      const dir = pattern.slice(0, -'/*.ts'.length);
      for (const f of tsFiles(root, dir)) if (!f.slice(dir.length + 1).includes('/')) files.add(f);
    } else if (statSync(join(root, pattern)).isDirectory()) {
      for (const f of tsFiles(root, pattern)) files.add(f);
    } else files.add(pattern);
  }
  for (const f of leftOut) files.delete(f);
  return [...files].sort();
}

/** Lines of a file as `wc -l` counts them. */
export function lineCount(root: string, path: string): number {
  return readFileSync(join(root, path), 'utf8').split('\n').length - 1;
}

/** The scope's lines against the non-test, non-translation lines of src/ and server/. */
export function scopeShare(root: string, files: readonly string[]): { scope: number; total: number; share: number } {
  const all = [...tsFiles(root, 'src'), ...tsFiles(root, 'server')].filter((f) => !isTranslation(f));
  const total = all.reduce((sum, f) => sum + lineCount(root, f), 0);
  const scope = files.reduce((sum, f) => sum + lineCount(root, f), 0);
  return { scope, total, share: scope / total };
}
