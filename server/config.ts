/** Service configuration: dev defaults, and the `--config FILE` JSON that overrides them. */
import { readFileSync } from 'node:fs';
import { parseAuthSettings, type AuthSettings } from './auth/settings.ts';

/** Who a bearer token belongs to. */
export interface TokenGrant {
  /** The user's e-mail address. */
  readonly user: string;
  /** The OAuth client the token was issued to (stop rules of spec §5 compare it). */
  readonly client: string;
  /** True for a service account (its channels can be stopped by any user of the same client). */
  readonly serviceAccount?: boolean;
  /** Shown in `owners[].displayName`; defaults to the local part of `user`. */
  readonly displayName?: string;
}

/** Everything the service can be configured with. Unknown keys of the file are kept in `extra`. */
export interface ServiceConfig {
  /** Token → grant. */
  readonly tokens: Readonly<Record<string, TokenGrant>>;
  /** Which tokens are accepted: the dev `tokens` (default), a provider's JWTs, or introspected opaque tokens. */
  readonly auth: AuthSettings;
  /** Origins (`https://host[:port]`) verified as owned (spec §5, step 1). */
  readonly verifiedDomains: readonly string[];
  /** Origins registered on the project's domain page (spec §5, step 2). */
  readonly registeredDomains: readonly string[];
  /** PEM files of extra CAs trusted for push receivers. */
  readonly trustCa: readonly string[];
  /** PEM file of a certificate revocation list for push receivers. */
  readonly crl: string | undefined;
  /** Compress for any `User-Agent` (spec §4.10 asks for "gzip" in it; this relaxes that). Default false. */
  readonly gzipAnyUserAgent: boolean;
  /** Cap on buffered (JSON) bodies in bytes. Default 1 MiB. */
  readonly maxJsonBytes: number;
  /** Node `maxHeaderSize`: larger request headers get 431. Default 16 KiB. */
  readonly maxHeaderSize: number;
  /** Resumable session inactivity lifetime in ms. Default one week. */
  readonly sessionTtlMs: number;
  /** A request whose headers are not complete this long after its connection opened (or went idle) is closed. */
  readonly headersTimeoutMs: number;
  /**
   * A request body with no byte for this long ends the request: a resumable session keeps its whole 256 KiB
   * blocks and its lock is released. Default 30 s.
   */
  readonly bodyIdleTimeoutMs: number;
  /** An idle keep-alive connection is closed after this long. Default 5 s. */
  readonly keepAliveTimeoutMs: number;
  /** Open connections allowed from one client address; more are refused with 503. Default 256. */
  readonly maxConnectionsPerClient: number;
  /**
   * A request answered before its body has all arrived (a 413, a malformed chunked body) keeps its connection this
   * long after the answer, reading and discarding the rest, so a client still sending can read the answer.
   * Default 30 s (nginx's `lingering_time`).
   */
  readonly lingerMs: number;
  /** …and discards at most this many bytes of it; past them it reads no more until that time ends. Default 64 MiB. */
  readonly lingerBytes: number;
  /**
   * Bytes of content each user may own (the about resource's `storageQuota.limit`); an upload that would pass it is
   * refused with 403 `storageQuotaExceeded`. Undefined (the default): no limit.
   */
  readonly storageQuotaBytes: number | undefined;
  /**
   * A PostgreSQL URL (`postgres://USER:PASS@HOST:PORT/DB`) for the rows, so several nodes can share them; the
   * `--database` flag wins over it. Undefined (the default): SQLite in the data folder.
   */
  readonly database?: string | undefined;
  /**
   * Where content lives: undefined (the default) for the data folder's disk, or `s3://BUCKET[/PREFIX]` for an
   * S3-compatible bucket reached through the standard AWS variables (`--content` wins over the file's `content`).
   */
  readonly content: string | undefined;
  /** Other keys of the config file, for features that read their own settings (push, conversion). */
  readonly extra: Readonly<Record<string, unknown>>;
}

