// A real HTTP proxy in front of the service that counts the body bytes of every request it receives and forwards
// (and logs when each piece arrived, for the benches' gaps in the flow) and the requests in flight at once, and can throttle how fast it reads them (so
// a page reload lands in the middle of an upload on loopback). A request the client abandons mid-body is cut towards
// the service too, as a dropped connection would be.
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One proxied request. */
export interface ProxiedRequest {
  method: string;
  /** Path and query. */
  url: string;
  /** Body bytes received from the client. */
  received: number;
  /** Body bytes handed on to the service (written to its socket). */
  forwarded: number;
  /** True when the client went away before the whole body arrived. */
  cut: boolean;
  status?: number;
  /** Each piece of body as it arrived: when (`performance.now()` of this process) and how many bytes. */
  arrivals: { at: number; bytes: number }[];
}

export interface CountingProxy {
  url: string;
  requests: ProxiedRequest[];
  /** The first request (already seen or still to come) that `match` picks, once it has arrived. */
  arrived(match: (r: ProxiedRequest) => boolean): Promise<ProxiedRequest>;
  /** The same, once the service has answered it. */
  answered(match: (r: ProxiedRequest) => boolean): Promise<ProxiedRequest>;
  /** Bytes per second the proxy reads request bodies at; `undefined` for no limit. */
  rate: number | undefined;
  /**
   * Holds back the service's answer to the next request `match` picks until `release()`: the service has handled
   * it (`answered` resolves), only the client does not hear back, as when an answer comes too late.
   */
  holdAnswer(match: (r: ProxiedRequest) => boolean): { release(): void };
  /**
   * Once the answer to one request `first` picks has gone back, holds every later answer until more than `inFlight` requests are in flight at
   * once (then lets them all go and holds no more), or until `limitMs` has passed: a peak of concurrency is then
   * reached on a loaded machine too, not only when answers happen to come back slowly.
   */
  holdAnswersUntilInFlight(first: (r: ProxiedRequest) => boolean, inFlight: number, limitMs: number): void;
  /** Requests in flight now (arrived, their answer not yet all sent back), and the most there were at once. */
  inFlight: number;
  peakInFlight: number;
  close(): Promise<void>;
}

export async function startCountingProxy(target: string, rate?: number): Promise<CountingProxy> {
  const upstream = new URL(target);
  const waiters: { match: (r: ProxiedRequest) => boolean; answered: boolean; resolve: (r: ProxiedRequest) => void }[] =
    [];
  const notify = () => {
    for (const w of [...waiters]) {
      const found = proxy.requests.find((r) => w.match(r) && (!w.answered || r.status !== undefined));
      if (found) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve(found);
      }
    }
  };
  const wait = (answered: boolean) => (match: (r: ProxiedRequest) => boolean) =>
    new Promise<ProxiedRequest>((resolve) => {
      waiters.push({ match, answered, resolve });
      notify();
    });
  type Gate = {
    first: (r: ProxiedRequest) => boolean;
    over: number;
    opened: boolean;
    delivered: boolean;
    held: (() => void)[];
  };
  let gate: Gate | undefined;
  const openGate = (g: Gate) => {
    if (g.opened) return;
    g.opened = true;
    for (const pass of g.held.splice(0)) pass();
  };
  const holds: { match: (r: ProxiedRequest) => boolean; taken: boolean; release: () => void }[] = [];
  const proxy: CountingProxy = {
    url: '',
    requests: [],
    rate,
    inFlight: 0,
    peakInFlight: 0,
    arrived: wait(false),
    answered: wait(true),
    close: async () => undefined,
    holdAnswersUntilInFlight(first, inFlight, limitMs) {
      gate = { first, over: inFlight, opened: false, delivered: false, held: [] };
      const open = gate;
      setTimeout(() => openGate(open), limitMs).unref();
    },
    holdAnswer(match) {
      const hold = { match, taken: false, release: () => undefined };
      holds.push(hold);
      return { release: () => hold.release() };
    },
  };
  const server: Server = createServer((req, res) => {
    const entry: ProxiedRequest = {
      method: req.method ?? '',
      url: req.url ?? '',
      received: 0,
      forwarded: 0,
      cut: false,
      arrivals: [],
    };
    proxy.requests.push(entry);
    proxy.peakInFlight = Math.max(proxy.peakInFlight, ++proxy.inFlight);
    if (gate && proxy.inFlight > gate.over) openGate(gate);
    // Until the answer has gone back (or the client went away): what a client sees as one request in flight.
    res.on('close', () => proxy.inFlight--);
    notify();
    const out = request(
      { host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: req.headers },
      (answer) => {
        entry.status = answer.statusCode;
        notify();
        const pass = () => {
          if (res.destroyed) return void answer.resume();
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        };
        if (gate && !gate.opened) {
          if (gate.delivered) return void gate.held.push(pass);
          if (gate.first(entry)) gate.delivered = true;
        }
        const hold = holds.find((h) => !h.taken && h.match(entry));
        if (!hold) return pass();
        hold.taken = true;
        hold.release = pass;
      },
    );
    out.on('error', () => res.destroy());
    // The rate counts from when it was set (or the request began): a rate lowered mid-request holds from then on, even
    // when the bytes before it came slower than the new rate (a loaded machine), instead of letting the rest through
    // at full speed until the average catches up.
    let since = { at: Date.now(), received: 0, rate: proxy.rate };
    let ended = false;
    req.on('data', (chunk: Buffer) => {
      if (proxy.rate !== since.rate) since = { at: Date.now(), received: entry.received, rate: proxy.rate };
      entry.received += chunk.length;
      entry.arrivals.push({ at: performance.now(), bytes: chunk.length });
      out.write(chunk, () => (entry.forwarded += chunk.length));
      const limit = proxy.rate;
      if (limit) {
        const ahead = ((entry.received - since.received) / limit) * 1000 - (Date.now() - since.at);
        if (ahead > 5) {
          req.pause();
          setTimeout(() => req.resume(), ahead);
        }
      }
    });
    req.on('end', () => {
      ended = true;
      out.end();
    });
    req.on('close', () => {
      if (ended) return;
      entry.cut = true;
      out.destroy();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  proxy.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  proxy.close = () =>
    new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return proxy;
}

/** Body bytes sent to resumable sessions (data PUTs), summed over every request. */
export function sessionBytes(requests: readonly ProxiedRequest[]): number {
  return requests
    .filter((r) => r.method === 'PUT' && r.url.includes('upload_id='))
    .reduce((sum, r) => sum + r.received, 0);
}
