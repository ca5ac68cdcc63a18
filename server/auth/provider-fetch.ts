/**
 * The `fetch` the provider libraries (jose, oauth4webapi) are given: Node's global `fetch` cannot be told to trust a
 * development CA, so this sends through `node:https` with Node's roots plus the configured ones, under a timeout.
 */
import { readFileSync } from 'node:fs';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent, request as httpsRequest } from 'node:https';
import { rootCertificates } from 'node:tls';

/** What jose's and oauth4webapi's `customFetch` pass. */
export interface ProviderFetchInit {
  readonly method?: string;
  readonly headers?: Headers | Record<string, string> | [string, string][];
  readonly body?: string | URLSearchParams | null;
  readonly signal?: AbortSignal | null;
}

/** A fetch for the provider's endpoints. */
export type ProviderFetch = (url: string, init?: ProviderFetchInit) => Promise<Response>;

/** A provider's answer larger than this is refused: a JWKS or an introspection answer is a few KiB. */
const MAX_BODY_BYTES = 1024 * 1024;

/** Reads the CA files (PEM); throws an Error naming the unreadable one. */
export function readCaFiles(paths: readonly string[]): string[] {
  return paths.map((path) => {
    try {
      return readFileSync(path, 'utf8');
    } catch (e) {
      throw new Error(`config: cannot read the CA file ${path} for the identity provider: ${(e as Error).message}`);
    }
  });
}

function responseOf(res: IncomingMessage, body: Buffer): Response {
  const headers = new Headers();
  for (const [name, value] of Object.entries(res.headers)) {
    for (const v of Array.isArray(value) ? value : value === undefined ? [] : [value]) headers.append(name, v);
  }
  const status = res.statusCode ?? 502;
  return new Response([101, 204, 205, 304].includes(status) ? null : new Uint8Array(body), { status, headers });
}

/** A fetch trusting Node's roots and `extraCa` (PEM texts), giving up after `timeoutMs`. */
export function providerFetch(extraCa: readonly string[], timeoutMs: number): ProviderFetch {
  const agent = new Agent({ ca: [...rootCertificates, ...extraCa], keepAlive: true });
  return (url, init = {}) =>
    new Promise<Response>((resolve, reject) => {
      const signals = [AbortSignal.timeout(timeoutMs), ...(init.signal ? [init.signal] : [])];
      const signal = AbortSignal.any(signals);
      const headers = Object.fromEntries(new Headers(init.headers).entries());
      const body = init.body === undefined || init.body === null ? undefined : String(init.body);
      const options = { method: init.method ?? 'GET', headers, signal };
      const onResponse = (res: IncomingMessage) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > MAX_BODY_BYTES) res.destroy(new Error(`the answer of ${url} is over ${MAX_BODY_BYTES} bytes`));
          else chunks.push(chunk);
        });
        res.on('error', reject);
        res.on('end', () => resolve(responseOf(res, Buffer.concat(chunks))));
      };
      const req = url.startsWith('https:')
        ? httpsRequest(url, { ...options, agent }, onResponse)
        : httpRequest(url, options, onResponse);
      req.on('error', (e) =>
        reject(signal.aborted && !init.signal?.aborted ? new Error(`no answer from ${url} within ${timeoutMs} ms`) : e),
      );
      req.end(body);
    });
}
