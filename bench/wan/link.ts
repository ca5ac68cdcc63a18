/**
 * One emulated network link as a user-space TCP proxy (this kernel has no `netem`): every connection to `port` is
 * relayed byte for byte to `upstream`, whatever the protocol (plain HTTP/1.1, TLS, HTTP/2), with
 *
 * - a one-way delay of `rttMs / 2` in each direction;
 * - each direction's bandwidth shared by every connection on one clock: a piece of data leaves when the link is
 *   free and takes its serialisation time (bytes ÷ bandwidth), like a bottleneck queue;
 * - backpressure at about one bandwidth-delay product per direction: past it the proxy stops reading every client
 *   socket of that direction, so a sender sees the link and not a proxy buffer (TCP's own socket buffers on
 *   loopback still hold some more, as a sender's kernel would);
 * - one round trip per new connection before its first byte goes (the SYN / SYN-ACK exchange).
 *
 * ```ts
 * const link = await startLink({ upstream: 'http://127.0.0.1:8080', rttMs: 100, upMbit: 40 });
 * fetch(`http://127.0.0.1:${link.port}/…`); link.stats(); await link.close();
 * ```
 */
import { connect, createServer, type Socket } from 'node:net';

/** What {@link startLink} emulates. */
export interface LinkOptions {
  /** Where connections go: `host:port`, or a URL whose host and port are used (its scheme is irrelevant). */
  readonly upstream: string;
  /** Round-trip time in ms (half of it each way). */
  readonly rttMs: number;
  /** Client → upstream bandwidth in Mbit/s (10^6 bit/s). */
  readonly upMbit: number;
  /** Upstream → client bandwidth in Mbit/s; default: no cap (delay only). */
  readonly downMbit?: number;
  /** Host to listen on (default 127.0.0.1). */
  readonly host?: string;
}

/** What went over the link so far. */
export interface LinkStats {
  /** Connections accepted. */
  readonly connections: number;
  /** Bytes delivered client → upstream. */
  readonly bytesUp: number;
  /** Bytes delivered upstream → client. */
  readonly bytesDown: number;
  /** Ms the upstream direction spent serialising bytes (busy); the rest of a period was idle. */
  readonly busyUpMs: number;
  /** Bytes read from clients and not yet delivered upstream (what backpressure bounds). */
  readonly queuedUp: number;
  /** The bound: about one bandwidth-delay product of the upstream direction. */
  readonly queueLimitUp: number;
  /** Wall time (ms, `performance.now()`) of the first and of the last byte that left upstream; undefined before any. */
  readonly firstUpAt: number | undefined;
  readonly lastUpAt: number | undefined;
  /** Each stretch (ms) the upstream direction stood idle between its first and its last byte. */
  readonly idleGapsUp: readonly number[];
}

/** A running link. */
export interface Link {
  readonly port: number;
  /** `host:port` clients connect to. */
  readonly address: string;
  stats(): LinkStats;
  /** Zeroes the counters (between the cases of a bench). */
  resetStats(): void;
  /** Stops listening and drops every connection. */
  close(): Promise<void>;
}

/** Data is cut into pieces of at most this size, so connections sharing the link interleave finely. */
const PIECE = 16 * 1024;

type Delivery = { at: number; to: Socket; data?: Buffer; end?: true; destroy?: true };

/**
 * One direction of the link: the shared serialisation clock, the delay line (deliveries in time order: the link
 * is FIFO, so times only grow) and the count of bytes read but not yet delivered, which drives backpressure.
 */
class Direction {
  private freeAt = 0;
  private readonly line: Delivery[] = [];
  private timer: NodeJS.Timeout | undefined;
  inFlight = 0;
  /** The sockets this direction reads (a client joins once its handshake is over). */
  readonly readers = new Set<Socket>();
  private paused = false;
  bytes = 0;
  busyMs = 0;
  firstAt: number | undefined;
  lastAt: number | undefined;
  /** Each stretch (ms) the direction stood idle between two of its bytes. */
  gaps: number[] = [];

  constructor(
    private readonly oneWayMs: number,
    /** Bytes per ms; Infinity for no cap. */
    private readonly rate: number,
    readonly limit: number,
  ) {}

  /** Queues data read from one socket for delivery to `to`. */
  send(to: Socket, data: Buffer): void {
    for (let at = 0; at < data.length; at += PIECE) {
      const piece = data.subarray(at, at + PIECE);
      const now = performance.now();
      const serialise = piece.length / this.rate;
      if (this.lastAt !== undefined && now > this.freeAt) this.gaps.push(now - this.freeAt);
      const leaves = Math.max(now, this.freeAt) + serialise;
      this.freeAt = leaves;
      this.busyMs += serialise;
      this.firstAt ??= leaves - serialise;
      this.lastAt = leaves;
      this.inFlight += piece.length;
      this.push({ at: leaves + this.oneWayMs, to, data: piece });
    }
    this.pressure();
  }

