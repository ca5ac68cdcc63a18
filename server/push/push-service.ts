/**
 * Push notifications inside the service: channels, the per-user change log, and the fan-out of every committed
 * file mutation to the channels that should hear of it, through the delivery engine.
 */
import { createHash } from 'node:crypto';
import type { ChangeType, PushState } from 'store-upload-kit/protocol';
import { principalFor } from '../access.ts';
import type { Principal } from '../access.ts';
import type { Clock } from '../clock.ts';
import type { ServiceConfig } from '../config.ts';
import type { MetadataDb } from '../metadata/metadata-port.ts';
import type { FileEvent, FileEvents } from '../events.ts';
import type { FileStore } from '../store/files.ts';
import { ChannelStore, type Channel } from './channel-store.ts';
import { createDeliveryEngine, type DeliveryEngine, type DeliveryOptions } from './delivery.ts';
import type { PushMessage } from './message.ts';
import { loadPushTrust } from './trust.ts';
import { UserChangeLog } from './user-changes.ts';

/** What push needs from the service. */
export interface PushDeps {
  db: MetadataDb;
  clock: Clock;
  events: FileEvents;
  files: FileStore;
  config: ServiceConfig;
  /** Engine overrides (tests and benchmarks: backoff, concurrency, an `onAttempt` listener). */
  delivery?: Partial<Omit<DeliveryOptions, 'db' | 'now'>>;
  /** The service's group commit hook (`CommitGroup.afterCommit`): messages leave only once their cause is durable. */
  afterCommit?: (fn: () => void) => void;
}

/** The push part of a running service. */
export interface PushService {
  readonly channels: ChannelStore;
  readonly changeLog: UserChangeLog;
  readonly engine: DeliveryEngine;
  /** Every configured user as a principal (token holders, one per e-mail). */
  users(): readonly Principal[];
  /** Stores a new channel and queues its sync message; false when the id is taken in the project. */
  open(channel: Omit<Channel, 'lastMessageNumber'>): Promise<boolean>;
  /** Ends a channel: no more messages, pending ones dropped. */
  stop(channel: Channel): Promise<void>;
  /**
   * Resolves once delivery can run; rejects with a `PushTrustError` naming the file when the configured `trustCa` or
   * `crl` cannot be read or used (watch calls then fail rather than open channels that never hear anything).
   */
  ready(): Promise<void>;
  close(): Promise<void>;
}

/** The opaque, stable id of a watched resource (not the file id; the same across API versions). */
export function opaqueResourceId(kind: 'file' | 'changes', key: string): string {
  return createHash('sha256').update(`${kind}\n${key}`).digest('base64url').slice(0, 27);
}

/** The outbox queue of a channel: channel ids are unique per project only. */
function channelQueueKey(channel: Pick<Channel, 'project' | 'id'>): string {
  return `${channel.project}\n${channel.id}`;
}

function principalsOf(config: ServiceConfig): Principal[] {
  const byEmail = new Map<string, Principal>();
  for (const [token, grant] of Object.entries(config.tokens)) {
    const email = grant.user.toLowerCase();
    if (byEmail.has(email)) continue;
    byEmail.set(
      email,
      principalFor(grant.user, grant.client, {
        token,
        serviceAccount: grant.serviceAccount ?? false,
        ...(grant.displayName !== undefined ? { displayName: grant.displayName } : {}),
      }),
    );
  }
  return [...byEmail.values()];
}

