/**
 * Builds what `@store-upload-kit/service` ships (its `prepack`, and `npm install`'s prepare): compiled JavaScript
 * and types from `server/` into `packages/store-service/dist/`, so `npx store-service` starts without tsx. The
 * service imports the wire definitions from `store-upload-kit/protocol`, resolved to the kit package, whose compiled
 * protocol entry is built first when missing.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '..');
const tsc = join(ROOT, 'node_modules/.bin/tsc');
const run = (args: string[]) => execFileSync(tsc, args, { cwd: ROOT, stdio: 'inherit' });

if (!existsSync(join(ROOT, 'packages/store-upload-kit/dist/lib/protocol/index.d.ts'))) run(['-p', 'tsconfig.lib.json']);
rmSync(join(ROOT, 'packages/store-service/dist'), { recursive: true, force: true });
run(['-p', 'tsconfig.service.json']);

// The package's README is the service's own (server/README.md) under an install line.
const serverReadme = readFileSync(join(ROOT, 'server/README.md'), 'utf8').replace(/^# .*\n/, '');
writeFileSync(
  join(ROOT, 'packages/store-service/README.md'),
  `# @store-upload-kit/service\n\nThe reference implementation of the store file service, for tests and local development of apps that use\n\`store-upload-kit\`: \`npm install -D @store-upload-kit/service\`, then \`npx store-service --admin\` (and\n\`npx store-relay\` for push to pages). Node 20 or later. MIT licensed.\n${serverReadme}`,
);
