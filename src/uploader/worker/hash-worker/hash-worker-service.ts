import type { Md5Preference } from '../../engine/hashing/md5-engine.ts';
import type { SavedHash } from '../../contract/ports.ts';
import { Md5Tracker } from '../../engine/hashing/md5-tracker.ts';

/**
 * What the upload worker asks of the hash worker: trackers by id. Runs in the hash worker, a thread of its own, so
 * hashing never delays the upload worker's requests and progress events. `Remote<HashWorkerService>` (comlink) is
 * the cross-thread protocol.
 */
export class HashWorkerService {
  private readonly trackers = new Map<number, Md5Tracker>();
  private closedBytes = 0;

  async open(
    id: number,
    preference: Md5Preference,
    saved: SavedHash | undefined,
    offset: number,
    readLimitMs?: number,
  ): Promise<void> {
    this.trackers.set(id, await Md5Tracker.open(preference, saved, offset, readLimitMs));
  }
  hashTo(id: number, file: Blob, end: number): Promise<void> {
    return this.need(id).hashTo(file, end);
  }
  stateAt(id: number, file: Blob, offset: number): Promise<SavedHash> {
    return this.need(id).stateAt(file, offset);
  }
  digest(id: number, file: Blob, offset: number): Promise<string> {
    return this.need(id).digest(file, offset);
  }
  abort(id: number): void {
    this.trackers.get(id)?.abort();
  }
  close(id: number): void {
    const tracker = this.trackers.get(id);
    if (!tracker) return;
    tracker.close();
    this.closedBytes += tracker.bytesHashed;
    this.trackers.delete(id);
  }
  /** Bytes hashed by every tracker this worker has run (tests and the bench read it). */
  bytesHashed(): number {
    let sum = this.closedBytes;
    for (const tracker of this.trackers.values()) sum += tracker.bytesHashed;
    return sum;
  }

  private need(id: number): Md5Tracker {
    const tracker = this.trackers.get(id);
    if (!tracker) throw new Error(`no hash tracker ${id}`);
    return tracker;
  }
}
