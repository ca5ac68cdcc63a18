/**
 * Runs service test files against three nodes over a throwaway PostgreSQL and Ceph RGW, behind a round-robin proxy:
 * `node --import tsx test/cluster/on-cluster.ts test/server/uploads.test.ts …`. Starts both servers, runs Node's
 * test runner on the files with `STORE_TEST_DATABASE`, `STORE_TEST_CONTENT`, `STORE_TEST_NODES=3` and the AWS
 * variables set (`test/server/helpers/test-database.ts`), removes the servers, and exits with the runner's code.
 * `on-cluster.ts -- COMMAND ARG…` runs that command under the same variables instead (the browser suites:
 * `scripts/test-cluster-browser.sh`).
 */
import { spawn } from 'node:child_process';
import { startObjectStore, startPostgres } from './servers.ts';

const files = process.argv.slice(2);
const command = files[0] === '--' ? files.slice(1) : undefined;
if (files.length === 0 || command?.length === 0) {
  console.error('usage: on-cluster.ts TEST_FILE… | on-cluster.ts -- COMMAND ARG…');
  process.exit(2);
}
const testRunner = [
  process.execPath,
  '--import',
  'tsx',
  '--import',
  './test/node-test-limits.mjs',
  '--test',
  '--test-concurrency=1',
  ...files,
];
const [pg, rgw] = await Promise.all([startPostgres(), startObjectStore()]);
let code = 1;
try {
  const [program, ...args] = (command ?? testRunner) as [string, ...string[]];
  const child = spawn(program, args, {
    stdio: 'inherit',
    env: {
      ...process.env,
      ...rgw.env,
      STORE_TEST_DATABASE: pg.url,
      STORE_TEST_CONTENT: `s3://${rgw.bucket}/suites`,
      STORE_TEST_NODES: '3',
    },
  });
  code = await new Promise<number>((resolve) => child.once('exit', (c) => resolve(c ?? 1)));
} finally {
  await Promise.allSettled([pg.dispose(), rgw.dispose()]);
}
process.exit(code);
