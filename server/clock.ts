/** The one source of time of the service, so the admin endpoint can move it forward (session expiry tests). */

/** A clock whose offset from real time can be advanced. */
export interface Clock {
  /** Current time in ms since the epoch, including the admin offset. */
  now(): number;
  /** Moves the clock forward by `ms` (≥ 0). */
  advance(ms: number): void;
  /** Takes the offset another node of the cluster set (it only ever grows). */
  follow(offsetMs: number): void;
  /** The total offset from real time in ms. */
  readonly offsetMs: number;
}

/** A clock starting at real time plus `offsetMs` (restored from the database after a restart). */
export function createClock(offsetMs = 0, onChange?: (offsetMs: number) => void): Clock {
  let offset = offsetMs;
  return {
    now: () => Date.now() + offset,
    advance(ms: number) {
      if (!Number.isFinite(ms) || ms < 0) throw new RangeError('advance needs a finite, non-negative number of ms');
      offset += ms;
      onChange?.(offset);
    },
    follow(offsetMs: number) {
      offset = Math.max(offset, offsetMs);
    },
    get offsetMs() {
      return offset;
    },
  };
}

/** RFC 3339 text of a clock time (ms precision, UTC). */
export function rfc3339(ms: number): string {
  return new Date(ms).toISOString();
}