/** The development tokens used when no `--config` is given. */
export const DEV_TOKENS: Readonly<Record<string, TokenGrant>> = {
  'dev-token-alice': { user: 'alice@example.com', client: 'dev-client' },
  'dev-token-bob': { user: 'bob@example.com', client: 'dev-client' },
  'dev-token-carol': { user: 'carol@other.example', client: 'dev-client' },
  'dev-token-robot': { user: 'robot@dev-client.iam.example', client: 'dev-client', serviceAccount: true },
  'dev-token-mallory': { user: 'mallory@example.com', client: 'other-client' },
};

/** One week, the resumable session lifetime of spec §8. */
const WEEK_MS = 7 * 24 * 3600 * 1000;

/** The configuration without a file. */
export function defaultConfig(): ServiceConfig {
  return {
    tokens: DEV_TOKENS,
    auth: { mode: 'dev' },
    verifiedDomains: [],
    registeredDomains: [],
    trustCa: [],
    crl: undefined,
    gzipAnyUserAgent: false,
    maxJsonBytes: 1024 * 1024,
    maxHeaderSize: 16 * 1024,
    sessionTtlMs: WEEK_MS,
    headersTimeoutMs: 20_000,
    bodyIdleTimeoutMs: 30_000,
    keepAliveTimeoutMs: 5_000,
    maxConnectionsPerClient: 256,
    lingerMs: 30_000,
    lingerBytes: 64 * 1024 * 1024,
    storageQuotaBytes: undefined,
    database: undefined,
    content: undefined,
    extra: {},
  };
}

const KNOWN_KEYS = new Set([
  'tokens',
  'auth',
  'verifiedDomains',
  'registeredDomains',
  'trustCa',
  'crl',
  'gzipAnyUserAgent',
  'maxJsonBytes',
  'maxHeaderSize',
  'sessionTtlMs',
  'headersTimeoutMs',
  'bodyIdleTimeoutMs',
  'keepAliveTimeoutMs',
  'maxConnectionsPerClient',
  'lingerMs',
  'lingerBytes',
  'storageQuotaBytes',
  'database',
  'content',
]);

function stringArray(value: unknown, key: string): string[] {
  if (!Array.isArray(value) || !value.every((v) => typeof v === 'string')) {
    throw new Error(`config: "${key}" must be an array of strings`);
  }
  return value;
}

function positiveInt(value: unknown, key: string): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value <= 0) {
    throw new Error(`config: "${key}" must be a positive integer`);
  }
  return value;
}

/** A size that may be 0 (a quota of nothing: every upload with bytes is refused). */
function byteCount(value: unknown, key: string): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) {
    throw new Error(`config: "${key}" must be a byte count (an integer ≥ 0)`);
  }
  return value;
}

function parseTokens(value: unknown): Record<string, TokenGrant> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new Error('config: "tokens" must be an object mapping token → {user, client, serviceAccount?}');
  }
  const out: Record<string, TokenGrant> = {};
  for (const [token, grant] of Object.entries(value as Record<string, unknown>)) {
    const g = grant as Partial<TokenGrant> | null;
    if (typeof g !== 'object' || g === null || typeof g.user !== 'string' || typeof g.client !== 'string') {
      throw new Error(`config: tokens["${token}"] needs string "user" and "client"`);
    }
    if (g.serviceAccount !== undefined && typeof g.serviceAccount !== 'boolean') {
      throw new Error(`config: tokens["${token}"].serviceAccount must be a boolean`);
    }
    out[token] = {
      user: g.user,
      client: g.client,
      serviceAccount: g.serviceAccount ?? false,
      ...(g.displayName ? { displayName: g.displayName } : {}),
    };
  }
  return out;
}

