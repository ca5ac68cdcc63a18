/**
 * The service as an earlier commit of this repository had it, for upgrade tests: its `server/` (with the protocol
 * it imports) taken out of git into a temp dir and started through tsx by `startService({ ...version.start })`,
 * over a data folder (or database and bucket) that the current version then takes over.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '../../..');

/** An earlier version, checked out. */
export interface PreviousVersion {
  /** What `startService` needs to start it. */
  readonly start: { readonly entry: string; readonly nodeArgs: readonly string[] };
  /** Removes the checkout. */
  dispose(): void;
}

/** Checks out `commit`'s service; throws, saying why, when git does not have it (a shallow clone). */
export function checkOutService(commit: string): PreviousVersion {
  const dir = mkdtempSync(join(tmpdir(), 'store-previous-'));
  const archive = spawnSync('git', ['-C', ROOT, 'archive', commit, 'server', 'src/protocol', 'package.json'], {
    maxBuffer: 64 * 1024 * 1024,
  });
  if (archive.status !== 0) {
    rmSync(dir, { recursive: true, force: true });
    throw new Error(`git archive ${commit} failed (a shallow clone lacks it): ${archive.stderr.toString().trim()}`);
  }
  const tar = spawnSync('tar', ['-x', '-C', dir], { input: archive.stdout });
  if (tar.status !== 0) throw new Error(`tar failed: ${tar.stderr.toString().trim()}`);
  // Its dependencies are this checkout's (the same lockfile); the protocol is its own, not today's.
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'));
  const protocol = join(dir, 'src/protocol/index.ts');
  for (const file of readdirSync(join(dir, 'server'), { recursive: true, encoding: 'utf8' })) {
    if (!file.endsWith('.ts')) continue;
    const path = join(dir, 'server', file);
    const own = `'./${relative(dirname(path), protocol)}'`.replace("'./../", "'../");
    writeFileSync(path, readFileSync(path, 'utf8').replaceAll("'store-upload-kit/protocol'", own));
  }
  return {
    start: { entry: join(dir, 'server/cli.ts'), nodeArgs: ['--import', 'tsx'] },
    dispose: () => rmSync(dir, { recursive: true, force: true }),
  };
}
