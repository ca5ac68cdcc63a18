/** Starts the relay as an HTTPS server with its development certificate. */
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { ensureDevCertificates } from '../http/dev-certificates.ts';
import { createRelay, type RelayHandler, type RelayOptions } from './relay.ts';

/** Settings of `startRelay`. */
export interface StartRelayOptions extends Omit<RelayOptions, 'publicUrl'> {
  /** Port; 0 picks a free one. Default 8443. */
  port?: number;
  /** Host name to listen on and to put in addresses. Default `localhost`. */
  host?: string;
  /** Folder of the development CA and certificate. Default `.store-data/relay-certs`. */
  certDir?: string;
}

/** A running relay. */
export interface RunningRelay {
  server: Server;
  handler: RelayHandler;
  /** `https://<host>:<port>`. */
  url: string;
  port: number;
  /** CA certificate the service must trust (`trustCa`). */
  caPath: string;
  /** True when this start created a new CA. */
  createdCa: boolean;
  close(): Promise<void>;
}

/** Creates (or reuses) the certificates in `certDir`, then listens. */
export async function startRelay(options: StartRelayOptions = {}): Promise<RunningRelay> {
  const host = options.host ?? 'localhost';
  const certs = await ensureDevCertificates(options.certDir ?? '.store-data/relay-certs');
  let publicUrl = '';
  const handler = createRelay({
    ...options,
    get publicUrl() {
      return publicUrl;
    },
  });
  const server = createServer({ cert: certs.cert, key: certs.key }, handler);
  await new Promise<void>((resolveListen, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 8443, host, () => resolveListen());
  });
  const port = (server.address() as AddressInfo).port;
  const urlHost = host.includes(':') ? `[${host}]` : host;
  publicUrl = `https://${urlHost}:${port}`;
  return {
    server,
    handler,
    url: publicUrl,
    port,
    caPath: certs.caPath,
    createdCa: certs.createdCa,
    close: () =>
      new Promise<void>((resolveClose) => {
        handler.close();
        server.close(() => resolveClose());
        server.closeAllConnections();
      }),
  };
}
