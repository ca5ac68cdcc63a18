/** Validation of a watch call's body (spec §2.4, supplement §8), with the spec's status codes and reasons. */
import { ApiError } from '../errors.ts';

/** Lifetimes of supplement §8, seconds. */
const DEFAULT_TTL_S = 3600;
export const MAX_FILE_TTL_S = 86_400;
export const MAX_CHANGES_TTL_S = 604_800;

/** A valid watch request. */
export interface WatchRequest {
  id: string;
  address: string;
  token: string | undefined;
  /** Real expiry, Unix ms: the requested one capped by the service's limit, or the default. */
  expiration: number;
}

/** The domain settings of spec §5: an address's origin must be in both lists. */
export interface DomainRules {
  verifiedDomains: readonly string[];
  registeredDomains: readonly string[];
}

const field = (name: string) => ({ where: { location: name, locationType: 'body' as const } });

function required(name: string): ApiError {
  return new ApiError(400, 'required', `Required field '${name}' is missing from the channel.`, field(name));
}

/** True when `url`'s origin is listed: entries are origins (`https://host:port`) or bare host names. */
function originListed(url: URL, list: readonly string[]): boolean {
  return list.some((entry) => {
    const e = entry.trim().toLowerCase();
    if (e.includes('://')) {
      try {
        return new URL(e).origin === url.origin;
      } catch {
        return false;
      }
    }
    return e === url.host || e === url.hostname;
  });
}

/** Parses `expiration` given as a string or a number of Unix ms. */
function parseExpiration(value: unknown): number {
  const n =
    typeof value === 'number' ? value : typeof value === 'string' && /^-?\d+$/.test(value.trim()) ? Number(value) : NaN;
  if (!Number.isSafeInteger(n)) {
    throw new ApiError(
      400,
      'invalidParameter',
      `Channel expiration must be a Unix timestamp in milliseconds; got ${JSON.stringify(value)}.`,
      field('expiration'),
    );
  }
  return n;
}

/**
 * The id and token are echoed in every message as `X-Svc-Channel-Id` and `X-Svc-Channel-Token`: one a header cannot
 * carry (a line break, a control character, text beyond ASCII) would make a channel that never delivers, so it is
 * refused when the channel is asked for.
 */
function headerSafe(value: string, name: 'id' | 'token'): void {
  // Everything before the first character refused is ASCII, so its index counts characters.
  const at = value.search(/[^\t\x20-\x7e]/);
  if (at === -1) return;
  throw new ApiError(
    400,
    'invalidParameter',
    `Channel ${name} must be printable ASCII, as it is echoed in an HTTP header; character ${at + 1} is not.`,
    field(name),
  );
}

/**
 * Validates `body` and works out the channel's real expiry. Throws {@link ApiError}: 400 for a bad field, 400
 * `push.webhookUrlNotHttps`, 401 `push.webhookUrlUnauthorized`, 400 "Invalid ttl value for channel <s>".
 */
export function parseWatchRequest(body: unknown, now: number, maxTtlS: number, domains: DomainRules): WatchRequest {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new ApiError(400, 'badRequest', 'The watch request body must be a JSON object with id, type and address.');
  }
  const b = body as Record<string, unknown>;
  if (b.id === undefined || b.id === '') throw required('id');
  if (typeof b.id !== 'string')
    throw new ApiError(400, 'invalidParameter', 'Channel id must be a string.', field('id'));
  if (b.id.length > 64) {
    throw new ApiError(
      400,
      'invalidParameter',
      `Channel id must be at most 64 characters; it has ${b.id.length}.`,
      field('id'),
    );
  }
  headerSafe(b.id, 'id');
  if (b.token !== undefined && typeof b.token !== 'string') {
    throw new ApiError(400, 'invalidParameter', 'Channel token must be a string.', field('token'));
  }
  if (typeof b.token === 'string') headerSafe(b.token, 'token');
  if (typeof b.token === 'string' && b.token.length > 256) {
    throw new ApiError(
      400,
      'invalidParameter',
      `Channel token must be at most 256 characters; it has ${b.token.length}.`,
      field('token'),
    );
  }
  if (b.type === undefined || b.type === '') throw required('type');
  if (b.type !== 'web_hook' && b.type !== 'webhook') {
    throw new ApiError(
      400,
      'invalidParameter',
      `Unknown channel type ${JSON.stringify(b.type)}; use "web_hook".`,
      field('type'),
    );
  }
  if (b.address === undefined || b.address === '') throw required('address');
  let url: URL;
  try {
    if (typeof b.address !== 'string') throw new TypeError();
    url = new URL(b.address);
  } catch {
    throw new ApiError(
      400,
      'invalidParameter',
      `Channel address ${JSON.stringify(b.address)} is not a URL.`,
      field('address'),
    );
  }
  if (url.protocol !== 'https:') {
    throw new ApiError(
      400,
      'push.webhookUrlNotHttps',
      `WebHook callback must be HTTPS: ${b.address}`,
      field('address'),
    );
  }
  if (!originListed(url, domains.verifiedDomains) || !originListed(url, domains.registeredDomains)) {
    throw new ApiError(
      401,
      'push.webhookUrlUnauthorized',
      `Unauthorized WebHook callback channel: ${b.address}`,
      field('address'),
    );
  }
  const cap = now + maxTtlS * 1000;
  let expiration = now + DEFAULT_TTL_S * 1000;
  if (b.expiration !== undefined && b.expiration !== null && b.expiration !== '') {
    const requested = parseExpiration(b.expiration);
    if (requested <= now) {
      throw new ApiError(
        400,
        'badRequest',
        `Invalid ttl value for channel ${Math.trunc((requested - now) / 1000)}`,
        field('expiration'),
      );
    }
    expiration = Math.min(requested, cap);
  }
  return { id: b.id, address: b.address, token: b.token, expiration };
}
