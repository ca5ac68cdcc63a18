/**
 * `npm run pack:tarballs [-- <dir>]`: packs both packages (each `prepack` builds what it ships) into `<dir>`
 * (default `dist/tarballs`) and prints the tarball paths as JSON: `{ "kit": "…tgz", "service": "…tgz" }`.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '..');

/** Packs one workspace into `dir`; returns the tarball's absolute path. */
export function pack(workspace: string, dir: string): string {
  mkdirSync(dir, { recursive: true });
  const out = execFileSync('npm', ['pack', '--json', '--workspace', workspace, '--pack-destination', dir], {
    cwd: ROOT,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const [info] = JSON.parse(out.slice(out.lastIndexOf('[\n  {'))) as { filename: string }[];
  return resolve(dir, info.filename);
}

if (process.argv[1] === import.meta.filename) {
  const dir = resolve(ROOT, process.argv[2] ?? 'dist/tarballs');
  const kit = pack('packages/store-upload-kit', dir);
  const service = pack('packages/store-service', dir);
  console.log(JSON.stringify({ kit, service }));
}
