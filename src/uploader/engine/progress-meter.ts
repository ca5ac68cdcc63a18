import type { ClockPort } from '../contract/ports.ts';
import type { TaskSnapshot } from '../contract/types.ts';

/** Progress snapshots per task per second at most from byte counts (plus one per acknowledged chunk). */
const PROGRESS_PER_SECOND = 10;
/** While a request is under way a snapshot goes out at least this often, even when the network reports nothing. */
const HEARTBEAT_MS = 125;

/**
 * A task's byte counts, speed and ETA, and the pace of its `progress` snapshots: at most ten a second from the
 * request's upload events, and never fewer than eight a second while the task uploads (a heartbeat), so a bar moves
 * from the first byte whatever the browser's event rate and whatever else the worker does.
 */
export class ProgressMeter {
  private lastEmit = 0;
  private sample = { at: 0, bytes: 0 };

  constructor(
    private readonly snapshot: TaskSnapshot,
    private readonly clock: ClockPort,
    /** Sends a snapshot (and tells other tabs). */
    private readonly emit: () => void,
  ) {}

  /** The current request has handed bytes [0, position) of the file to the network. */
  sent(position: number): void {
    const now = this.clock.now();
    const sample = this.sample;
    if (now - sample.at >= 250) {
      if (sample.at > 0 && position > sample.bytes) {
        const instant = ((position - sample.bytes) * 1000) / (now - sample.at);
        this.snapshot.speed = this.snapshot.speed ? 0.7 * this.snapshot.speed + 0.3 * instant : instant;
      }
      this.sample = { at: now, bytes: position };
    }
    this.snapshot.bytesSent = Math.max(this.snapshot.bytesAcknowledged, Math.min(position, this.snapshot.total));
    if (this.snapshot.speed > 0)
      this.snapshot.etaMs = ((this.snapshot.total - this.snapshot.bytesSent) * 1000) / this.snapshot.speed;
    if (now - this.lastEmit >= 1000 / PROGRESS_PER_SECOND) this.send(now);
  }

  /** The service confirmed [0, acknowledged): the bytes sent are what it kept (after a failure, fewer than sent). */
  acknowledged(acknowledged: number): void {
    this.snapshot.bytesAcknowledged = acknowledged;
    this.snapshot.bytesSent = acknowledged;
    this.send(this.clock.now());
  }

  /** Sends a snapshot at least every HEARTBEAT_MS until `signal` aborts. */
  async heartbeat(signal: AbortSignal): Promise<void> {
    try {
      for (;;) {
        await this.clock.sleep(HEARTBEAT_MS, signal);
        const now = this.clock.now();
        if (now - this.lastEmit >= HEARTBEAT_MS && this.snapshot.state === 'uploading' && !this.snapshot.inOtherTab)
          this.send(now);
      }
    } catch {
      // aborted: the attempt ended
    }
  }

  private send(now: number): void {
    this.lastEmit = now;
    this.emit();
  }
}
