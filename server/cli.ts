/** `store-service` command: flags, config, listen, one stdout line, clean shutdown on SIGTERM/SIGINT. */
// First: it keeps the young generation small, which must be set before the service's modules load.
import './young-generation-cli.ts';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { defaultConfig, loadConfigFile } from './config.ts';
import { ensureDevCertificates } from './http/dev-certificates.ts';
import { startService } from './index.ts';

const USAGE =
  'usage: store-service [--port N] [--host H] [--data DIR] [--config FILE] [--admin] [--https] [--storage-quota BYTES]\n' +
  '                     [--database postgres://USER:PASS@HOST:PORT/DB] [--content s3://BUCKET[/PREFIX]]';

// An error nobody owns is a bug: say so in one recognisable line (the test helper fails the test on it) and exit
// rather than run on in an unknown state. Every stream and handle is meant to have an owner that handles its errors.
for (const event of ['uncaughtException', 'unhandledRejection'] as const) {
  process.on(event, (e: unknown) => {
    console.error(`store-service: FATAL ${event}:`, e);
    process.exit(70);
  });
}

async function main(): Promise<void> {
  let values;
  try {
    ({ values } = parseArgs({
      options: {
        port: { type: 'string', default: '8080' },
        host: { type: 'string', default: '127.0.0.1' },
        data: { type: 'string', default: '.store-data' },
        config: { type: 'string' },
        admin: { type: 'boolean', default: false },
        https: { type: 'boolean', default: false },
        'storage-quota': { type: 'string' },
        database: { type: 'string' },
        content: { type: 'string' },
        help: { type: 'boolean', default: false },
      },
      strict: true,
    }));
  } catch (e) {
    console.error(`store-service: ${(e as Error).message}\n${USAGE}`);
    process.exit(2);
  }
  if (values.help) {
    console.log(USAGE);
    return;
  }
  const port = Number(values.port);
  if (!/^\d+$/.test(values.port) || port > 65535) {
    console.error(`store-service: --port must be 0–65535, got "${values.port}"`);
    process.exit(2);
  }
  let config;
  try {
    config = values.config ? loadConfigFile(values.config) : defaultConfig();
    const quota = values['storage-quota'];
    if (quota !== undefined && !/^\d{1,15}$/.test(quota))
      throw new Error(`--storage-quota must be a byte count, got "${quota}"`);
    // The flag wins over the config file's `storageQuotaBytes`, as a one-off for a run.
    if (quota !== undefined) config = { ...config, storageQuotaBytes: Number(quota) };
    if (values.content !== undefined && !values.content.startsWith('s3://'))
      throw new Error(`--content must be s3://BUCKET[/PREFIX], got "${values.content}"`);
    if (values.content !== undefined) config = { ...config, content: values.content };
  } catch (e) {
    console.error(`store-service: ${(e as Error).message}`);
    process.exit(2);
  }
  // --https: a development CA and a localhost certificate, created once and kept in the data directory.
  const tls = values.https ? await ensureDevCertificates(join(values.data, 'tls')) : undefined;
  // The flag wins over the config file's `database`.
  const database = values.database ?? config.database;
  if (database !== undefined && !/^postgres(ql)?:\/\//.test(database)) {
    console.error(`store-service: --database must be a postgres:// URL, got "${database}"`);
    process.exit(2);
  }
  let running;
  try {
    running = await startService({
      port,
      host: values.host,
      dataDir: values.data,
      config,
      admin: values.admin,
      https: tls,
      database,
    });
  } catch (e) {
    // A backend that cannot be reached or refuses the node: one readable line, never a half-started node.
    console.error(`store-service: cannot start: ${e instanceof Error ? e.message : String(e)}`);
    process.exit(1);
  }
  console.log(`store-service listening on ${running.url}`);
  if (tls) console.log(`CA certificate (trust it to reach the service over https): ${tls.caPath}`);
  let closing = false;
  const stop = () => {
    if (closing) return;
    closing = true;
    running.close().then(
      () => process.exit(0),
      (e: unknown) => {
        console.error('store-service: error while closing:', e);
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

if (process.argv[2] === 'migrate') {
  const { runMigrate } = await import('./migrate-cli.ts');
  process.exit(await runMigrate(process.argv.slice(3)));
} else {
  await main();
}
