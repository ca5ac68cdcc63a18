/**
 * Runs service test files with every service's content in a throwaway Ceph RGW:
 * `node --import tsx test/cluster/on-object-store.ts test/server/resumable.test.ts …`. Starts the gateway, runs
 * Node's test runner on the files with `STORE_TEST_CONTENT` and the AWS variables set (`helpers/service.ts` passes
 * `--content`), removes the gateway, and exits with the runner's code.
 */
import { spawn } from 'node:child_process';
import { startObjectStore } from './servers.ts';

const files = process.argv.slice(2);
if (files.length === 0) {
  console.error('usage: on-object-store.ts TEST_FILE…');
  process.exit(2);
}
const rgw = await startObjectStore();
let code = 1;
try {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', '--import', './test/node-test-limits.mjs', '--test', '--test-concurrency=1', ...files],
    { stdio: 'inherit', env: { ...process.env, ...rgw.env, STORE_TEST_CONTENT: `s3://${rgw.bucket}/tests` } },
  );
  code = await new Promise<number>((resolve) => child.once('exit', (c) => resolve(c ?? 1)));
} finally {
  await rgw.dispose();
}
process.exit(code);
