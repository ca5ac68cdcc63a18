/** Public entry of the reference service. */
import type { AddressInfo } from 'node:net';
import type { ServiceConfig } from './config.ts';
import { createHttpsServer, type TlsIdentity } from './http/https-server.ts';
import { createHttpServer } from './http/node-adapter.ts';
import { createService } from './service.ts';
import type { Service } from './service-types.ts';

export type { ServiceConfig, TokenGrant } from './config.ts';
export { defaultConfig, loadConfigFile, parseConfig, DEV_TOKENS } from './config.ts';
export type { Service, ServiceOptions } from './service-types.ts';
export type { RouteModule } from './router.ts';
export { createService } from './service.ts';
export type { ApiRequest, ApiResponse, RequestBody } from './api-request.ts';
export { bufferedBody } from './api-request.ts';
export type { FileEvent, FileEventType, FileChange } from './events.ts';

/** Options of {@link startService}. */
export interface StartOptions {
  readonly port: number;
  readonly host: string;
  readonly dataDir: string;
  readonly config: ServiceConfig;
  readonly admin: boolean;
  /** Serve HTTPS (HTTP/2 and HTTP/1.1, chosen by ALPN) with this certificate instead of plain HTTP. */
  readonly https?: TlsIdentity;
}

/** A listening service. */
export interface RunningService {
  readonly url: string;
  readonly service: Service;
  /** Stops listening, drops open connections, closes the service. */
  close(): Promise<void>;
}

/** Creates the service and listens on HTTP, or on HTTPS with HTTP/2 when given a certificate. */
export async function startService(options: StartOptions): Promise<RunningService> {
  const service = await createService({ dataDir: options.dataDir, config: options.config, admin: options.admin });
  const server = options.https ? createHttpsServer(service, options.https) : createHttpServer(service);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const host = options.host.includes(':') ? `[${options.host}]` : options.host;
  return {
    url: `${options.https ? 'https' : 'http'}://${host}:${port}`,
    service,
    async close() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await service.close();
    },
  };
}
