/**
 * Where the demo pages find the service: `npm start` injects a JSON block (`#store-demo-config`) into the page;
 * query parameters (`?service=…&token=…&relay=…`) override it, which is how tests point a built demo at a service
 * started on a random port. The defaults match `npm start` on a free port 8080.
 */

/** What every demo page needs to reach the service. */
export interface DemoConfig {
  /** Base URL of the reference service, e.g. `http://127.0.0.1:8080`. */
  serviceUrl: string;
  /** A development bearer token of the reference service. */
  token: string;
  /** Origin (or same-origin path) of the push relay; empty when the relay is not running. */
  relayUrl: string;
}

const DEFAULTS: DemoConfig = { serviceUrl: 'http://127.0.0.1:8080', token: 'dev-token-alice', relayUrl: '' };

/** Reads the injected block, then the query string, over the defaults. */
export function readDemoConfig(doc: Document = document, search: string = location.search): DemoConfig {
  let injected: Partial<DemoConfig> = {};
  const block = doc.getElementById('store-demo-config');
  if (block?.textContent) {
    try {
      injected = JSON.parse(block.textContent) as Partial<DemoConfig>;
    } catch {
      // A broken block is a start-script bug; the defaults and the query string still give a working page.
      console.warn('store demo: ignoring an unreadable #store-demo-config block');
    }
  }
  const query = new URLSearchParams(search);
  const pick = (key: keyof DemoConfig, param: string): string => query.get(param) ?? injected[key] ?? DEFAULTS[key];
  return {
    serviceUrl: pick('serviceUrl', 'service').replace(/\/+$/, ''),
    token: query.get('token') ?? rememberedToken() ?? pick('token', 'token'),
    relayUrl: resolveRelay(pick('relayUrl', 'relay')),
  };
}

const SIGNED_IN = 'store-demo-token';

/**
 * The account signed in on this browser with the demo's account switch, for every page of the site: remembered for
 * pages opened later, and put in this page's address (a `?token=` there wins over what is remembered, and the site's
 * links carry the query), so a reload or the next page is the same account.
 */
export function rememberToken(token: string): void {
  try {
    localStorage.setItem(SIGNED_IN, token);
  } catch {
    // Storage refused (a private window's quota): the switch holds for this page only.
  }
  const query = new URLSearchParams(location.search);
  if (query.has('token')) {
    query.set('token', token);
    history.replaceState(history.state, '', `?${query}`);
  }
}

/** Calls `signedIn` with the token when another page of the site (another tab) switches the account. */
export function onSignInElsewhere(signedIn: (token: string) => void): void {
  addEventListener('storage', (event) => {
    if (event.key === SIGNED_IN && event.newValue) signedIn(event.newValue);
  });
}

function rememberedToken(): string | undefined {
  try {
    return localStorage.getItem(SIGNED_IN) ?? undefined;
  } catch {
    return undefined;
  }
}

/** A relay given as a path (`/relay`, proxied by the dev server) becomes absolute, as the watcher needs. */
function resolveRelay(value: string): string {
  if (!value) return '';
  return new URL(value, location.href).href.replace(/\/+$/, '');
}
