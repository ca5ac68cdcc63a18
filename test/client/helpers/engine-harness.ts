// Builds the real upload engine for Node tests: node:http port, in-memory session store, wall clock, and a
// hand-driven connectivity port; records every event so tests can assert on them.
import { createHash, randomBytes } from 'node:crypto';
import { createStoreClient } from '../../../src/client/index.ts';
import { MemoryLocks } from '../../../src/uploader/adapters/memory-locks.ts';
import { ManualOnline } from '../../../src/uploader/adapters/manual-online.ts';
import { MemorySessionStore } from '../../../src/uploader/adapters/memory-session-store.ts';
import { systemClock } from '../../../src/uploader/adapters/system-clock.ts';
import { UploadEngine, type EngineFile, type EngineIo } from '../../../src/uploader/engine/engine.ts';
import type { UploaderOptions } from '../../../src/uploader/contract/options.ts';
import { resolveSettings } from '../../../src/uploader/contract/settings.ts';
import type { TaskSnapshot } from '../../../src/uploader/contract/types.ts';
import type { JobEvent } from '../../../src/uploader/engine/upload-job.ts';
import { nodeHttp } from './node-http-port.ts';

export const TOKEN = 'dev-token-alice';

export interface Harness {
  engine: UploadEngine;
  store: MemorySessionStore;
  online: ManualOnline;
  events: { event: JobEvent; snapshot: TaskSnapshot }[];
  /** Resolves at the first event for which `predicate` is true. */
  when(predicate: (event: JobEvent, snapshot: TaskSnapshot) => boolean): Promise<TaskSnapshot>;
}

/** What a test may change: the engine's ports, and the app's options as `createUploader` takes them. */
export type HarnessOverrides = Partial<EngineIo> & Partial<Omit<UploaderOptions, 'baseUrl' | 'getAccessToken'>>;

/**
 * The engine as a page's uploader builds it: the options resolved by `resolveSettings` (checked, every default
 * applied), with quick retries and a short stall timeout unless the test says otherwise.
 */
export function harness(baseUrl: string, overrides: HarnessOverrides = {}): Harness {
  const events: Harness['events'] = [];
  const waiters: { predicate: (e: JobEvent, s: TaskSnapshot) => boolean; resolve: (s: TaskSnapshot) => void }[] = [];
  const { client, http, online: givenOnline, clock, store: givenStore, locks, channel, hasher, ...options } = overrides;
  const store = (givenStore as MemorySessionStore | undefined) ?? new MemorySessionStore();
  const online = (givenOnline as ManualOnline | undefined) ?? new ManualOnline(true);
  const settings = resolveSettings({
    baseUrl,
    getAccessToken: () => TOKEN,
    backoff: { baseMs: 20, capMs: 200 },
    stallTimeoutMs: 5000,
    ...options,
  });
  const engine = new UploadEngine({
    settings,
    io: {
      client: client ?? createStoreClient({ baseUrl, getAccessToken: () => TOKEN }),
      http: http ?? nodeHttp,
      online,
      clock: clock ?? systemClock,
      store,
      locks: locks ?? new MemoryLocks(),
      channel,
      hasher,
    },
    onEvent: (event, snapshot) => {
      events.push({ event, snapshot });
      for (const waiter of [...waiters]) {
        if (waiter.predicate(event, snapshot)) {
          waiters.splice(waiters.indexOf(waiter), 1);
          waiter.resolve(snapshot);
        }
      }
    },
  });
  return {
    engine,
    store,
    online,
    events,
    when: (predicate) => new Promise((resolve) => waiters.push({ predicate, resolve })),
  };
}

/** Random bytes as an engine file (a Blob plus File fields). */
export function randomFile(
  size: number,
  name = `f-${randomBytes(6).toString('hex')}.bin`,
  type = 'application/octet-stream',
): EngineFile & { bytes: Buffer } {
  const bytes = randomBytes(size);
  return { file: new Blob([bytes], { type }), name, type, lastModified: 1_700_000_000_000, bytes };
}

export function md5(bytes: Uint8Array): string {
  return createHash('md5').update(bytes).digest('hex');
}

/** The stored content of a file, downloaded with `alt=media`. */
export async function download(baseUrl: string, fileId: string): Promise<Buffer> {
  const res = await fetch(`${baseUrl}/store/v3/files/${encodeURIComponent(fileId)}?alt=media`, {
    headers: { authorization: `Bearer ${TOKEN}` },
  });
  if (res.status !== 200) throw new Error(`download ${fileId}: ${res.status} ${await res.text()}`);
  return Buffer.from(await res.arrayBuffer());
}

/** Files of the caller with this exact name (to prove there is no duplicate). */
export async function filesNamed(baseUrl: string, name: string): Promise<{ id: string }[]> {
  const q = encodeURIComponent(`name = '${name}'`);
  const res = await fetch(`${baseUrl}/store/v3/files?q=${q}&fields=files(id)`, {
    headers: { authorization: `Bearer ${TOKEN}` },
  });
  const body = (await res.json()) as { files: { id: string }[] };
  return body.files;
}

/** Schedules admin faults on the service (`POST /__admin/faults`). */
export async function addFault(baseUrl: string, fault: unknown): Promise<void> {
  const res = await fetch(`${baseUrl}/__admin/faults`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(fault),
  });
  if (!res.ok) throw new Error(`fault rejected: ${res.status} ${await res.text()}`);
}

export async function clearFaults(baseUrl: string): Promise<void> {
  await fetch(`${baseUrl}/__admin/faults`, { method: 'DELETE' });
}

export async function advanceClock(baseUrl: string, advanceMs: number): Promise<void> {
  const res = await fetch(`${baseUrl}/__admin/clock`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ advanceMs }),
  });
  if (!res.ok) throw new Error(`clock: ${res.status} ${await res.text()}`);
}
