import type { HashTracker } from '../../contract/ports.ts';

/**
 * A tracker usable at once while the real one is still opening (the hash worker starting, the WebAssembly
 * compiling): calls are forwarded in the order they were made, so the first request never waits for the hasher.
 */
export function deferredTracker(opening: Promise<HashTracker>): HashTracker {
  opening.catch(() => undefined); // each call reports the failure itself
  return {
    hashTo: (file, end) => opening.then((t) => t.hashTo(file, end)),
    stateAt: (file, offset) => opening.then((t) => t.stateAt(file, offset)),
    digest: (file, offset) => opening.then((t) => t.digest(file, offset)),
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