  /** An end (FIN) or a reset, delivered after everything sent before it. */
  close(to: Socket, how: 'end' | 'destroy'): void {
    const at = Math.max(performance.now(), this.freeAt) + this.oneWayMs;
    this.push(how === 'end' ? { at, to, end: true } : { at, to, destroy: true });
  }

  private push(d: Delivery): void {
    this.line.push(d);
    if (this.line.length === 1) this.arm();
  }

  private arm(): void {
    clearTimeout(this.timer);
    const head = this.line[0];
    if (head) this.timer = setTimeout(() => this.deliver(), Math.max(0, head.at - performance.now()));
  }

  private deliver(): void {
    const now = performance.now();
    while (this.line.length > 0 && this.line[0].at <= now + 0.5) {
      const d = this.line.shift()!;
      if (d.data) {
        this.inFlight -= d.data.length;
        this.bytes += d.data.length;
        if (!d.to.destroyed) d.to.write(d.data);
      } else if (d.end) d.to.end();
      else d.to.destroy();
    }
    this.pressure();
    this.arm();
  }

  /** Stops reading every socket of this direction past the limit, and reads again below it. */
  pressure(): void {
    const over = this.inFlight > this.limit;
    if (over === this.paused) return;
    this.paused = over;
    for (const s of this.readers)
      if (over) s.pause();
      else s.resume();
  }

  get isPaused(): boolean {
    return this.paused;
  }

  stop(): void {
    clearTimeout(this.timer);
    this.line.length = 0;
  }
}

function parseUpstream(upstream: string): { host: string; port: number } {
  const url = /^[a-z][a-z0-9+.-]*:\/\//i.test(upstream) ? new URL(upstream) : new URL(`tcp://${upstream}`);
  return { host: url.hostname.replace(/^\[|\]$/g, ''), port: Number(url.port) };
}

/** Starts the link on a free port. */
export async function startLink(options: LinkOptions): Promise<Link> {
  const target = parseUpstream(options.upstream);
  const oneWay = options.rttMs / 2;
  const bytesPerMs = (mbit: number | undefined) => (mbit === undefined ? Infinity : (mbit * 1e6) / 8 / 1000);
  // One bandwidth-delay product, and never less than a few pieces (a link of no delay still moves data).
  const bdp = (mbit: number | undefined) => Math.max(4 * PIECE, Math.round(bytesPerMs(mbit ?? 1000) * options.rttMs));
  const up = new Direction(oneWay, bytesPerMs(options.upMbit), bdp(options.upMbit));
  const down = new Direction(oneWay, bytesPerMs(options.downMbit), bdp(options.downMbit));
  let connections = 0;
  const sockets = new Set<Socket>();

  // Half-open allowed both ways: a FIN travels the link like data and closes only its own direction.
  const server = createServer({ pauseOnConnect: true, allowHalfOpen: true }, (client) => {
    connections++;
    const service = connect({ port: target.port, host: target.host, allowHalfOpen: true });
    sockets.add(client).add(service);
    client.setNoDelay(true);
    service.setNoDelay(true);
    // The handshake: nothing the client wrote leaves before a round trip has passed.
    const handshake = setTimeout(() => {
      up.readers.add(client);
      if (!up.isPaused) client.resume();
    }, options.rttMs);
    down.readers.add(service);
    if (down.isPaused) service.pause();
    client.on('data', (data: Buffer) => up.send(service, data));
    service.on('data', (data: Buffer) => down.send(client, data));
    client.on('end', () => up.close(service, 'end'));
    service.on('end', () => down.close(client, 'end'));
    // A reset (or an error) on one side reaches the other after the delay, as an RST would.
    client.on('error', () => undefined);
    service.on('error', () => undefined);
    client.on('close', (hadError) => {
      clearTimeout(handshake);
      up.readers.delete(client);
      sockets.delete(client);
      if (hadError) up.close(service, 'destroy');
    });
    service.on('close', (hadError) => {
      down.readers.delete(service);
      sockets.delete(service);
      if (hadError) down.close(client, 'destroy');
    });
  });
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, host, resolve);
  });
  const port = (server.address() as { port: number }).port;
  return {
    port,
    address: `${host}:${port}`,
    stats: () => ({
      connections,
      bytesUp: up.bytes,
      bytesDown: down.bytes,
      busyUpMs: up.busyMs,
      queuedUp: up.inFlight,
      queueLimitUp: up.limit,
      firstUpAt: up.firstAt,
      lastUpAt: up.lastAt,
      idleGapsUp: [...up.gaps],
    }),
    resetStats() {
      connections = 0;
      for (const d of [up, down]) {
        d.bytes = 0;
        d.busyMs = 0;
        d.firstAt = undefined;
        d.lastAt = undefined;
        d.gaps = [];
      }
    },
    async close() {
      up.stop();
      down.stop();
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
