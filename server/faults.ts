/**
 * Scheduled faults (`--admin` only): make matching requests fail with a status, stall, lose their connection
 * after N body bytes, or meet a failing or slow disk or database (`storage-faults.ts`), so clients' retry and resume
 * paths can be tested against the real service.
 */
import { ApiError } from './errors.ts';
import type { ApiRequest, ApiResponse, RequestBody } from './api-request.ts';
import { DISK_ERRORS, SQLITE_ERRORS, type StorageFaultPlan } from './storage-faults.ts';
import type { FaultClaim, FaultRow } from './store/run-time-settings.ts';

/** Which requests a fault applies to; every given condition must hold. */
export interface FaultMatch {
  readonly method?: string;
  readonly pathPrefix?: string;
  /** A JavaScript regular expression tested against the path. */
  readonly pathRegex?: string;
  readonly uploadType?: string;
}

/** What happens to a matching request. */
export type FaultAction =
  /** Answer at once: 5xx → JSON `backendError`; 403 → JSON `userRateLimitExceeded` (domain `usageLimits`). */
  | { readonly type: 'status'; readonly status: number }
  /** Cut the connection once `afterBytes` bytes of the request body have been received. */
  | { readonly type: 'cut'; readonly afterBytes: number }
  /** Wait `ms` before handling the request normally. */
  | { readonly type: 'delay'; readonly ms: number }
  /** The request's file writes fail with `error` once `afterBytes` are written (optionally at a slow disk's rate). */
  | {
      readonly type: 'disk';
      readonly error: (typeof DISK_ERRORS)[number];
      readonly afterBytes: number;
      readonly bytesPerSecond?: number;
    }
  /** The request's file writes go at most `bytesPerSecond`. */
  | { readonly type: 'slowDisk'; readonly bytesPerSecond: number }
  /** The request's SQLite transactions fail with `error` (default `SQLITE_FULL`). */
  | { readonly type: 'sqlite'; readonly error: (typeof SQLITE_ERRORS)[number] };

/** A scheduled fault as listed by `GET /__admin/faults`. */
export interface Fault {
  readonly id: number;
  readonly match: FaultMatch;
  readonly action: FaultAction;
  /** How many more matching requests it applies to (after `skip`). */
  times: number;
  /** How many matching requests to let through first. */
  skip: number;
  /** Requests it has been applied to so far. */
  hits: number;
}

/** The result of applying faults: an immediate response, or the (possibly wrapped) request to handle. */
export interface FaultOutcome {
  readonly response?: ApiResponse;
  readonly request: ApiRequest;
  /** What the request's storage does while its handler runs. */
  readonly storage?: StorageFaultPlan;
}

/** Thrown by a body cut by a fault, as if the connection dropped. */
export class ConnectionCutError extends Error {
  constructor() {
    super('connection cut by an admin fault');
    this.name = 'ConnectionCutError';
  }
}

function fail(message: string): never {
  throw new ApiError(400, 'badRequest', `Invalid fault: ${message}`);
}

