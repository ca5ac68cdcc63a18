/**
 * Push benchmark: latency from an API call to the relay's event stream (median and p99 over 200 changes), and
 * throughput of fan-out to 100 channels. Real service, real relay, real HTTPS on loopback.
 *
 * Run: `node --import tsx bench/push.bench.ts [--changes 200] [--channels 100] [--rounds 5]`; prints one JSON line.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { parseConfig, startService } from '../server/index.ts';
import { registerPushRoutes } from '../server/push/routes.ts';
import { startRelay } from '../server/relay/start.ts';
import { subscribeToRelay } from '../test/server/push-helpers.ts';

const { values } = parseArgs({
  options: {
    changes: { type: 'string', default: '200' },
    channels: { type: 'string', default: '100' },
    rounds: { type: 'string', default: '5' },
  },
});
const CHANGES = Number(values.changes);
const CHANNELS = Number(values.channels);
const ROUNDS = Number(values.rounds);
const TOKEN = 'dev-token-alice';

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

const dir = mkdtempSync(join(tmpdir(), 'push-bench-'));
const relay = await startRelay({ port: 0, host: 'localhost', certDir: join(dir, 'certs') });
const config = parseConfig({ verifiedDomains: [relay.url], registeredDomains: [relay.url], trustCa: [relay.caPath] });
const service = await startService({ port: 0, host: '127.0.0.1', dataDir: join(dir, 'data'), config, admin: false });
if (service.service.router.match('POST', '/store/v3/channels/stop').kind === 'none') {
  registerPushRoutes(service.service.router, service.service);
}
const sub = await subscribeToRelay(relay.url, readFileSync(relay.caPath, 'utf8'));

async function api(method: string, path: string, body?: unknown): Promise<any> {
  const res = await fetch(`${service.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
  if (!res.ok) throw new Error(`${method} ${path} → ${res.status} ${await res.text()}`);
  return res.json();
}

async function watch(fileId: string, id: string): Promise<string> {
  const channel = await api('POST', `/store/v3/files/${fileId}/watch`, { id, type: 'web_hook', address: sub.address, token: sub.token });
  await sub.take(channel.id, 1); // its sync
  return channel.id as string;
}

try {
  // Latency: one channel, one change at a time.
  const fileId = (await api('POST', '/store/v3/files', { name: 'bench.txt' })).id as string;
  const channelId = await watch(fileId, 'bench-latency');
  const latencies: number[] = [];
  for (let i = 1; i <= CHANGES; i++) {
    const t0 = performance.now();
    await api('PATCH', `/store/v3/files/${fileId}`, { name: `bench-${i}.txt` });
    await sub.take(channelId, 1 + i);
    latencies.push(performance.now() - t0);
  }
  latencies.sort((a, b) => a - b);

  // Throughput: CHANNELS channels on one file; each change fans out to all of them.
  const fanFile = (await api('POST', '/store/v3/files', { name: 'fan.txt' })).id as string;
  const ids: string[] = [];
  for (let c = 0; c < CHANNELS; c++) ids.push(await watch(fanFile, `bench-fan-${c}`));
  const t0 = performance.now();
  for (let r = 1; r <= ROUNDS; r++) await api('PATCH', `/store/v3/files/${fanFile}`, { name: `fan-${r}.txt` });
  await Promise.all(ids.map((id) => sub.take(id, 1 + ROUNDS)));
  const seconds = (performance.now() - t0) / 1000;
  const messages = CHANNELS * ROUNDS;

  console.log(
    JSON.stringify({
      bench: 'push',
      latencyMs: { changes: CHANGES, median: +percentile(latencies, 50).toFixed(2), p99: +percentile(latencies, 99).toFixed(2) },
      throughput: { channels: CHANNELS, messages, seconds: +seconds.toFixed(3), messagesPerSecond: Math.round(messages / seconds) },
    }),
  );
} finally {
  sub.close();
  await service.close();
  await relay.close();
  rmSync(dir, { recursive: true, force: true });
}
