/**
 * How many uploads run at once when the app sets no `concurrency` (issue 21). On a link with a long round trip a
 * small file costs a round trip more than its bytes, so only many small files in flight keep the link busy; HTTP/2
 * and HTTP/3 carry them as streams of one connection, while over HTTP/1.1 the browser opens 6 connections per host
 * and queues the rest (where no byte moves and the stall timer still runs). Large files fill the link alone, so what
 * runs is also bounded by the size of the files under way: small files slip in beside two large ones, a third waits.
 *
 * Measured through a 100 ms / 40 Mbit/s link (bench/README.md, "wan"): 400 files of 64 KiB with 3 in flight took
 * 3.6 × the physical limit; a raw client with 32 in flight over HTTP/2 1.09 ×, and over HTTP/1.1 32 were no faster
 * than 6.
 */

const MiB = 1024 * 1024;

/** The browsers' HTTP/1.1 connections per host: more requests at once only wait in the browser. */
export const HTTP1_IN_FLIGHT = 6;
/**
 * The bytes of the files under way together, each file counted as at least 1 MiB and at most 12: so at most 32
 * small files at once (what a raw client needed to reach the link with 64 KiB files over HTTP/2), two large ones
 * with 8 small beside them, or one with 20.
 */
export const BYTES_IN_FLIGHT = 32 * MiB;

/** A file's share of `BYTES_IN_FLIGHT`: a tiny one still costs a request, a huge one no more than a large one. */
const counted = (bytes: number) => Math.min(12 * MiB, Math.max(MiB, bytes));

/**
 * Whether the upload of a file of `bytes` may start beside the running uploads of files of `running` bytes each.
 * `protocol` is the last `nextHopProtocol` heard from the service (undefined: not known yet, counted as HTTP/1.1);
 * `concurrency`, when the app set it, is the exact number of uploads at once and nothing else is looked at.
 */
export function mayStart(bytes: number, running: readonly number[], protocol?: string, concurrency?: number): boolean {
  if (concurrency) return running.length < concurrency;
  // Alone, an upload always fits: it counts at most 12 MiB. (`undefined` reads as its string, which is no match.)
  return (
    (/^h[23]/.test(protocol as string) || running.length < HTTP1_IN_FLIGHT) &&
    running.reduce((sum, size) => sum + counted(size), counted(bytes)) <= BYTES_IN_FLIGHT
  );
}
