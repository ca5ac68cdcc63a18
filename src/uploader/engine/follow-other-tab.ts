import { Interrupt } from './interrupt.ts';
import { sessionLockKey, type ChannelPort, type LockPort, type SessionMessage } from '../contract/ports.ts';
import type { TaskSnapshot } from '../contract/types.ts';
import type { UploadStrategy } from './upload-strategy.ts';

/**
 * Another tab is uploading this session: mirror its progress (BroadcastChannel) until it lets go of the lock — then
 * this tab holds it, returns `undefined`, and the job asks the service where the upload stands — or until it reports
 * the end of the upload, which is returned.
 */
export async function followOtherTab(
  ports: { locks: LockPort; channel?: ChannelPort },
  snapshot: TaskSnapshot,
  strategy: UploadStrategy,
  sessionUri: string,
  signal: AbortSignal,
  progress: () => void,
): Promise<SessionMessage | undefined> {
  const ended = new AbortController();
  let outcome: SessionMessage | undefined;
  const stop = ports.channel?.subscribe((message) => {
    if (message.sessionUri !== sessionUri) return;
    if (message.type === 'progress') {
      snapshot.bytesAcknowledged = message.bytesAcknowledged;
      snapshot.bytesSent = Math.max(message.bytesSent, message.bytesAcknowledged);
      progress();
      return;
    }
    outcome = message;
    ended.abort(new Interrupt('pause'));
  });
  try {
    const lock = await ports.locks.acquire(sessionLockKey(sessionUri), AbortSignal.any([signal, ended.signal]));
    strategy.adoptLock(lock);
    return undefined;
  } catch (error) {
    if (outcome) return outcome;
    throw error;
  } finally {
    stop?.();
    delete snapshot.inOtherTab;
  }
}
