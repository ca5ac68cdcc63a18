import type { OnlinePort } from '../contract/ports.ts';
import { withTimeout } from '../contract/with-timeout.ts';

/**
 * What the main-thread uploader asks of the page around it: connectivity events, the page's own life (hidden,
 * back from the back/forward cache), persistent storage, and a worker that answers in time. Each degrades to
 * nothing where the page lacks it (SSR, old browsers).
 */

/** How long the worker may take to answer its first call before tasks fail (a wrong worker URL hangs silently). */
const WORKER_START_TIMEOUT_MS = 15_000;

/**
 * Connectivity from `navigator.onLine` and the `online`/`offline` events of the global scope (a window or a worker).
 * Where neither exists (Node), the port says "online" and never changes.
 */
export function navigatorOnline(scope: EventTarget | undefined = globalThis): OnlinePort {
  const nav = (globalThis as { navigator?: { onLine?: boolean } }).navigator;
  return {
    isOnline: () => nav?.onLine !== false,
    subscribe(listener) {
      if (!scope || typeof scope.addEventListener !== 'function') return () => undefined;
      const online = () => listener(true);
      const offline = () => listener(false);
      scope.addEventListener('online', online);
      scope.addEventListener('offline', offline);
      return () => {
        scope.removeEventListener('online', online);
        scope.removeEventListener('offline', offline);
      };
    },
  };
}

/**
 * Calls `onChange` on the page's `online` and `offline` events, and `onRestored` when the page comes back from the
 * back/forward cache (its view of a shared engine's tasks is then stale); returns the function that stops listening.
 */
export function watchPage(onChange: (online: boolean) => void, onRestored: () => void): () => void {
  const scope = globalThis as {
    addEventListener?: EventTarget['addEventListener'];
    removeEventListener?: EventTarget['removeEventListener'];
  };
  if (typeof scope.addEventListener !== 'function') return () => undefined;
  const stop = navigatorOnline().subscribe(onChange);
  const shown = (event: Event) => (event as PageTransitionEvent).persisted && onRestored();
  scope.addEventListener('pageshow', shown);
  return () => {
    stop();
    scope.removeEventListener?.('pageshow', shown);
  };
}

let persistenceAsked = false;

/**
 * Asks the browser once per page to keep the kit's IndexedDB data under storage pressure. `persist()` exists only in
 * windows (not in the worker); a refusal changes nothing, records may just be evicted under pressure.
 */
export function requestPersistentStorage(): void {
  if (persistenceAsked) return;
  persistenceAsked = true;
  const storage = (globalThis as { navigator?: { storage?: { persist?: () => Promise<boolean> } } }).navigator?.storage;
  try {
    void storage?.persist?.().catch(() => undefined);
  } catch {
    // No storage manager here (SSR, old browsers): nothing to ask.
  }
}

/** Rejects when the worker does not answer in time (a wrong worker URL hangs silently). */
export function workerAnswer<T>(first: Promise<T>): Promise<T> {
  return withTimeout(first, WORKER_START_TIMEOUT_MS, () => new Error(`no answer within ${WORKER_START_TIMEOUT_MS} ms`));
}
