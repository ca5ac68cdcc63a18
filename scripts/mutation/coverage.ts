// Which mutants each test file reaches: every test file run once in the sandbox with no mutant on, its processes'
// counters collected by coverage-hook.mjs. A file that fails with no mutant on cannot judge one and is set aside.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type FileRun, runFile, type RunOptions } from './run-file.ts';

/** What the coverage run learnt of one test file. */
export interface FileCoverage {
  readonly file: string;
  readonly outcome: 'pass' | 'fail' | 'timeout';
  readonly ms: number;
  /** Mutant ids it reached. */
  readonly mutants: readonly string[];
  readonly tail?: string;
}

/** The hash of a file's text (the empty string for a missing file). */
export function fileHash(root: string, file: string): string {
  const path = join(root, file);
  return createHash('sha256')
    .update(existsSync(path) ? readFileSync(path) : '')
    .digest('hex');
}

/**
 * The coverage of `files`, from `cacheFile` where the key (the scope's text, the helpers', the file's own) is
 * unchanged, otherwise by running them one at a time.
 */
export async function coverageOf(options: {
  root: string;
  sandbox: string;
  files: readonly string[];
  scopeKey: string;
  cacheFile: string;
  log: (line: string) => void;
  /** How one file runs: a node:test file by default; the browser lane's runs web-test-runner. */
  run?: (options: RunOptions) => Promise<FileRun>;
}): Promise<FileCoverage[]> {
  const run = options.run ?? runFile;
  const cache = (existsSync(options.cacheFile) ? JSON.parse(readFileSync(options.cacheFile, 'utf8')) : {}) as Record<
    string,
    FileCoverage & { key: string }
  >;
  const result: FileCoverage[] = [];
  for (const file of options.files) {
    const key = createHash('sha256').update(options.scopeKey).update(fileHash(options.sandbox, file)).digest('hex');
    const cached = cache[file];
    if (cached?.key === key) {
      result.push(cached);
      continue;
    }
    const dir = mkdtempSync(join(tmpdir(), 'mutation-coverage-'));
    try {
      const ran = await run({ sandbox: options.sandbox, file, timeoutMs: 15 * 60_000, coverageDir: dir });
      const reached = new Set<string>();
      for (const name of readdirSync(dir)) {
        for (const id of JSON.parse(readFileSync(join(dir, name), 'utf8')) as string[]) reached.add(id);
      }
      const entry = { file, outcome: ran.outcome, ms: ran.ms, mutants: [...reached], key };
      const shown = ran.outcome === 'pass' ? entry : { ...entry, tail: ran.tail.slice(-1500) };
      options.log(`coverage ${file}: ${ran.outcome} in ${(ran.ms / 1000).toFixed(1)} s, ${reached.size} mutants`);
      cache[file] = shown;
      result.push(shown);
      mkdirSync(join(options.cacheFile, '..'), { recursive: true });
      writeFileSync(options.cacheFile, JSON.stringify(cache));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  return result;
}
