import type { UploadClient } from '../../client/index.ts';
import type { BackoffOptions } from '../../protocol/backoff.ts';
import type { ChannelPort, ClockPort, HasherPort, HttpPort, LockPort, OnlinePort, SessionStore } from '../ports.ts';
import type { TaskSnapshot } from '../types.ts';
import type { JobEvent } from '../worker-contract.ts';

/** Everything the engine is built from: ports plus the uploader's options. */
export interface EngineConfig {
  baseUrl: string;
  client: UploadClient;
  http: HttpPort;
  online: OnlinePort;
  clock: ClockPort;
  store?: SessionStore;
  /** Cross-tab session locks: Web Locks in the browser, `MemoryLocks` where one engine is alone. */
  locks: LockPort;
  /** Cross-tab progress (BroadcastChannel in the browser); default: none. */
  channel?: ChannelPort;
  /** Uploads at once, exactly; undefined: chosen by `concurrency-policy.ts` from the protocol and the bytes in flight. */
  concurrency?: number | undefined;
  chunkSize?: number | 'adaptive';
  resumableThreshold?: number;
  /** Compare the service's MD5 with the bytes sent (default true); false never hashes. */
  verify?: boolean;
  /** Where MD5 trackers run when verifying; default: in this thread. */
  hasher?: HasherPort;
  stallTimeoutMs?: number;
  maxRetries?: number;
  backoff?: BackoffOptions;
  /** Keep files up to this many bytes in IndexedDB with their session (0: never). */
  blobQuotaBytes?: number;
  /** The folder files go into by default (undefined: the user's root). */
  parentId?: string;
  /** Ignore the folders of relative paths by default. */
  flatten?: boolean;
  /** Receives every task event (progress already throttled). */
  onEvent(event: JobEvent, snapshot: TaskSnapshot): void;
}
