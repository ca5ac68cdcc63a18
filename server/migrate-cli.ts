/**
 * `store-service migrate --data DIR --database postgres://… --content s3://BUCKET[/PREFIX]`: moves a stopped
 * single-machine service's data folder into the shared backends (`migrate.ts` says what moves). Prints one line of
 * what it moved; exits 1 with one line saying why when it cannot.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { openContent, parseContentUrl } from './content/index.ts';
import { openMetadata } from './metadata/index.ts';
import { migrateDataFolder } from './migrate.ts';

const USAGE =
  'usage: store-service migrate --data DIR --database postgres://USER:PASS@HOST:PORT/DB --content s3://BUCKET[/PREFIX]';

/** Runs the subcommand with its arguments (after `migrate`). */
export async function runMigrate(args: readonly string[]): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({
      args: [...args],
      options: { data: { type: 'string' }, database: { type: 'string' }, content: { type: 'string' } },
      strict: true,
    }));
  } catch (e) {
    console.error(`store-service migrate: ${(e as Error).message}\n${USAGE}`);
    return 2;
  }
  const { data, database, content } = values;
  if (!data || !database || !content || !/^postgres(ql)?:\/\//.test(database) || !content.startsWith('s3://')) {
    console.error(
      `store-service migrate: --data, --database postgres://… and --content s3://… are all needed\n${USAGE}`,
    );
    return 2;
  }
  if (!existsSync(join(data, 'store.db'))) {
    console.error(`store-service migrate: ${data} holds no store.db: not a store-service data folder`);
    return 1;
  }
  try {
    const source = await openMetadata({ dataDir: data });
    const target = await openMetadata({ postgres: database });
    const store = await openContent({ s3: parseContentUrl(content) });
    try {
      const report = await migrateDataFolder(source, data, target, store);
      const rows = Object.entries(report.rows)
        .map(([table, n]) => `${table} ${n}`)
        .join(', ');
      console.log(
        `store-service migrate: moved ${rows}; ${report.contentObjects} content objects (${report.contentBytes} bytes); ` +
          `${report.sessionsLeft} open resumable sessions left behind (their clients start again)`,
      );
      return 0;
    } finally {
      await Promise.allSettled([source.close(), target.close(), store.close()]);
    }
  } catch (e) {
    console.error(`store-service migrate: ${e instanceof Error ? e.message : String(e)}`);
    return 1;
  }
}