/** Validates one fault of `POST /__admin/faults`. */
export function parseFault(raw: unknown): Omit<Fault, 'id' | 'hits'> {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) fail('each fault must be an object');
  const o = raw as Record<string, unknown>;
  const m = (o.match ?? {}) as Record<string, unknown>;
  if (typeof m !== 'object' || m === null || Array.isArray(m)) fail('"match" must be an object');
  for (const k of ['method', 'pathPrefix', 'pathRegex', 'uploadType']) {
    if (m[k] !== undefined && typeof m[k] !== 'string') fail(`match.${k} must be a string`);
  }
  if (typeof m.pathRegex === 'string') {
    try {
      new RegExp(m.pathRegex);
    } catch (e) {
      fail(`match.pathRegex: ${(e as Error).message}`);
    }
  }
  const a = o.action as Record<string, unknown> | undefined;
  if (typeof a !== 'object' || a === null) {
    fail('"action" must be an object with "type" status, cut, delay, disk, slowDisk or sqlite');
  }
  let action: FaultAction;
  const int = (v: unknown, name: string, min: number) => {
    if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < min) fail(`${name} must be an integer ≥ ${min}`);
    return v;
  };
  if (a.type === 'status') {
    const status = int(a.status, 'action.status', 100);
    if (status !== 403 && (status < 500 || status > 599)) fail('action.status must be 403 or 5xx');
    action = { type: 'status', status };
  } else if (a.type === 'cut') action = { type: 'cut', afterBytes: int(a.afterBytes, 'action.afterBytes', 0) };
  else if (a.type === 'delay') action = { type: 'delay', ms: int(a.ms, 'action.ms', 0) };
  else if (a.type === 'disk') {
    const error = a.error ?? 'ENOSPC';
    if (!DISK_ERRORS.includes(error as never)) fail(`action.error must be one of ${DISK_ERRORS.join(', ')}`);
    action = {
      type: 'disk',
      error: error as (typeof DISK_ERRORS)[number],
      afterBytes: int(a.afterBytes, 'action.afterBytes', 0),
      ...(a.bytesPerSecond !== undefined && { bytesPerSecond: int(a.bytesPerSecond, 'action.bytesPerSecond', 1) }),
    };
  } else if (a.type === 'slowDisk') {
    action = { type: 'slowDisk', bytesPerSecond: int(a.bytesPerSecond, 'action.bytesPerSecond', 1) };
  } else if (a.type === 'sqlite') {
    const error = a.error ?? 'SQLITE_FULL';
    if (!SQLITE_ERRORS.includes(error as never)) fail(`action.error must be one of ${SQLITE_ERRORS.join(', ')}`);
    action = { type: 'sqlite', error: error as (typeof SQLITE_ERRORS)[number] };
  } else fail('action.type must be "status", "cut", "delay", "disk", "slowDisk" or "sqlite"');
  const match: FaultMatch = {
    ...(typeof m.method === 'string' ? { method: m.method.toUpperCase() } : {}),
    ...(typeof m.pathPrefix === 'string' ? { pathPrefix: m.pathPrefix } : {}),
    ...(typeof m.pathRegex === 'string' ? { pathRegex: m.pathRegex } : {}),
    ...(typeof m.uploadType === 'string' ? { uploadType: m.uploadType } : {}),
  };
  return {
    match,
    action,
    times: o.times === undefined ? 1 : int(o.times, 'times', 1),
    skip: o.skip === undefined ? 0 : int(o.skip, 'skip', 0),
  };
}

function matches(m: FaultMatch, req: ApiRequest): boolean {
  if (req.path.startsWith('/__admin')) return false;
  if (m.method !== undefined && m.method !== req.method) return false;
  if (m.pathPrefix !== undefined && !req.path.startsWith(m.pathPrefix)) return false;
  if (m.pathRegex !== undefined && !new RegExp(m.pathRegex).test(req.path)) return false;
  if (m.uploadType !== undefined && req.query.get('uploadType') !== m.uploadType) return false;
  return true;
}

/** Where faults are kept: the run-time settings every node over one database shares (`store/run-time-settings.ts`). */
export interface FaultStore {
  /** Takes what another node changed since (faults, tokens, the clock). */
  sync(): Promise<void>;
  addFaults(specs: readonly { spec: string; skip: number; times: number }[]): Promise<FaultRow[]>;
  listFaults(): Promise<FaultRow[]>;
  clearFaults(): Promise<void>;
  claimFault(id: number): Promise<FaultClaim>;
}

/** The fault that applies to `req`, its use claimed; undefined when none does. */
async function claimFor(store: FaultStore, faults: readonly Fault[], req: ApiRequest): Promise<Fault | undefined> {
  const fault = faults.find((f) => matches(f.match, req));
  if (!fault) return undefined;
  return (await store.claimFault(fault.id)) === 'apply' ? fault : undefined;
}

function toFault(row: FaultRow): Fault {
  const spec = JSON.parse(row.spec) as Pick<Fault, 'match' | 'action'>;
  return { id: row.id, match: spec.match, action: spec.action, times: row.times, skip: row.skip, hits: row.hits };
}

