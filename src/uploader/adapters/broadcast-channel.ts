import type { ChannelPort, SessionMessage } from '../contract/ports.ts';

/** The channel name the kit's tabs and workers talk on. */
const CHANNEL_NAME = 'store-upload-kit:sessions';

/**
 * The channel port over `BroadcastChannel` (windows, workers, and Node ≥ 18): every other instance of the origin
 * with the same name hears a message; the sender does not.
 */
export function broadcastChannel(name = CHANNEL_NAME): ChannelPort {
  const channel = new BroadcastChannel(name);
  const listeners = new Set<(message: SessionMessage) => void>();
  channel.onmessage = (event: MessageEvent<SessionMessage>) => {
    for (const listener of [...listeners]) listener(event.data);
  };
  return {
    post: (message) => channel.postMessage(message),
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    close: () => channel.close(),
  };
}
