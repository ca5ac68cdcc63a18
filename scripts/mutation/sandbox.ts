// A copy of the repository's tracked files with the scope replaced by StrykerJS's instrumented code: every mutant is
// compiled in once, behind a switch that the environment variable `__STRYKER_ACTIVE_MUTANT__` turns on in every
// process that loads it (the test's own and the service it spawns), and every mutant reached is counted.
import { execFileSync } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import { createInstrumenter } from '@stryker-mutator/instrumenter';
import type { Mutant } from '@stryker-mutator/api/core';

/** A mutant as the run keeps it: where it is and what it does, enough to show and to key a cached result. */
export interface MutantInfo {
  readonly id: string;
  readonly file: string;
  readonly line: number;
  readonly column: number;
  readonly endLine: number;
  readonly endColumn: number;
  readonly mutator: string;
  readonly replacement: string;
  /** The source line(s) it replaces, for the report. */
  readonly original: string;
}

const quiet = {
  isTraceEnabled: () => false,
  isDebugEnabled: () => false,
  isInfoEnabled: () => false,
  isWarnEnabled: () => false,
  isErrorEnabled: () => false,
  isFatalEnabled: () => false,
  trace() {},
  debug() {},
  info() {},
  warn() {},
  error() {},
  fatal() {},
};

/** Instruments `files` (relative to `root`) and returns their new text and their mutants. */
export async function instrument(
  root: string,
  files: readonly string[],
): Promise<{ texts: Map<string, string>; mutants: MutantInfo[] }> {
  // The instrumenter only needs a logger from Stryker's injector.
  const injector = { injectClass: (Class: new (logger: typeof quiet) => unknown) => new Class(quiet) };
  const provider = { provideValue: () => provider, injectClass: injector.injectClass };
  const instrumenter = createInstrumenter(provider as never) as {
    instrument(
      files: { name: string; content: string; mutate: boolean }[],
      options: { plugins: null; excludedMutations: string[]; ignorers: never[] },
    ): Promise<{ files: readonly { name: string; content: string }[]; mutants: readonly Mutant[] }>;
  };
  const sources = new Map(files.map((f) => [f, readFileSync(join(root, f), 'utf8')]));
  const result = await instrumenter.instrument(
    files.map((name) => ({ name, content: sources.get(name)!, mutate: true })),
    { plugins: null, excludedMutations: [], ignorers: [] },
  );
  const texts = new Map(result.files.map((f) => [f.name, f.content]));
  const mutants = result.mutants
    .filter((m) => m.status === undefined)
    .map((m): MutantInfo => {
      const lines = sources.get(m.fileName)!.split('\n');
      return {
        id: m.id,
        file: m.fileName,
        // StrykerJS's positions are 0-based; the report's lines are the editor's.
        line: m.location.start.line + 1,
        column: m.location.start.column + 1,
        endLine: m.location.end.line + 1,
        endColumn: m.location.end.column + 1,
        mutator: m.mutatorName,
        replacement: m.replacement,
        original: lines
          .slice(m.location.start.line, m.location.end.line + 1)
          .join('\n')
          .trim(),
      };
    });
  return { texts, mutants };
}

/** Writes the sandbox at `dir`: the tracked files of `root`, its node_modules linked, `texts` over the originals. */
export function writeSandbox(root: string, dir: string, texts: ReadonlyMap<string, string>): void {
  rmSync(dir, { recursive: true, force: true });
  const tracked = execFileSync('git', ['ls-files', '-z'], { cwd: root, encoding: 'utf8' }).split('\0').filter(Boolean);
  for (const file of tracked) {
    const to = join(dir, file);
    mkdirSync(dirname(to), { recursive: true });
    try {
      copyFileSync(join(root, file), to);
    } catch {
      // A tracked file deleted in the work tree.
    }
  }
  // Untracked files under the scope would be missing from the copy: copy what we instrumented in any case.
  for (const [file, text] of texts) {
    mkdirSync(dirname(join(dir, file)), { recursive: true });
    writeFileSync(join(dir, file), text);
  }
  symlinkSync(nodeModules(root), join(dir, 'node_modules'));
}

/** The node_modules `root` resolves packages from: its own or the nearest above it. */
function nodeModules(root: string): string {
  for (let at = root; ; at = dirname(at)) {
    if (existsSync(join(at, 'node_modules'))) return realpathSync(join(at, 'node_modules'));
    if (dirname(at) === at) throw new Error(`no node_modules at or above ${root}`);
  }
}
