/** The config file's `auth` key: which tokens the service accepts, checked with messages that name the bad key. */

/** How a provider's claims become the service's user (`claims.ts`). */
export interface ClaimSettings {
  /** The claim holding the user's e-mail address. Default `email`. */
  readonly email: string;
  /** The claim holding the user's display name. Default `name`. */
  readonly name: string;
  /** The claims naming the OAuth client, first present wins. Default `azp`, `client_id`. */
  readonly client: readonly string[];
  /** A claim whose presence (and not `false`) marks a client-credentials token; besides no `sub` or `sub` = client. */
  readonly serviceAccountClaim: string | undefined;
  /** The domain of a service account's address, `<client>@<domain>`. Default `clients.<issuer host>`. */
  readonly serviceAccountDomain: string | undefined;
}

/** What every provider mode shares. */
interface ProviderSettings {
  readonly claims: ClaimSettings;
  /** PEM files of CAs trusted for the provider's HTTPS (beside Node's and the config's `trustCa`). */
  readonly caFile: string | undefined;
  /** Allows `http:` provider URLs on a loopback host (tests, a provider in the same pod); never another host. */
  readonly allowHttpLoopback: boolean;
  /** A provider request (discovery, JWKS, introspection) not answered in this long is a 503. Default 5 000. */
  readonly timeoutMs: number;
}

/** JWT access tokens verified against the issuer's JWKS. */
export interface JwtSettings extends ProviderSettings {
  readonly mode: 'jwt';
  readonly issuer: string;
  /** Accepted `aud` values (the resource indicator of this service). */
  readonly audience: readonly string[];
  /** Where the keys are; default: the `jwks_uri` of the issuer's discovery document. */
  readonly jwksUri: string | undefined;
  readonly algorithms: readonly string[];
  /** Skew allowed on `exp` and `nbf`. Default 30 s. */
  readonly clockToleranceSeconds: number;
  /** After a JWKS fetch, an unknown `kid` fetches again only this much later. Default 60 s. */
  readonly jwksCooldownSeconds: number;
}

/** Opaque tokens asked about through RFC 7662 token introspection. */
export interface IntrospectionSettings extends ProviderSettings {
  readonly mode: 'introspection';
  readonly issuer: string | undefined;
  readonly introspectionEndpoint: string;
  readonly clientId: string;
  readonly clientSecret: string;
  /** When given, an active token's `aud` must hold one of these. */
  readonly audience: readonly string[] | undefined;
  /** How long an answer is kept (never past the token's `exp`). Default 30 s. */
  readonly cacheSeconds: number;
}

/** The `auth` key, checked. */
export type AuthSettings = { readonly mode: 'dev' } | JwtSettings | IntrospectionSettings;

/** Asymmetric algorithms only: `none` is no signature, and an HS* key "from" a public JWKS is a public secret. */
const ASYMMETRIC_ALGORITHMS = [
  'RS256',
  'RS384',
  'RS512',
  'PS256',
  'PS384',
  'PS512',
  'ES256',
  'ES384',
  'ES512',
  'EdDSA',
  'Ed25519',
] as const;
const DEFAULT_ALGORITHMS = ['RS256', 'PS256', 'ES256', 'EdDSA'];

type Raw = Record<string, unknown>;

function object(value: unknown, key: string): Raw {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new Error(`config: "${key}" must be an object`);
  }
  return value as Raw;
}

function text(o: Raw, key: string, path: string): string {
  const v = o[key];
  if (typeof v !== 'string' || v === '') throw new Error(`config: "${path}.${key}" must be a non-empty string`);
  return v;
}

function optionalText(o: Raw, key: string, path: string): string | undefined {
  return o[key] === undefined ? undefined : text(o, key, path);
}

function seconds(o: Raw, key: string, path: string, fallback: number): number {
  const v = o[key];
  if (v === undefined) return fallback;
  if (typeof v !== 'number' || !Number.isFinite(v) || v < 0) {
    throw new Error(`config: "${path}.${key}" must be a number of seconds ≥ 0`);
  }
  return v;
}

function url(o: Raw, key: string, path: string, allowHttpLoopback: boolean): string {
  const v = text(o, key, path);
  let parsed: URL;
  try {
    parsed = new URL(v);
  } catch {
    throw new Error(`config: "${path}.${key}" must be an absolute URL; got "${v}"`);
  }
  const loopback = ['localhost', '127.0.0.1', '[::1]'].includes(parsed.hostname);
  if (parsed.protocol === 'https:') return v;
  if (parsed.protocol === 'http:' && allowHttpLoopback && loopback) return v;
  throw new Error(
    `config: "${path}.${key}" must be an https: URL` +
      (parsed.protocol === 'http:' ? ' (http: only on a loopback host with "allowHttpLoopback": true)' : ''),
  );
}

