import type { HashTracker } from '../../contract/ports.ts';

/**
 * A tracker usable at once while the real one is still opening (the hash worker starting, the WebAssembly
 * compiling): calls are forwarded in the order they were made, so the first request never waits for the hasher.
 */
export function deferredTracker(opening: Promise<HashTracker>): HashTracker {
  opening.catch(() => undefined); // each call reports the failure itself
  return {
    hashTo: (source, end) => opening.then((t) => t.hashTo(source, end)),
    stateAt: (source, offset) => opening.then((t) => t.stateAt(source, offset)),
    digest: (source, offset) => opening.then((t) => t.digest(source, offset)),
    abort: () =>
      void opening.then(
        (t) => t.abort(),
        () => undefined,
      ),
    close: () =>
      void opening.then(
        (t) => t.close(),
        () => undefined,
      ),
  };
}
