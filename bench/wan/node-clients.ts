/**
 * The WAN bench's Node-side figures: the link checked against its own definition (a raw PUT takes size ÷ B + 2 RTT,
 * a tiny request one RTT, both on a warm connection), and HTTP/2 against HTTP/1.1 on loopback into the same service
 * (the flow-control windows of `server/http/https-server.ts`).
 */
import { Agent, request } from 'node:https';
import { connect } from 'node:http2';
import type { Readable } from 'node:stream';
import { startLink } from './link.ts';

const MiB = 1024 * 1024;
const AUTH = { authorization: 'Bearer dev-token-alice' };

/** A body of `mib` MiB of one repeated pseudo-random MiB, written with backpressure. */
function writeBody(
  to: NodeJS.WritableStream & { write(b: Buffer, cb?: () => void): boolean },
  mib: number,
  done: () => void,
): void {
  const part = Buffer.alloc(MiB);
  for (let i = 0; i < part.length; i++) part[i] = (i * 2654435761) >>> 24;
  let left = mib;
  const next = () => {
    while (left > 0) {
      left--;
      if (!to.write(part)) return void to.once('drain', next);
    }
    to.end();
    done();
  };
  next();
}

/** One HTTP/1.1 request over TLS on `agent`; resolves with status, `location` and body text. */
function h1(agent: Agent, url: string, method: string, headers: Record<string, string>, mib?: number, body?: string) {
  return new Promise<{ status: number; location?: string; text: string }>((resolve, reject) => {
    const req = request(url, { method, agent, headers: { ...AUTH, ...headers } }, (res) => {
      let text = '';
      res.on('data', (c: Buffer) => (text += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, location: res.headers.location, text }));
      (res as Readable).on('error', reject);
    });
    req.on('error', reject);
    if (mib !== undefined) writeBody(req, mib, () => undefined);
    else req.end(body);
  });
}

/** Session start and one PUT of `mib` MiB over HTTP/1.1; ms. */
async function h1Upload(agent: Agent, base: string, mib: number): Promise<number> {
  const t0 = performance.now();
  const start = await h1(
    agent,
    `${base}/upload/store/v3/files?uploadType=resumable`,
    'POST',
    { 'content-type': 'application/json', 'x-upload-content-length': String(mib * MiB) },
    undefined,
    '{"name":"node-h1.bin"}',
  );
  const put = await h1(agent, start.location!, 'PUT', { 'content-length': String(mib * MiB) }, mib);
  if (put.status !== 200) throw new Error(`PUT ${put.status}: ${put.text}`);
  return performance.now() - t0;
}

/** The same over one HTTP/2 session; ms. */
async function h2Upload(base: string, ca: string, mib: number): Promise<number> {
  const session = connect(base, { ca });
  const call = (headers: Record<string, string>, body?: string | number) =>
    new Promise<{ status: number; location?: string }>((resolve, reject) => {
      const stream = session.request({ ...AUTH, ...headers });
      let status = 0;
      let location: string | undefined;
      stream.on('response', (h) => ((status = Number(h[':status'])), (location = h.location)));
      stream.on('error', reject);
      stream.resume();
      stream.on('end', () => resolve({ status, location }));
      if (typeof body === 'string') stream.end(body);
      else if (typeof body === 'number') writeBody(stream, body, () => undefined);
    });
  try {
    await call({ ':path': '/store/v3/about?fields=user' });
    const t0 = performance.now();
    const start = await call(
      {
        ':method': 'POST',
        ':path': '/upload/store/v3/files?uploadType=resumable',
        'content-type': 'application/json',
        'x-upload-content-length': String(mib * MiB),
      },
      '{"name":"node-h2.bin"}',
    );
    const url = new URL(start.location!);
    const put = await call(
      { ':method': 'PUT', ':path': url.pathname + url.search, 'content-length': String(mib * MiB) },
      mib,
    );
    if (put.status !== 200) throw new Error(`h2 PUT ${put.status}`);
    return performance.now() - t0;
  } finally {
    session.close();
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** CPU seconds of this process so far. */
function ownCpu(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1e6;
}

/**
 * HTTP/2 ÷ HTTP/1.1 time of a `mib` MiB upload on loopback (Node clients, both over TLS), median of `runs`
 * alternating, with the CPU seconds the service and the client spent on each (a figure the machine's load does not
 * move as much as the time).
 */
export async function loopbackProtocols(
  base: string,
  ca: string,
  mib: number,
  runs: number,
  serviceCpu: () => Promise<number>,
) {
  const agent = new Agent({ keepAlive: true, ca });
  const timed = async (upload: () => Promise<number>) => {
    const [service, own] = [await serviceCpu(), ownCpu()];
    const ms = await upload();
    return { ms, serviceCpu: (await serviceCpu()) - service, clientCpu: ownCpu() - own };
  };
  try {
    await h1(agent, `${base}/store/v3/about?fields=user`, 'GET', {});
    const one: Awaited<ReturnType<typeof timed>>[] = [];
    const two: typeof one = [];
    for (let i = 0; i < runs; i++) {
      one.push(await timed(() => h1Upload(agent, base, mib)));
      two.push(await timed(() => h2Upload(base, ca, mib)));
    }
    const m = (xs: typeof one, key: 'ms' | 'serviceCpu' | 'clientCpu') => median(xs.map((x) => x[key]));
    return {
      http1_s: m(one, 'ms') / 1000,
      http2_s: m(two, 'ms') / 1000,
      ratio: median(two.map((t, i) => t.ms / one[i].ms)),
      http1_serviceCpu_s: m(one, 'serviceCpu'),
      http2_serviceCpu_s: m(two, 'serviceCpu'),
      http1_clientCpu_s: m(one, 'clientCpu'),
      http2_clientCpu_s: m(two, 'clientCpu'),
    };
  } finally {
    agent.destroy();
  }
}

/** The link against its definition on a warm HTTP/1.1 connection: upload time ÷ (size ÷ B + 2 RTT), tiny request ÷ RTT. */
export async function validateLink(servicePort: number, ca: string, rttMs: number, mbit: number, mib: number) {
  const link = await startLink({ upstream: `127.0.0.1:${servicePort}`, rttMs, upMbit: mbit });
  const agent = new Agent({ keepAlive: true, maxSockets: 1, ca });
  const base = `https://127.0.0.1:${link.port}`;
  try {
    await h1(agent, `${base}/store/v3/about?fields=user`, 'GET', {});
    const ms = await h1Upload(agent, base, mib);
    const limit = (mib * MiB * 8) / (mbit * 1000) + 2 * rttMs;
    const t0 = performance.now();
    const tiny = 10;
    for (let i = 0; i < tiny; i++) await h1(agent, `${base}/store/v3/about?fields=user`, 'GET', {});
    return { putRatio: ms / limit, tinyRequestRtts: (performance.now() - t0) / tiny / rttMs };
  } finally {
    agent.destroy();
    await link.close();
  }
}
