/** The issuer's discovery document (RFC 8414 / OpenID Connect Discovery), fetched once, again after a failure. */
import * as oauth from 'oauth4webapi';
import type { ProviderFetch } from './provider-fetch.ts';

/** Options oauth4webapi takes for its requests: our fetch, and `http:` only where the config allowed it. */
export function requestOptions<M extends string, B extends URLSearchParams | undefined>(
  fetch: ProviderFetch,
  allowHttpLoopback: boolean,
): oauth.HttpRequestOptions<M, B> {
  // The config lets `http:` through only for a loopback host with `allowHttpLoopback` (settings.ts), as asked.
  // eslint-disable-next-line @typescript-eslint/no-deprecated -- deprecated to stand out; that is its use here.
  return { [oauth.customFetch]: fetch, [oauth.allowInsecureRequests]: allowHttpLoopback };
}

/** A memoized discovery of `issuer`: a failed attempt is forgotten, so the next request tries again. */
export function discovery(
  issuer: string,
  fetch: ProviderFetch,
  allowHttpLoopback: boolean,
): () => Promise<oauth.AuthorizationServer> {
  let pending: Promise<oauth.AuthorizationServer> | undefined;
  return () => {
    pending ??= (async () => {
      const url = new URL(issuer);
      const response = await oauth.discoveryRequest(url, requestOptions(fetch, allowHttpLoopback));
      // Checks that the document's `issuer` is exactly the configured one (a mix-up defence).
      return oauth.processDiscoveryResponse(url, response);
    })();
    pending.catch(() => (pending = undefined));
    return pending;
  };
}
