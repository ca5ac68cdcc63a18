/**
 * The one account-change call (`StoreClient.accountChanged`): parts made with a client — a watcher, an uploader, a
 * binding's store — subscribe here, and the call resolves once each of them has moved to the account signed in now.
 * The client layer knows only this small interface, so it imports nothing of the parts above it.
 */

/** Moves one bound part to `account` (undefined: the account the getter's token belongs to). */
export type AccountListener = (account: string | undefined) => unknown;

/** What a part needs of a client to follow its account changes. */
export interface AccountChanges {
  /**
   * Another account signed in (the app's `getAccessToken` now gives its token): every part bound to this client moves
   * to it. Resolves once all have; rejects with the first failure, after the others have moved.
   */
  accountChanged(account?: string): Promise<void>;
  /** Binds a part: `listener` runs on each `accountChanged`. Returns the unbind function (call it when the part ends). */
  onAccountChange(listener: AccountListener): () => void;
}

/** The subscription list behind `StoreClient.accountChanged`. */
export function accountChanges(): AccountChanges {
  const listeners = new Set<AccountListener>();
  return {
    async accountChanged(account) {
      for (const moved of await Promise.allSettled([...listeners].map(async (listener) => listener(account))))
        if (moved.status === 'rejected') throw moved.reason;
    },
    onAccountChange(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
  };
}
