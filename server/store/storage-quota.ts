/**
 * The per-user storage quota (`about.storageQuota`): what each user's files hold and the limit they may not pass.
 * Usage is the sum of the sizes of the files a user owns, trashed ones included (as in the modelled API), so a file
 * counts once, whatever its versions or sessions: a replaced file's old bytes and a deleted file's bytes are freed
 * by the same commit that replaces or deletes them.
 */
import { ApiError } from '../errors.ts';
import type { MetadataDb } from '../metadata/metadata-port.ts';

/** The message of the 403 (the modelled API's own words). */
const QUOTA_MESSAGE = "The user's storage quota has been exceeded.";

/** A user's storage, in bytes. */
export interface StorageUsage {
  readonly total: number;
  readonly trash: number;
}

/** The 403 `storageQuotaExceeded` answer: not a rate limit, so no client retries it. */
function quotaExceeded(detail: string): ApiError {
  return new ApiError(403, 'storageQuotaExceeded', `${QUOTA_MESSAGE} ${detail}`);
}

/** One limit for every user (unlimited when undefined), changeable at run time (`/__admin/storage-quota`). */
export class StorageQuota {
  readonly #db: MetadataDb;
  #limit: number | undefined;

  constructor(db: MetadataDb, limit: number | undefined) {
    this.#db = db;
    this.#limit = limit;
  }

  /** Bytes each user may hold; undefined for no limit. */
  get limit(): number | undefined {
    return this.#limit;
  }

  /** Sets the limit (undefined: none); files already stored stay, later growth is checked against it. */
  setLimit(limit: number | undefined): void {
    this.#limit = limit;
  }

  /** Bytes of content `owner` owns, in total and in the trash. */
  async usageOf(owner: string): Promise<StorageUsage> {
    const row = await this.#db.get<{ total: number | string; trash: number | string }>(
      'SELECT COALESCE(SUM(size), 0) AS total, COALESCE(SUM(CASE WHEN trashed = 1 THEN size ELSE 0 END), 0) AS trash FROM files WHERE owner = ?',
      owner,
    );
    return { total: Number(row?.total ?? 0), trash: Number(row?.trash ?? 0) };
  }

  /**
   * Throws 403 `storageQuotaExceeded` when `owner` storing `adding` bytes in place of `freeing` would pass the limit.
   * Called inside the transaction that commits the change, so two uploads racing each other are counted both. A
   * change that does not grow the usage is always let through (a user over a lowered limit may still shrink files).
   */
  async check(owner: string, adding: number, freeing = 0): Promise<void> {
    const limit = this.#limit;
    if (limit === undefined || adding <= freeing) return;
    // One owner's growing commits wait for each other on every node, so each counts the other's bytes (inside the
    // committing transaction the lock lasts until its commit; a start's early check takes a short one of its own).
    const after = await this.#db.transaction(async () => {
      await this.#db.lock(`quota\n${owner}`);
      return (await this.usageOf(owner)).total - freeing + adding;
    });
    if (after > limit) {
      throw quotaExceeded(`Storing ${adding} bytes would bring the usage to ${after} of ${limit} bytes.`);
    }
  }
}
