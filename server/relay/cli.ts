/**
 * `store-relay`: serves the push relay over HTTPS for development.
 * Flags: `--port <n>` (8443), `--host <name>` (localhost), `--cert-dir <path>` (.store-data/relay-certs).
 */
import { parseArgs } from 'node:util';
import { startRelay } from './start.ts';

const { values } = parseArgs({
  options: {
    port: { type: 'string', default: '8443' },
    host: { type: 'string', default: 'localhost' },
    'cert-dir': { type: 'string', default: '.store-data/relay-certs' },
    help: { type: 'boolean', default: false },
  },
  strict: true,
});

if (values.help) {
  console.log('Usage: store-relay [--port 8443] [--host localhost] [--cert-dir .store-data/relay-certs]');
  process.exit(0);
}

const port = Number(values.port);
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`store-relay: --port must be a whole number from 0 to 65535, got '${values.port}'`);
  process.exit(2);
}

let relay;
try {
  relay = await startRelay({ port, host: values.host, certDir: values['cert-dir'] });
} catch (error) {
  // Unreadable or corrupt certificate files, or a port in use: say which, and exit instead of a stack trace.
  console.error(`store-relay: cannot start: ${(error as Error).message}`);
  process.exit(1);
}
console.log(`store-relay listening on ${relay.url}`);
console.log(`CA certificate${relay.createdCa ? ' (new)' : ''}: ${relay.caPath}`);
console.log(`Service config: trust this CA (trustCa) and list ${relay.url} as a verified and registered domain.`);

const stop = (): void => {
  void relay.close().then(() => process.exit(0));
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
