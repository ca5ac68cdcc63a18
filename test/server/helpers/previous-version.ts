/**
 * The service as an earlier commit of this repository had it, for upgrade tests: its `server/` (with the protocol
 * it imports) unpacked into a temp dir and started through tsx by `startService({ ...version.start })`,
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

/**
 * Unpacks a previous service kept in `test/fixtures/previous-service/` (made with
 * `git archive <commit> server src/protocol package.json | gzip -9n`): a tarball rather than git history, so the test
 * runs on a shallow clone too.
 */
export function unpackService(archive: string): PreviousVersion {
  const dir = mkdtempSync(join(tmpdir(), 'store-previous-'));
  const tar = spawnSync('tar', ['-xzf', resolve(ROOT, 'test/fixtures/previous-service', archive), '-C', dir]);
  if (tar.status !== 0) {
    rmSync(dir, { recursive: true, force: true });
    throw new Error(`tar -xzf ${archive} failed: ${tar.stderr.toString().trim()}`);
  }
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
