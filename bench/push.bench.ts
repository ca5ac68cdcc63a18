/**
 * Push benchmark: latency from an API call to the relay's event stream (median and p99 over 200 changes, one at a
 * time), and throughput of fan-out to 100 channels on one file. A real `store-service` child process, the real
 * relay, real HTTPS on loopback. Sizes: `BENCH_PUSH_CHANGES` (200), `BENCH_PUSH_CHANNELS` (100),
 * `BENCH_PUSH_ROUNDS` (5 changes fanned out to every channel).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startRelay } from '../server/relay/start.ts';
import { subscribeToRelay } from '../test/server/push-helpers.ts';
import { startService, type ServiceHandle } from '../test/server/helpers/service.ts';
import type { BenchResult } from './types.ts';

const CHANGES = Number(process.env.BENCH_PUSH_CHANGES ?? 200);
const CHANNELS = Number(process.env.BENCH_PUSH_CHANNELS ?? 100);
const ROUNDS = Number(process.env.BENCH_PUSH_ROUNDS ?? 5);
/** The promise for the demo: a change shows on the page within a second. */
const LATENCY_TARGET_MS = 1000;
const THROUGHPUT_TARGET = 100;

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

async function api(svc: ServiceHandle, method: string, path: string, body?: object): Promise<any> {
  const r = await svc.api(method, path, body === undefined ? {} : { body });
  if (r.status !== 200) throw new Error(`${method} ${path} → ${r.status} ${r.text}`);
  return r.json();
}

/** Runs both measurements and returns the figures with their targets. */
export default async function pushBench(): Promise<BenchResult> {
  const dir = mkdtempSync(join(tmpdir(), 'push-bench-'));
  const relay = await startRelay({ port: 0, host: 'localhost', certDir: join(dir, 'certs') });
  const svc = await startService({
    config: { verifiedDomains: [relay.url], registeredDomains: [relay.url], trustCa: [relay.caPath] },
  });
  const sub = await subscribeToRelay(relay.url, readFileSync(relay.caPath, 'utf8'));
  const watch = async (fileId: string, id: string): Promise<string> => {
    const channel = await api(svc, 'POST', `/store/v3/files/${fileId}/watch`, {
      id,
      type: 'web_hook',
      address: sub.address,
      token: sub.token,
    });
    await sub.take(channel.id, 1); // its sync
    return channel.id as string;
  };
  try {
    // Latency: one channel, one change at a time, from the API call until the relay's stream has the message.
    const fileId = (await api(svc, 'POST', '/store/v3/files', { name: 'bench.txt' })).id as string;
    const channelId = await watch(fileId, 'bench-latency');
    const latencies: number[] = [];
    for (let i = 1; i <= CHANGES; i++) {
      const t0 = performance.now();
      await api(svc, 'PATCH', `/store/v3/files/${fileId}`, { name: `bench-${i}.txt` });
      await sub.take(channelId, 1 + i);
      latencies.push(performance.now() - t0);
    }
    latencies.sort((a, b) => a - b);

    // Throughput: CHANNELS channels on one file; each change fans out to all of them.
    const fanFile = (await api(svc, 'POST', '/store/v3/files', { name: 'fan.txt' })).id as string;
    const ids: string[] = [];
    for (let c = 0; c < CHANNELS; c++) ids.push(await watch(fanFile, `bench-fan-${c}`));
    const t0 = performance.now();
    for (let r = 1; r <= ROUNDS; r++) await api(svc, 'PATCH', `/store/v3/files/${fanFile}`, { name: `fan-${r}.txt` });
    await Promise.all(ids.map((id) => sub.take(id, 1 + ROUNDS)));
    const seconds = (performance.now() - t0) / 1000;
    const messages = CHANNELS * ROUNDS;

    const median = +percentile(latencies, 50).toFixed(2);
    const p99 = +percentile(latencies, 99).toFixed(2);
    const perSecond = Math.round(messages / seconds);
    console.error(
      `push: latency median ${median} ms, p99 ${p99} ms over ${CHANGES}; ${messages} messages to ${CHANNELS} channels in ${seconds.toFixed(3)} s`,
    );
    return {
      name: 'push',
      metrics: {
        changes: CHANGES,
        latencyMedianMs: median,
        latencyP99Ms: p99,
        channels: CHANNELS,
        messages,
        fanOutSeconds: +seconds.toFixed(3),
        messagesPerSecond: perSecond,
      },
      targets: {
        latencyMedianMs: { value: median, target: `< ${LATENCY_TARGET_MS} ms`, pass: median < LATENCY_TARGET_MS },
        latencyP99Ms: { value: p99, target: `< ${LATENCY_TARGET_MS} ms`, pass: p99 < LATENCY_TARGET_MS },
        messagesPerSecond: { value: perSecond, target: `≥ ${THROUGHPUT_TARGET}`, pass: perSecond >= THROUGHPUT_TARGET },
      },
    };
  } finally {
    sub.close();
    await svc.stop();
    await relay.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
