/**
 * Parts of one multipart upload sent a few at a time: an object store takes several parts at once much faster than
 * one after another (RGW here: 8 MiB parts one at a time about a third of the speed of a single PUT). Memory is the
 * parts in flight; the body waits when `maxInFlight` are. `settle` says which parts landed, in order, and the
 * first failure.
 */
import type { Body, S3Bucket } from './s3-client.ts';

/** A part that landed. */
export interface LandedPart {
  readonly n: number;
  readonly etag: string;
}

interface Slot {
  readonly n: number;
  etag?: string;
  failure?: unknown;
  readonly done: Promise<void>;
}

/** Parts in flight to one upload. */
export class PartPipeline {
  readonly #bucket: S3Bucket;
  readonly #key: string;
  readonly #uploadId: string;
  readonly #maxInFlight: number;
  readonly #slots: Slot[] = [];

  constructor(bucket: S3Bucket, key: string, uploadId: string, maxInFlight = 2) {
    this.#bucket = bucket;
    this.#key = key;
    this.#uploadId = uploadId;
    this.#maxInFlight = maxInFlight;
  }

  /**
   * Starts part `n`; waits first while `maxInFlight` parts are in flight, and throws once one has failed.
   * `release` runs once the part has landed or failed (or at once when it is not sent).
   */
  async add(n: number, body: Body, length: number, release: () => void = () => undefined): Promise<void> {
    for (;;) {
      const failed = this.#slots.find((s) => s.failure !== undefined);
      if (failed) {
        release();
        throw failed.failure;
      }
      const pending = this.#slots.filter((s) => s.etag === undefined);
      if (pending.length < this.#maxInFlight) break;
      await Promise.race(pending.map((s) => s.done));
    }
    const slot: Slot = {
      n,
      done: this.#bucket
        .uploadPart(this.#key, this.#uploadId, n, body, length)
        .then(
          (etag) => void (slot.etag = etag),
          // Owned here: reported by `add` and `settle`.
          (e: unknown) => void (slot.failure = e),
        )
        .finally(release),
    };
    this.#slots.push(slot);
  }

  /** Waits for every part: those that landed before the first that did not, and that failure if any. */
  async settle(): Promise<{ landed: LandedPart[]; failure: Error | undefined }> {
    await Promise.all(this.#slots.map((s) => s.done));
    const landed: LandedPart[] = [];
    for (const s of this.#slots) {
      if (s.etag === undefined) {
        const failure =
          s.failure instanceof Error ? s.failure : new Error(`part ${s.n} not sent: ${String(s.failure)}`);
        return { landed, failure };
      }
      landed.push({ n: s.n, etag: s.etag });
    }
    return { landed, failure: undefined };
  }
}
