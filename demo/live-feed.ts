/**
 * The demo's live change feed: watches the change log through the push relay (`src/client/watch.ts`) and, on each
 * notification, reads the change log (`change-log.ts`) to list which file changed and how. Without a relay (or when
 * it cannot be reached) the section says why instead.
 */
import type { StoreClient } from '../src/client/index.ts';
import { createWatcher, type Watcher } from '../src/client/watch.ts';
import type { PushEvent } from '../src/client/index.ts';
import { ChangeLog, type FeedChange } from './change-log.ts';

const MAX_ITEMS = 50;
const VERBS: Record<FeedChange['kind'], string> = {
  added: 'added',
  changed: 'changed',
  trashed: 'moved to the trash',
  removed: 'removed',
};

/** A running feed. */
export interface LiveFeed {
  watcher: Watcher;
  /**
   * Another account signed in (the client's getter gives its token): the feed empties, the first account's channel
   * is stopped and the second's opened (`Watcher.accountChanged`), and the change log is read as the second account.
   * The client's `accountChanged` calls it: the app makes that one call.
   */
  accountChanged(): Promise<void>;
}

/** Starts the feed; `onChange` runs on every change notification (the page refreshes its file list). */
export function startLiveFeed(options: {
  client: StoreClient;
  relayUrl: string;
  list: HTMLElement;
  status: HTMLElement;
  onChange: () => void;
}): LiveFeed | undefined {
  const { client, relayUrl, list, status, onChange } = options;
  if (!relayUrl) {
    status.textContent = 'No live feed: the push relay is not running (npm start runs it).';
    return undefined;
  }
  status.textContent = 'Connecting to the relay…';
  // Taken before the channel opens, so no change between the two is missed.
  let log = new ChangeLog(client);
  /** Bumped when another account signs in: a change-log read begun before is the previous account's, and is dropped. */
  let account = 0;
  const watcher = createWatcher({ client, relayUrl });
  const watch = watcher.watchChanges();
  const add = (text: string, detail: string, at = new Date()): void => {
    const item = document.createElement('li');
    const time = document.createElement('time');
    time.dateTime = at.toISOString();
    time.textContent = at.toLocaleTimeString();
    const what = document.createElement('span');
    what.textContent = text;
    const more = document.createElement('span');
    more.className = 'detail';
    more.textContent = detail;
    item.append(time, ' ', what, ' ', more);
    list.prepend(item);
    while (list.children.length > MAX_ITEMS) list.lastElementChild?.remove();
  };
  watch.onError((error) => {
    status.textContent = `Live feed unavailable: ${(error as Error).message ?? String(error)}`;
  });
  watch.on('*', (event: PushEvent) => {
    if (event.state === 'sync') return add('Connected: changes to your files will show up here.', '(sync, message 1)');
    onChange();
    const reading = account;
    log.read().then(
      (changes) => {
        if (reading !== account) return;
        for (const c of changes)
          add(`${c.name} ${VERBS[c.kind]}`, `(${event.state}, message ${event.messageNumber})`, new Date(c.time));
      },
      (error: unknown) => {
        if (reading === account)
          add('The change log has new items.', `(could not read them: ${(error as Error).message})`);
      },
    );
  });
  const showChannel = (): void =>
    void watch.ready().then(
      (channel) => {
        status.textContent = `Watching the change log until ${new Date(channel.expiration).toLocaleTimeString()} (channel ${channel.id.slice(0, 8)}…).`;
      },
      () => undefined,
    );
  showChannel();
  const feed: LiveFeed = {
    watcher,
    async accountChanged() {
      account++;
      list.replaceChildren();
      status.textContent = 'Connecting to the relay…';
      log = new ChangeLog(client);
      await watcher.accountChanged(); // the same move as the client's call makes: one, however many ask
      showChannel();
    },
  };
  // The app's one call (`client.accountChanged()`) moves the watcher by itself; the feed empties and shows the new channel.
  client.onAccountChange(() => feed.accountChanged());
  return feed;
}
