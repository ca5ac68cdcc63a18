// Verification beside the requests (issue 14): `verify: false` never hashes, progress keeps coming while a request
// sits and the hash runs, and a resumed upload's MD5 covers the whole file (bytes sent by the earlier page life
// included, through the saved hash state). Real worker or a real in-page service, real store-service.
import { expect } from '@open-wc/testing';
import { createStore, get, set } from 'idb-keyval';
import { MemoryLocks } from '../../../src/uploader/adapters/memory-locks.ts';
import { MemorySessionStore } from '../../../src/uploader/adapters/memory-session-store.ts';
import { systemClock } from '../../../src/uploader/adapters/system-clock.ts';
import { xhrHttp } from '../../../src/uploader/adapters/xhr-http.ts';
import { Md5Tracker } from '../../../src/uploader/engine/hashing/md5-tracker.ts';
import { UploadWorkerService } from '../../../src/uploader/index.ts';
import type {
  CreateUploaderOptions,
  HasherPort,
  SessionRecord,
  TaskSnapshot,
  Uploader,
  UploadError,
} from '../../../src/uploader/index.ts';
import {
  addFault,
  baseUrl,
  clearFaults,
  download,
  eventually,
  nextEvent,
  randomFile,
  sameBytes,
  testUploaders,
} from './helpers.ts';

const KiB = 1024;
const MiB = 1024 * KiB;

const uploader = testUploaders({ backoff: { baseMs: 20, capMs: 200 } });

/** Real trackers that count what they read, handed to the engine whatever `verify` says: the engine decides. */
function countingHasher(): HasherPort & { opened: number; bytes(): number } {
  const trackers: Md5Tracker[] = [];
  return {
    opened: 0,
    async open(saved, offset) {
      this.opened++;
      const tracker = await Md5Tracker.open('auto', saved, offset);
      trackers.push(tracker);
      return tracker;
    },
    bytes: () => trackers.reduce((sum, t) => sum + t.bytesHashed, 0),
  };
}

/** An uploader over an in-page service with real adapters and the counting hasher. */
function inPage(hasher: HasherPort, options: Partial<CreateUploaderOptions>): Uploader {
  const service = new UploadWorkerService(() => ({
    http: xhrHttp,
    store: new MemorySessionStore(),
    clock: systemClock,
    locks: new MemoryLocks(),
    hasher,
  }));
  return uploader({ service, persist: false, ...options });
}

describe('verification', () => {
  it('verify: false hashes nothing, chunked or whole', async () => {
    const hasher = countingHasher();
    const file = randomFile(3 * MiB + 5);
    const chunked = inPage(hasher, { verify: false, chunkSize: 256 * KiB, resumableThreshold: 0 });
    const stored = await chunked.add(file).done;
    const whole = inPage(hasher, { verify: false, resumableThreshold: 0 });
    await whole.add(randomFile(2 * MiB)).done;
    expect(await sameBytes(file, await download(baseUrl, stored.id))).to.equal(true);
    expect(hasher.opened).to.equal(0);
    expect(hasher.bytes()).to.equal(0);
  });

  it('verify on reads each byte once for the hash: no chunk is hashed twice', async () => {
    const hasher = countingHasher();
    const file = randomFile(3 * MiB + 5);
    const stored = await inPage(hasher, { chunkSize: 256 * KiB, resumableThreshold: 0 }).add(file).done;
    expect(stored.size).to.equal(String(file.size));
    expect(hasher.opened).to.equal(1);
    expect(hasher.bytes()).to.equal(file.size);
  });

  it('progress arrives while the request is on its way and keeps arriving while the service holds it and the hash runs', async () => {
    const u = uploader({ resumableThreshold: 0, wasm: false, persist: false });
    // The service sits on the one PUT for 3 s (at least: a loaded machine only lengthens it), so the browser reports
    // no upload progress meanwhile: the snapshots that come then are the engine's heartbeat (one per 125 ms).
    await addFault(baseUrl, {
      match: { method: 'PUT', uploadType: 'resumable' },
      action: { type: 'delay', ms: 3000 },
      times: 1,
    });
    const seen: TaskSnapshot[] = [];
    u.addEventListener('progress', (e) => seen.push({ ...(e as CustomEvent<TaskSnapshot>).detail }));
    const stored = await u.add(randomFile(8 * MiB)).done;
    expect(stored.size).to.equal(String(8 * MiB));
    const shown = seen.map((s) => `${s.bytesSent}/${s.bytesAcknowledged}`).join(', ');
    // Judged by events, not wall time: bytes shown on their way before the service took any (the hash worker loading
    // beside them), then snapshots that moved no byte while it held the request. 24 heartbeats fit in the hold; a
    // third of a second between two still gives the 4 asked for, which a worker's timer keeps with both cores busy.
    expect(
      seen.some((s) => s.bytesSent > 0 && s.bytesAcknowledged === 0),
      `bytes on their way shown: ${shown}`,
    ).to.equal(true);
    const held = seen.filter(
      (s, i) =>
        i > 0 &&
        s.bytesAcknowledged === 0 &&
        s.bytesSent === seen[i - 1].bytesSent &&
        seen[i - 1].bytesAcknowledged === 0,
    );
    expect(held.length, `snapshots while held (sent/acknowledged): ${shown}`).to.be.at.least(4);
  });

  it('a resumed upload verifies the whole file: a saved hash state of other bytes fails it, the real one passes', async () => {
    const db = createStore('store-upload-kit', 'sessions');
    const interrupt = async (file: File): Promise<SessionRecord> => {
      const first = uploader({ host: 'dedicated', chunkSize: 256 * KiB, resumableThreshold: 0 });
      await addFault(baseUrl, {
        match: { method: 'PUT', uploadType: 'resumable' },
        action: { type: 'delay', ms: 100 },
        times: 40,
      });
      first.add(file);
      await nextEvent<TaskSnapshot>(first, 'progress', (s) => s.bytesAcknowledged >= 512 * KiB);
      first.destroy();
      let record: SessionRecord | undefined;
      await eventually(async () => {
        const all = await (await import('idb-keyval')).values<SessionRecord>(db);
        record = all.find((r) => r.name === file.name && r.hashedTo >= 512 * KiB);
        return record !== undefined;
      }, 'a record with a hash state');
      await clearFaults(baseUrl);
      return record!;
    };
    const resume = async (id: string, file: File) => {
      const second = uploader({ host: 'dedicated', chunkSize: 256 * KiB, resumableThreshold: 0 });
      await eventually(
        async () => (await second.interrupted()).some((x) => x.id === id),
        'the upload to be interrupted',
      );
      return (await second.resumeInterrupted(id, file)).done;
    };

    const tampered = randomFile(2 * MiB);
    const record = await interrupt(tampered);
    // The state of as many zero bytes: what the saved state would be had other bytes been sent before the reload.
    const zeros = new Blob([new Uint8Array(record.hashedTo)]);
    const other = await Md5Tracker.open('auto');
    await other.hashTo(zeros, record.hashedTo);
    await set(
      record.id,
      { ...(await get<SessionRecord>(record.id, db))!, hashState: await other.stateAt(zeros, record.hashedTo) },
      db,
    );
    const error = await resume(record.id, tampered).then(
      () => undefined,
      (e: UploadError) => e,
    );
    expect(error?.code).to.equal('integrity');

    const honest = randomFile(2 * MiB);
    const kept = await interrupt(honest);
    const stored = await resume(kept.id, honest);
    expect(await sameBytes(honest, await download(baseUrl, stored.id))).to.equal(true);
  });
});