/**
 * The fault schedule, for the whole cluster: faults are kept in the metadata database, and each use is claimed
 * there, so `times` and `skip` count the matching requests of every node together.
 */
export class FaultRegistry {
  readonly #store: FaultStore;
  /** The faults with uses left, as this node last read them (to match requests without asking the database). */
  #faults: Fault[] = [];
  /** Requests take their turn at the faults in the order they came (a batch's inner calls: in request order). */
  #turn: Promise<unknown> = Promise.resolve();

  constructor(store: FaultStore) {
    this.#store = store;
  }

  async #claim(req: ApiRequest): Promise<Fault | undefined> {
    await this.#store.sync();
    return this.#faults.length === 0 ? undefined : claimFor(this.#store, this.#faults, req);
  }

  /** Takes the faults scheduled now (at start, and whenever another node changed them). */
  adopt(rows: readonly FaultRow[]): void {
    this.#faults = rows.map(toFault);
  }

  /** Schedules faults; returns them with their ids. */
  async add(specs: readonly Omit<Fault, 'id' | 'hits'>[]): Promise<Fault[]> {
    const rows = await this.#store.addFaults(
      specs.map((s) => ({ spec: JSON.stringify({ match: s.match, action: s.action }), skip: s.skip, times: s.times })),
    );
    return rows.map(toFault);
  }

  /** Scheduled faults that still have uses left. */
  async list(): Promise<Fault[]> {
    return (await this.#store.listFaults()).map(toFault);
  }

  /** Removes every fault. */
  clear(): Promise<void> {
    return this.#store.clearFaults();
  }

  /**
   * Applies the first matching fault with uses left (delays first, then the answer or the cut), after taking what
   * other nodes changed. Requests claim their uses one after another, in the order they came.
   */
  async apply(req: ApiRequest): Promise<FaultOutcome> {
    const claimed = this.#turn.then(() => this.#claim(req));
    this.#turn = claimed.catch(() => undefined);
    const fault = await claimed;
    if (!fault) return { request: req };
    const action = fault.action;
    if (action.type === 'delay') {
      await new Promise((r) => setTimeout(r, action.ms));
      return { request: req };
    }
    if (action.type === 'status') {
      const error =
        action.status === 403
          ? new ApiError(403, 'userRateLimitExceeded', 'User rate limit exceeded.', {
              where: { domain: 'usageLimits' },
            })
          : new ApiError(action.status, 'backendError', 'Backend Error');
      return { response: error.toResponse(), request: req };
    }
    if (action.type === 'cut') return { request: { ...req, body: cutBody(req, action.afterBytes) } };
    return { request: req, storage: storagePlan(action) };
  }
}

function storagePlan(action: FaultAction): StorageFaultPlan {
  if (action.type === 'disk') {
    const { error, afterBytes, bytesPerSecond } = action;
    return { disk: { error, afterBytes }, ...(bytesPerSecond !== undefined && { bytesPerSecond }) };
  }
  if (action.type === 'slowDisk') return { bytesPerSecond: action.bytesPerSecond };
  if (action.type === 'sqlite') return { sqlite: action.error };
  throw new Error(`not a storage fault: ${action.type}`);
}

/** A body that delivers `limit` bytes, then drops the connection and fails like a real disconnect. */
function cutBody(req: ApiRequest, limit: number): RequestBody {
  const inner = req.body;
  async function* stream(): AsyncIterable<Uint8Array> {
    let seen = 0;
    for await (const chunk of inner.stream()) {
      const room = limit - seen;
      if (chunk.length >= room) {
        if (room > 0) yield chunk.subarray(0, room);
        req.cutConnection?.();
        throw new ConnectionCutError();
      }
      seen += chunk.length;
      yield chunk;
    }
    // The body was shorter than the cut point: it arrived whole, so nothing is cut.
  }
  return {
    length: inner.length,
    stream,
    async bytes() {
      const parts: Uint8Array[] = [];
      for await (const chunk of stream()) parts.push(chunk);
      return Buffer.concat(parts);
    },
  };
}
