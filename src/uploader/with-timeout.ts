/**
 * Settles as `promise` does, or rejects with `timedOut()` after `ms` milliseconds: every wait of the uploader on
 * another thread (a worker's first answer, a page's token) has a bound. Used on the page and in the workers alike.
 */
export function withTimeout<T>(promise: Promise<T>, ms: number, timedOut: () => Error): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(timedOut()), ms);
    promise.then(resolve, reject).finally(() => clearTimeout(timer));
  });
}
