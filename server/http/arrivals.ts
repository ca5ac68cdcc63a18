/**
 * The order in which requests arrived, across every transport of the process: each request's `arrival` is higher
 * than that of every request whose head was received before it (a newer request on a resumable session supersedes
 * an older one still on it, however each came in).
 */
let arrivals = 0;

/** The next arrival number. */
export function nextArrival(): number {
  return ++arrivals;
}
