/**
 * The order in which requests arrived, across every transport of the process and every node over one database:
 * each request's `arrival` is higher than that of every request whose head was received before it (a newer request
 * on a resumable session supersedes an older one still on it, however and wherever each came in). It counts from
 * the wall clock in µs, so nodes compare their requests (a client's later request is newer on any node), and stays
 * above every earlier one of this process.
 */
let lastArrival = 0;

/** The next arrival number. */
export function nextArrival(): number {
  lastArrival = Math.max(lastArrival + 1, Date.now() * 1000);
  return lastArrival;
}
