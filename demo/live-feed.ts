/**
 * The demo's live change feed: watches the change log through the push relay (`src/client/watch.ts`) and lists
 * each notification as it arrives. Without a relay (or when it cannot be reached) the section says why instead.
 */
import type { StoreClient } from '../src/client/index.ts';
import { createWatcher, type Watcher } from '../src/client/watch.ts';
import type { PushEvent } from '../src/client/relay-events.ts';

const MAX_ITEMS = 50;

/** Starts the feed; `onChange` runs on every change notification (the page refreshes its file list). */
export function startLiveFeed(options: {
  client: StoreClient;
  relayUrl: string;
  list: HTMLElement;
  status: HTMLElement;
  onChange: () => void;
}): Watcher | undefined {
  const { client, relayUrl, list, status, onChange } = options;
  if (!relayUrl) {
    status.textContent = 'The live feed needs the push relay; npm start runs it when server/relay/ exists.';
    return undefined;
  }
  status.textContent = 'Connecting to the relay…';
  const watcher = createWatcher({ client, relayUrl });
  const watch = watcher.watchChanges();
  watch.onError((error) => {
    status.textContent = `Live feed unavailable: ${(error as Error).message ?? String(error)}`;
  });
  watch.on('*', (event: PushEvent) => {
    const item = document.createElement('li');
    const time = document.createElement('time');
    const now = new Date();
    time.dateTime = now.toISOString();
    time.textContent = now.toLocaleTimeString();
    item.append(time, ` ${describe(event)}`);
    list.prepend(item);
    while (list.children.length > MAX_ITEMS) list.lastElementChild?.remove();
    if (event.state !== 'sync') onChange();
  });
  void watch.ready().then(
    (channel) => {
      status.textContent = `Watching the change log (channel ${channel.id.slice(0, 8)}…, until ${new Date(channel.expiration).toLocaleTimeString()}).`;
    },
    () => undefined,
  );
  return watcher;
}

function describe(event: PushEvent): string {
  if (event.state === 'sync') return 'sync: the channel is open.';
  const changed = event.changed.length ? ` (${event.changed.join(', ')})` : '';
  return `${event.state}${changed}: message ${event.messageNumber}.`;
}
