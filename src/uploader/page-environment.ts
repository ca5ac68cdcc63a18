/**
 * What the main-thread uploader asks of the page around it: connectivity events, persistent storage, and a worker
 * that answers in time. Each degrades to nothing where the page lacks it (SSR, old browsers).
 */

/** How long the worker may take to answer its first call before tasks fail (a wrong worker URL hangs silently). */
const WORKER_START_TIMEOUT_MS = 15_000;

/** Calls `onChange` on the page's `online` and `offline` events; returns the function that stops listening. */
export function watchConnectivity(onChange: (online: boolean) => void): () => void {
  const scope = globalThis as { addEventListener?: EventTarget['addEventListener']; removeEventListener?: EventTarget['removeEventListener'] };
  if (typeof scope.addEventListener !== 'function') return () => undefined;
  const online = () => onChange(true);
  const offline = () => onChange(false);
  scope.addEventListener('online', online);
  scope.addEventListener('offline', offline);
  return () => {
    scope.removeEventListener?.('online', online);
    scope.removeEventListener?.('offline', offline);
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

/** Rejects when the worker reports a load error or does not answer in time. */
export function withTimeout(first: Promise<void>, worker: Worker | undefined): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no answer within ${WORKER_START_TIMEOUT_MS} ms`)), WORKER_START_TIMEOUT_MS);
    worker?.addEventListener('error', (event) => reject(new Error((event as ErrorEvent).message || 'worker script failed to load')), { once: true });
    first.then(resolve, reject).finally(() => clearTimeout(timer));
  });
}
