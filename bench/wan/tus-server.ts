/**
 * A tus server (@tus/server with @tus/file-store) for the WAN bench's peers, over HTTPS with HTTP/2 and HTTP/1.1 on
 * the same certificate and the same windows as the store service, so tus-js-client and Uppy meet the same link and
 * transport as the kit. Uploads land in `<dir>/<id>` (the bench checks their bytes there).
 */
import { createSecureServer, type Http2ServerRequest, type Http2ServerResponse } from 'node:http2';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { FileStore } from '@tus/file-store';
import { Server } from '@tus/server';

/** The path uploads are created under. */
export const TUS_PATH = '/files';

/** Starts the server on a free port; `seen` hears every request. */
export async function startTusServer(
  tls: { cert: string; key: string },
  dir: string,
  seen: (req: Http2ServerRequest) => void,
): Promise<{ port: number; close(): void }> {
  // A relative Location (the clients resolve it against their endpoint): behind the link the host the server sees
  // is not the one the browser used, and HTTP/2 requests carry no Host header.
  const tus = new Server({
    path: TUS_PATH,
    datastore: new FileStore({ directory: dir }),
    generateUrl: (_req, { path, id }) => `${path}/${id}`,
  });
  const server = createSecureServer(
    { cert: tls.cert, key: tls.key, allowHTTP1: true, settings: { initialWindowSize: 8 * 1024 * 1024 } },
    (req: Http2ServerRequest, res: Http2ServerResponse) => {
      seen(req);
      void tus.handle(req as unknown as IncomingMessage, res as unknown as ServerResponse);
    },
  );
  server.on('session', (session) => session.setLocalWindowSize(32 * 1024 * 1024));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { port: (server.address() as AddressInfo).port, close: () => server.close() };
}
