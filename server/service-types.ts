/** The service's shape, apart from its wiring (`service.ts`): route modules and handlers depend on this only. */
import type { Authenticator } from './auth/authenticator.ts';
import type { Clock } from './clock.ts';
import type { ServiceConfig } from './config.ts';
import type { ConvertUpload } from './conversion-types.ts';
import type { MetadataDb } from './metadata/metadata-port.ts';
import type { FileEvents } from './events.ts';
import type { FaultRegistry } from './faults.ts';
import type { ApiRequest, ApiResponse } from './api-request.ts';
import type { ContentStore } from './content/content-port.ts';
import type { PushService } from './push/push-service.ts';
import type { CommitGroup } from './store/commit-group.ts';
import type { FileStore } from './store/files.ts';
import type { ResumableSessions } from './store/resumable-sessions.ts';
import type { RunTimeSettings } from './store/run-time-settings.ts';
import type { StorageQuota } from './store/storage-quota.ts';
import type { TokenGrants } from './token-grants.ts';

/** How to create a service. */
export interface ServiceOptions {
  readonly dataDir: string;
  readonly config: ServiceConfig;
  /** Enables `/__admin/*` (clock, faults). */
  readonly admin: boolean;
  /** A PostgreSQL URL for the rows (`--database`); without it they are in the data folder's SQLite. */
  readonly database?: string | undefined;
  /** Who is calling, instead of the one `config.auth` describes (an app's own sign-in). */
  readonly authenticator?: Authenticator;
}

/** A running service instance (transport-independent). */
export interface Service {
  readonly config: ServiceConfig;
  /** The bearer tokens valid now: the configuration's, as changed at run time by `/__admin/tokens`. */
  readonly tokens: TokenGrants;
  /**
   * What `/__admin` changes at run time (tokens, the clock, the quota's limit, faults), kept in the database so
   * every node over it follows (`store/run-time-settings.ts`).
   */
  readonly settings: RunTimeSettings;
  /** Who is calling: dispatch asks it once per request of a protected route (`config.auth`, `auth/`). */
  readonly auth: Authenticator;
  readonly dataDir: string;
  readonly admin: boolean;
  /** The rows: files, permissions, sessions, the change log, push (`metadata/`). */
  readonly db: MetadataDb;
  /** Group commit (batch): one durable write for many calls' changes; `durable()` gates every answer. */
  readonly commits: CommitGroup;
  readonly clock: Clock;
  readonly events: FileEvents;
  /** File content and resumable sessions' staged bytes: the data folder's disk, or an S3-compatible bucket. */
  readonly content: ContentStore;
  readonly files: FileStore;
  /** Each user's storage use and the limit on it (`about.storageQuota`, 403 `storageQuotaExceeded`). */
  readonly quota: StorageQuota;
  /** Resumable sessions: their rows and locks (`sessions.ts`) and their staged bytes (`content.sessions`). */
  readonly resumable: ResumableSessions;
  readonly faults: FaultRegistry;
  /** Push: channels, the change log per user, delivery (spec §5–6). */
  readonly push: PushService;
  /** Conversion of uploaded media to a native kind; undefined when the service has none. */
  readonly convert: ConvertUpload | undefined;
  /** Answers one API call (used by the HTTP adapter and by batch for inner calls). */
  dispatch(req: ApiRequest): Promise<ApiResponse>;
  /** Registers clean-up to run on {@link Service.close} (timers, outgoing connections), in reverse order. */
  onClose(fn: () => void | Promise<void>): void;
  /** Runs close hooks and closes the database. */
  close(): Promise<void>;
}
