import type { UploadClient } from '../../client/index.ts';
import type {
  ChannelPort,
  ClockPort,
  HasherPort,
  HttpPort,
  LockPort,
  OnlinePort,
  SessionStore,
} from '../contract/ports.ts';
import type { UploaderSettings } from '../contract/settings.ts';
import type { TaskSnapshot } from '../contract/types.ts';
import type { JobEvent } from '../contract/worker-contract.ts';

/** What the engine talks through: the service's client and the environment's ports. */
export interface EngineIo {
  client: UploadClient;
  http: HttpPort;
  online: OnlinePort;
  clock: ClockPort;
  /** Where resumable sessions are kept for a next page life; absent: nowhere. */
  store?: SessionStore | undefined;
  /** Cross-tab session locks: Web Locks in the browser, `MemoryLocks` where one engine is alone. */
  locks: LockPort;
  /** Cross-tab progress (BroadcastChannel in the browser); absent: none. */
  channel?: ChannelPort | undefined;
  /** Where MD5 trackers run when `settings.verify` is on; absent: in this thread. */
  hasher?: HasherPort | undefined;
}

/**
 * Everything the engine is built from: the uploader's settings as `resolveSettings` made them (checked, every default
 * applied: the engine reads them as they come), what it talks through, and where its task events go.
 */
export interface EngineConfig {
  settings: UploaderSettings;
  io: EngineIo;
  /** Receives every task event (progress already throttled). */
  onEvent: (event: JobEvent, snapshot: TaskSnapshot) => void;
}
