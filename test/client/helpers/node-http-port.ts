// The engine's HTTP port over node:http, so the engine tests run in Node against the real service with real
// progress reporting (fetch in Node has no upload progress, and the stall guard needs it).
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { HttpHooks, HttpPort, HttpRequest, HttpResponse } from '../../../src/uploader/contract/ports.ts';

export const nodeHttp: HttpPort = {
  send(req: HttpRequest, hooks: HttpHooks): Promise<HttpResponse> {
    return new Promise((resolve, reject) => {
      if (hooks.signal.aborted) return reject(hooks.signal.reason);
      const pieces = (req.body ?? []).map((piece) =>
        typeof piece === 'string' ? new TextEncoder().encode(piece) : piece,
      );
      const length = pieces.reduce((sum, piece) => sum + (piece instanceof Blob ? piece.size : piece.length), 0);
      const url = new URL(req.url);
      const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
      const outgoing = send(url, { method: req.method, headers: { ...req.headers, 'content-length': String(length) } });
      const onAbort = () =>
        outgoing.destroy(hooks.signal.reason instanceof Error ? hooks.signal.reason : new Error('aborted'));
      hooks.signal.addEventListener('abort', onAbort, { once: true });
      const fail = (error: Error) => {
        hooks.signal.removeEventListener('abort', onAbort);
        reject(hooks.signal.aborted ? hooks.signal.reason : error);
      };
      outgoing.on('error', fail);
      outgoing.on('response', (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('error', fail);
        res.on('end', () => {
          hooks.signal.removeEventListener('abort', onAbort);
          resolve({
            status: res.statusCode ?? 0,
            header: (name) => {
              const value = res.headers[name.toLowerCase()];
              return value === undefined ? null : Array.isArray(value) ? value.join(', ') : value;
            },
            text: Buffer.concat(chunks).toString('utf8'),
          });
        });
      });
      void (async () => {
        let sent = 0;
        try {
          for (const piece of pieces) {
            const chunks = (piece instanceof Blob ? piece.stream() : [piece]) as unknown as AsyncIterable<Uint8Array>;
            for await (const chunk of chunks) {
              if (outgoing.destroyed) return;
              if (!outgoing.write(chunk)) await new Promise((r) => outgoing.once('drain', r));
              sent += chunk.length;
              hooks.onProgress?.(sent);
            }
          }
          outgoing.end();
        } catch (error) {
          outgoing.destroy(error as Error);
        }
      })();
    });
  },
};
