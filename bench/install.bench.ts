/**
 * What `npm install store-upload-kit` costs a browser app: the kit is packed (its prepack builds what it ships) and
 * installed from the tarball into an empty app, three times into fresh folders sharing npm's cache (the first
 * install fills the cache, as a user's registry fetch would; the median is reported). Counted: packages added, file
 * bytes on disk (apparent size, not blocks), seconds, and whether anything ran a native build.
 * Targets (issue 9): no native build, < 10 MB installed, < 20 packages; the 10 MB fails the run (issue 31).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pack } from '../scripts/pack.ts';
import type { BenchResult } from './types.ts';

/** Every package folder under `node_modules` (scoped ones included, nested ones too). */
function packageDirs(modules: string): string[] {
  if (!existsSync(modules)) return [];
  const out: string[] = [];
  for (const name of readdirSync(modules)) {
    if (name.startsWith('.')) continue;
    const path = join(modules, name);
    if (name.startsWith('@')) out.push(...packageDirs(path));
    else if (existsSync(join(path, 'package.json'))) out.push(path, ...packageDirs(join(path, 'node_modules')));
  }
  return out;
}

/** Apparent size in bytes of every file below `dir`. */
function bytesBelow(dir: string): number {
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) total += bytesBelow(path);
    else if (entry.isFile()) total += statSync(path).size;
  }
  return total;
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

export default async function (): Promise<BenchResult> {
  const work = mkdtempSync(join(tmpdir(), 'install-bench-'));
  try {
    const tarball = pack('packages/store-upload-kit', join(work, 'tarballs'));
    const seconds: number[] = [];
    let packages = 0;
    let bytes = 0;
    let nativeBuild = false;
    for (let i = 0; i < 3; i++) {
      const app = join(work, `app-${i}`);
      execFileSync('mkdir', ['-p', app]);
      writeFileSync(join(app, 'package.json'), JSON.stringify({ name: `app-${i}`, private: true, type: 'module' }));
      const started = performance.now();
      const log = execFileSync('npm', ['install', '--no-audit', '--no-fund', '--foreground-scripts', tarball], {
        cwd: app,
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      seconds.push((performance.now() - started) / 1000);
      const dirs = packageDirs(join(app, 'node_modules'));
      packages = dirs.length;
      bytes = bytesBelow(join(app, 'node_modules'));
      nativeBuild ||=
        /node-gyp|prebuild-install|gyp info/.test(log) || dirs.some((d) => existsSync(join(d, 'binding.gyp')));
      console.error(`install: ${packages} packages, ${(bytes / 1e6).toFixed(2)} MB, ${seconds.at(-1)!.toFixed(1)} s`);
    }
    const megabytes = Number((bytes / 1e6).toFixed(2));
    return {
      name: 'install',
      metrics: {
        packages,
        megabytes,
        secondsMedian: Number(median(seconds).toFixed(2)),
        secondsAll: seconds.map((s) => s.toFixed(2)).join(' '),
        nativeBuild: String(nativeBuild),
      },
      targets: {
        'kit install: packages': { value: packages, target: '< 20', pass: packages < 20 },
        // Issue 31: a hard limit, with the headless bindings included.
        'kit install: MB of files': { value: megabytes, target: '< 10', pass: megabytes < 10, enforce: true },
        'kit install: native builds': { value: nativeBuild ? 1 : 0, target: 'none', pass: !nativeBuild },
      },
    };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
