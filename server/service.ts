/** Wires the service: database, clock, events, stores, faults, the route table and `dispatch`. */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { type Clock, createClock } from './clock.ts';
import type { ServiceConfig } from './config.ts';
import { type Db, getMeta, openDatabase, setMeta } from './db.ts';
import { dispatchRequest } from './dispatch.ts';
import { FileEvents } from './events.ts';
import { FaultRegistry } from './faults.ts';
import type { ApiRequest, ApiResponse } from './http/types.ts';
import { Router } from './router.ts';
import { routeModules } from './routes/index.ts';
import { BlobStore } from './store/blobs.ts';
import { FileStore } from './store/files.ts';
import { SessionStore } from './store/sessions.ts';

/** How to create a service. */
export interface ServiceOptions {
  readonly dataDir: string;
  readonly config: ServiceConfig;
  /** Enables `/__admin/*` (clock, faults). */
  readonly admin: boolean;
}

/** A running service instance (transport-independent). */
export interface Service {
  readonly config: ServiceConfig;
  readonly dataDir: string;
  readonly admin: boolean;
  readonly db: Db;
  readonly clock: Clock;
  readonly events: FileEvents;
  readonly blobs: BlobStore;
  readonly files: FileStore;
  readonly sessions: SessionStore;
  readonly faults: FaultRegistry;
  readonly router: Router;
  /** Answers one API call (used by the HTTP adapter and by batch for inner calls). */
  dispatch(req: ApiRequest): Promise<ApiResponse>;
  /** Registers clean-up to run on {@link Service.close} (timers, outgoing connections), in reverse order. */
  onClose(fn: () => void | Promise<void>): void;
  /** Runs close hooks and closes the database. */
  close(): Promise<void>;
}

/** A function that adds a feature's routes (and may subscribe to events or add close hooks). */
export type RouteModule = (router: Router, svc: Service) => void;

/** Opens the data directory, recovers after a crash, and registers every route module. */
export function createService(options: ServiceOptions): Service {
  mkdirSync(options.dataDir, { recursive: true });
  const db = openDatabase(options.dataDir);
  const clock = createClock(Number(getMeta(db, 'clockOffsetMs') ?? '0'), (offset) => setMeta(db, 'clockOffsetMs', String(offset)));
  const events = new FileEvents();
  const blobs = new BlobStore(options.dataDir);
  // A failed removal leaves an unreferenced blob, which the next start's sweep removes.
  const files = new FileStore(db, clock, events, (name) => void blobs.remove(name).catch((e: unknown) => console.error('store-service: could not remove a blob:', e)));
  const sessions = new SessionStore(db, clock, join(options.dataDir, 'sessions'), options.config.sessionTtlMs, options.config.stalledRequestMs);
  sessions.recover(blobs, files);
  blobs.collectGarbage(new Set([...files.referencedBlobs()]));
  const closers: (() => void | Promise<void>)[] = [];
  const router = new Router();
  const svc: Service = {
    config: options.config,
    dataDir: options.dataDir,
    admin: options.admin,
    db,
    clock,
    events,
    blobs,
    files,
    sessions,
    faults: new FaultRegistry(),
    router,
    dispatch: (req) => dispatchRequest(svc, req),
    onClose: (fn) => void closers.push(fn),
    async close() {
      for (const fn of closers.reverse()) await fn();
      db.close();
    },
  };
  for (const register of routeModules) register(router, svc);
  return svc;
}