/** Creates push for a service, subscribes to its file events and starts delivery. */
export function createPushService(deps: PushDeps): PushService {
  const { db, clock, files, config } = deps;
  const users = principalsOf(config);
  const channels = new ChannelStore(db);
  const changeLog = new UserChangeLog(db, files, () => users);
  const trust = loadPushTrust({ trustCa: config.trustCa, crl: config.crl });
  const engine = createDeliveryEngine({
    ...deps.delivery,
    db,
    trust,
    now: () => clock.now(),
    ...(deps.afterCommit ? { afterCommit: deps.afterCommit } : {}),
  });

  const send = async (
    channel: Channel,
    state: PushState,
    seq: number,
    changed?: readonly ChangeType[],
  ): Promise<void> => {
    const message: PushMessage = {
      channelId: channel.id,
      queueKey: channelQueueKey(channel),
      address: channel.address,
      resourceId: channel.resourceId,
      resourceUri: channel.resourceUri,
      state,
      // Numbers follow the change log, so they rise but skip (spec §6.1: not consecutive).
      messageNumber: await channels.nextMessageNumber(channel, seq + 1),
      expiration: channel.expiration,
      ...(channel.token !== undefined ? { token: channel.token } : {}),
      ...(changed && changed.length > 0 ? { changed: [...changed] } : {}),
      ...(channel.kind === 'changes' ? { changeLog: true } : {}),
    };
    await engine.enqueue(message);
  };

  const principal = (email: string): Principal | undefined => users.find((u) => u.email === email);

  const onFileEvent = async (event: FileEvent): Promise<void> => {
    const now = clock.now();
    // The events of one group commit all see the same committed state: who sees a file, and which channels watch
    // it, are looked up once per group (a batch of 100 permission changes to one file asks once, not 100 times).
    const shared = <T>(key: string, compute: () => T): T => (event.group ? event.group.memo(key, compute) : compute());
    const visible = await shared(`visible\n${event.fileId}`, () => changeLog.visibleTo(event.fileId));
    const audience = await changeLog.record(event.fileId, event.seq, now, visible);
    const watching = (ids: readonly string[]) =>
      shared(`watching\n${ids.join('\n')}`, () => channels.watchingFiles(ids, now));

    // Channels on the file itself. What the watcher sees decides the state: a file that became visible to them
    // is `add`, one that stopped being visible (deleted or unshared) is `remove`.
    for (const channel of await watching([event.fileId])) {
      const sees = audience.now.has(channel.ownerEmail);
      const saw = audience.before.has(channel.ownerEmail);
      if (sees && !saw) await send(channel, 'add', event.seq);
      else if (!sees && saw) await send(channel, 'remove', event.seq);
      else if (sees && event.type !== 'add' && event.type !== 'remove') {
        await send(channel, event.type, event.seq, event.type === 'update' ? event.changed : undefined);
      }
    }

    // Channels on a parent folder hear `children` when the set of children *their owner can see* changes: a child
    // they see (or saw) was added, removed, moved, trashed or untrashed, or a child in the folder became visible
    // or invisible to them. A child they cannot see must not even reveal that it exists.
    const moved = event.type !== 'update' || event.changed.includes('parents');
    for (const channel of await watching(event.parentIds)) {
      const sees = audience.now.has(channel.ownerEmail);
      const saw = audience.before.has(channel.ownerEmail);
      if (!(moved ? sees || saw : sees !== saw)) continue;
      const owner = principal(channel.ownerEmail);
      if (channel.fileId !== undefined && owner && (await files.roleOf(channel.fileId, owner))) {
        await send(channel, 'update', event.seq, ['children']);
      }
    }

    // Change-log channels of everyone whose change log got an entry.
    const affected = [...new Set([...audience.now, ...audience.before])];
    const changeLogs = await shared(`changes\n${affected.join('\n')}`, () => channels.changeLogOf(affected, now));
    for (const channel of changeLogs) await send(channel, 'change', event.seq);
  };
  const unsubscribe = deps.events.on(onFileEvent);
  void engine.start().catch((e: unknown) => console.error('push: could not read the outbox at start:', e));

  return {
    channels,
    changeLog,
    engine,
    users: () => users,
    async open(input) {
      const channel: Channel = { ...input, lastMessageNumber: 1 };
      const now = clock.now();
      await channels.purgeExpired(now);
      if (!(await channels.add(channel, now))) return false;
      await engine.enqueue({
        channelId: channel.id,
        queueKey: channelQueueKey(channel),
        address: channel.address,
        resourceId: channel.resourceId,
        resourceUri: channel.resourceUri,
        state: 'sync',
        messageNumber: 1,
        expiration: channel.expiration,
        ...(channel.token !== undefined ? { token: channel.token } : {}),
        ...(channel.kind === 'changes' ? { changeLog: true } : {}),
      });
      return true;
    },
    ready: () => engine.ready(),
    async stop(channel) {
      await channels.remove(channel.project, channel.id);
      await engine.dropChannel(channelQueueKey(channel));
    },
    async close() {
      unsubscribe();
      await engine.close();
    },
  };
}