function stringList(o: Raw, key: string, path: string): string[] | undefined {
  const v = o[key];
  if (v === undefined) return undefined;
  const list = typeof v === 'string' ? [v] : v;
  if (!Array.isArray(list) || list.length === 0 || !list.every((s) => typeof s === 'string' && s !== '')) {
    throw new Error(`config: "${path}.${key}" must be a string or a non-empty array of strings`);
  }
  return list as string[];
}

function algorithms(o: Raw, path: string): string[] {
  const list = stringList(o, 'algorithms', path) ?? DEFAULT_ALGORITHMS;
  for (const alg of list) {
    if (!(ASYMMETRIC_ALGORITHMS as readonly string[]).includes(alg)) {
      throw new Error(
        `config: "${path}.algorithms" may not hold "${alg}": only ${ASYMMETRIC_ALGORITHMS.join(', ')} — ` +
          '"none" is no signature, and a shared-secret (HS*) key taken from a public JWKS is known to everyone',
      );
    }
  }
  return list;
}

function claims(value: unknown, path: string): ClaimSettings {
  const o = value === undefined ? {} : object(value, path);
  const known = new Set(['email', 'name', 'client', 'serviceAccountClaim', 'serviceAccountDomain']);
  for (const k of Object.keys(o)) if (!known.has(k)) throw new Error(`config: unknown key "${path}.${k}"`);
  return {
    email: optionalText(o, 'email', path) ?? 'email',
    name: optionalText(o, 'name', path) ?? 'name',
    client: stringList(o, 'client', path) ?? ['azp', 'client_id'],
    serviceAccountClaim: optionalText(o, 'serviceAccountClaim', path),
    serviceAccountDomain: optionalText(o, 'serviceAccountDomain', path),
  };
}

const COMMON = ['mode', 'claims', 'caFile', 'allowHttpLoopback', 'timeoutMs'];
const KEYS = {
  jwt: [...COMMON, 'issuer', 'audience', 'jwksUri', 'algorithms', 'clockToleranceSeconds', 'jwksCooldownSeconds'],
  introspection: [...COMMON, 'issuer', 'introspectionEndpoint', 'clientId', 'clientSecret', 'audience', 'cacheSeconds'],
};

/** Checks the `auth` key (undefined: the development tokens); throws an Error naming the bad key. */
export function parseAuthSettings(value: unknown): AuthSettings {
  if (value === undefined) return { mode: 'dev' };
  const o = object(value, 'auth');
  const mode = o.mode ?? 'dev';
  if (mode === 'dev') {
    for (const k of Object.keys(o)) if (k !== 'mode') throw new Error(`config: "auth.${k}" is not a key of mode "dev"`);
    return { mode: 'dev' };
  }
  if (mode !== 'jwt' && mode !== 'introspection') {
    throw new Error(`config: "auth.mode" must be "dev", "jwt" or "introspection"; got ${JSON.stringify(mode)}`);
  }
  for (const k of Object.keys(o)) {
    if (!KEYS[mode].includes(k)) throw new Error(`config: "auth.${k}" is not a key of mode "${mode}"`);
  }
  if (o.allowHttpLoopback !== undefined && typeof o.allowHttpLoopback !== 'boolean') {
    throw new Error('config: "auth.allowHttpLoopback" must be a boolean');
  }
  const allowHttpLoopback = o.allowHttpLoopback === true;
  const timeoutMs = o.timeoutMs ?? 5000;
  if (typeof timeoutMs !== 'number' || !Number.isSafeInteger(timeoutMs) || timeoutMs <= 0) {
    throw new Error('config: "auth.timeoutMs" must be a positive integer (milliseconds)');
  }
  const common = {
    claims: claims(o.claims, 'auth.claims'),
    caFile: optionalText(o, 'caFile', 'auth'),
    allowHttpLoopback,
    timeoutMs,
  };
  if (mode === 'jwt') {
    const audience = stringList(o, 'audience', 'auth');
    if (audience === undefined)
      throw new Error('config: "auth.audience" is required in mode "jwt" (this service\'s resource indicator)');
    return {
      mode,
      ...common,
      issuer: url(o, 'issuer', 'auth', allowHttpLoopback),
      audience,
      jwksUri: o.jwksUri === undefined ? undefined : url(o, 'jwksUri', 'auth', allowHttpLoopback),
      algorithms: algorithms(o, 'auth'),
      clockToleranceSeconds: seconds(o, 'clockToleranceSeconds', 'auth', 30),
      jwksCooldownSeconds: seconds(o, 'jwksCooldownSeconds', 'auth', 60),
    };
  }
  return {
    mode,
    ...common,
    issuer: o.issuer === undefined ? undefined : url(o, 'issuer', 'auth', allowHttpLoopback),
    introspectionEndpoint: url(o, 'introspectionEndpoint', 'auth', allowHttpLoopback),
    clientId: text(o, 'clientId', 'auth'),
    clientSecret: text(o, 'clientSecret', 'auth'),
    audience: stringList(o, 'audience', 'auth'),
    cacheSeconds: seconds(o, 'cacheSeconds', 'auth', 30),
  };
}