/** Validates a parsed config object over the defaults; throws an Error naming the bad key. */
export function parseConfig(raw: unknown): ServiceConfig {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw))
    throw new Error('config: the file must hold a JSON object');
  const o = raw as Record<string, unknown>;
  const base = defaultConfig();
  const extra: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(o)) if (!KNOWN_KEYS.has(k)) extra[k] = v;
  if (o.content !== undefined && (typeof o.content !== 'string' || !o.content.startsWith('s3://')))
    throw new Error('config: "content" must be an s3://BUCKET[/PREFIX] URL');
  if (o.crl !== undefined && typeof o.crl !== 'string') throw new Error('config: "crl" must be a path string');
  if (o.gzipAnyUserAgent !== undefined && typeof o.gzipAnyUserAgent !== 'boolean') {
    throw new Error('config: "gzipAnyUserAgent" must be a boolean');
  }
  return {
    tokens: o.tokens === undefined ? base.tokens : parseTokens(o.tokens),
    auth: parseAuthSettings(o.auth),
    verifiedDomains: o.verifiedDomains === undefined ? [] : stringArray(o.verifiedDomains, 'verifiedDomains'),
    registeredDomains: o.registeredDomains === undefined ? [] : stringArray(o.registeredDomains, 'registeredDomains'),
    trustCa: o.trustCa === undefined ? [] : stringArray(o.trustCa, 'trustCa'),
    crl: o.crl,
    gzipAnyUserAgent: o.gzipAnyUserAgent ?? false,
    maxJsonBytes: o.maxJsonBytes === undefined ? base.maxJsonBytes : positiveInt(o.maxJsonBytes, 'maxJsonBytes'),
    maxHeaderSize: o.maxHeaderSize === undefined ? base.maxHeaderSize : positiveInt(o.maxHeaderSize, 'maxHeaderSize'),
    sessionTtlMs: o.sessionTtlMs === undefined ? base.sessionTtlMs : positiveInt(o.sessionTtlMs, 'sessionTtlMs'),
    headersTimeoutMs:
      o.headersTimeoutMs === undefined ? base.headersTimeoutMs : positiveInt(o.headersTimeoutMs, 'headersTimeoutMs'),
    bodyIdleTimeoutMs:
      o.bodyIdleTimeoutMs === undefined
        ? base.bodyIdleTimeoutMs
        : positiveInt(o.bodyIdleTimeoutMs, 'bodyIdleTimeoutMs'),
    keepAliveTimeoutMs:
      o.keepAliveTimeoutMs === undefined
        ? base.keepAliveTimeoutMs
        : positiveInt(o.keepAliveTimeoutMs, 'keepAliveTimeoutMs'),
    maxConnectionsPerClient:
      o.maxConnectionsPerClient === undefined
        ? base.maxConnectionsPerClient
        : positiveInt(o.maxConnectionsPerClient, 'maxConnectionsPerClient'),
    lingerMs: o.lingerMs === undefined ? base.lingerMs : positiveInt(o.lingerMs, 'lingerMs'),
    lingerBytes: o.lingerBytes === undefined ? base.lingerBytes : positiveInt(o.lingerBytes, 'lingerBytes'),
    storageQuotaBytes:
      o.storageQuotaBytes === undefined ? undefined : byteCount(o.storageQuotaBytes, 'storageQuotaBytes'),
    database: o.database === undefined ? undefined : postgresUrl(o.database),
    content: o.content,
    extra,
  };
}

function postgresUrl(value: unknown): string {
  if (typeof value !== 'string' || !/^postgres(ql)?:\/\/\S+$/.test(value)) {
    throw new Error('config: "database" must be a postgres://USER:PASS@HOST:PORT/DB URL');
  }
  return value;
}

/** Reads and validates a config file; throws an Error saying what is wrong. */
export function loadConfigFile(path: string): ServiceConfig {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    throw new Error(`config: cannot read ${path}: ${(e as Error).message}`);
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    throw new Error(`config: ${path} is not valid JSON: ${(e as Error).message}`);
  }
  return parseConfig(raw);
}
