/**
 * The walks ARCHITECTURE.md writes out (a dropped file to its PUT, a chunk PUT in the service) and its table of the
 * hops the import graph does not show, read as data, and the check that a walk's steps follow one another.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, resolveRelative, specifiers } from './source-graph.ts';

export const ARCHITECTURE = readFileSync(join(ROOT, 'ARCHITECTURE.md'), 'utf8');

/** The text under `## title`, up to the next section. */
export function section(doc: string, title: string): string {
  const start = doc.indexOf(`\n## ${title}\n`);
  if (start < 0) throw new Error(`ARCHITECTURE.md has no section "${title}"`);
  const end = doc.indexOf('\n## ', start + 1);
  return doc.slice(start, end < 0 ? undefined : end);
}

/** A walk's steps: the path each numbered line starts with, in order. */
export function walkSteps(text: string): string[] {
  return [...text.matchAll(/^\d+\. `([^`]+)`/gm)].map((m) => m[1]!);
}

/** One hop of the table: files matching `from` reach files matching `to`. */
export interface Hop {
  from: RegExp;
  to: RegExp;
  /** The `to` cell's files that name one file (no glob): where a walk may go on from. */
  targets: string[];
}

/** The table's paths are under `src/uploader/` unless they start with `src/` or `server/`; `*` and `**` are globs. */
function tablePaths(cell: string): string[] {
  return [...cell.matchAll(/`([\w./*-]+(?:\.ts|\/\*\*))`/g)].map((m) =>
    /^(src|server)\//.test(m[1]!) ? m[1]! : `src/uploader/${m[1]!}`,
  );
}

const globToRegExp = (glob: string): RegExp =>
  new RegExp(`^${glob.replace(/[.]/g, '\\.').replace(/\*\*/g, '\0').replace(/\*/g, '[^/]*').replace(/\0/g, '.*')}$`);

const anyOf = (paths: string[]): RegExp => new RegExp(paths.map((p) => globToRegExp(p).source).join('|'));

/** The rows of "Hops the import graph does not show": every file of the first cell to every file of the second. */
export function hops(doc: string): Hop[] {
  return section(doc, 'Hops the import graph does not show')
    .split('\n')
    .filter((line) => line.startsWith('| `'))
    .map((line) => {
      const [from, to] = line.slice(2).split(' | ');
      const fromPaths = tablePaths(from!);
      const toPaths = tablePaths(to!);
      if (!fromPaths.length || !toPaths.length) throw new Error(`a hop row names no file: ${line}`);
      return { from: anyOf(fromPaths), to: anyOf(toPaths), targets: toPaths.filter((p) => !p.includes('*')) };
    });
}

/** The files a file imports (static, dynamic, type-only, re-exports); the service names the protocol by package. */
function imported(file: string): string[] {
  if (!existsSync(join(ROOT, file))) return [];
  return specifiers(file).flatMap((spec) =>
    spec.startsWith('.')
      ? [resolveRelative(file, spec)]
      : spec === 'store-upload-kit/protocol'
        ? ['src/protocol/index.ts']
        : [],
  );
}

/**
 * Whether `from` leads to `to`: it imports it or reaches it through a hop of the table, directly or through at most
 * two modules in between that are no step of the walk (a chunk's entry, a lazy loader, a re-export).
 */
export function leadsTo(from: string, to: string, steps: readonly string[], table: readonly Hop[]): boolean {
  let frontier = [from];
  const seen = new Set(frontier);
  for (let depth = 0; depth < 3 && frontier.length; depth++) {
    const next: string[] = [];
    for (const file of frontier) {
      const onward = table.filter((hop) => hop.from.test(file));
      if (imported(file).includes(to) || onward.some((hop) => hop.to.test(to))) return true;
      for (const target of [...imported(file), ...onward.flatMap((hop) => hop.targets)])
        if (!seen.has(target) && !steps.includes(target)) {
          seen.add(target);
          next.push(target);
        }
    }
    frontier = next;
  }
  return false;
}

/** What is wrong with a walk: a step that is not a file, a step taken twice, a step that does not lead to the next. */
export function walkBreaks(steps: readonly string[], table: readonly Hop[]): string[] {
  const wrong: string[] = [];
  steps.forEach((step, i) => {
    if (!existsSync(join(ROOT, step))) wrong.push(`${step} does not exist`);
    if (steps.indexOf(step) !== i) wrong.push(`${step} is entered again at step ${i + 1}`);
    const next = steps[i + 1];
    if (next && !leadsTo(step, next, steps, table)) wrong.push(`${step} does not lead to ${next}`);
  });
  return wrong;
}
