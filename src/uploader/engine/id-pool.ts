import type { StoreClient } from '../../client/index.ts';

/**
 * Pre-generated file IDs (supplement §4), fetched in batches with `generateIds`. A multipart create carries one, so
 * a retried create that the service already executed answers 409 instead of making a duplicate file.
 *
 * The next batch is asked for while a quarter of this one is still left, so on a link with a long round trip no
 * upload waits for `generateIds` once the first batch is in (it used to run dry every 20 files: a round trip each).
 */
export class IdPool {
  private ids: string[] = [];
  private refill?: Promise<void>;

  constructor(
    private readonly client: Pick<StoreClient, 'generateIds'>,
    private readonly batchSize = 100,
  ) {}

  /** One unused ID; waits for a batch only when the pool is empty (one fetch at a time). */
  async take(): Promise<string> {
    while (this.ids.length === 0) await this.fetch();
    const id = this.ids.shift()!;
    if (this.ids.length < this.batchSize / 4) void this.fetch().catch(() => undefined); // an early failure costs nothing: a later take asks again
    return id;
  }

  /** A batch now, if the pool is empty: the first file then waits for none. */
  prefetch(): void {
    if (this.ids.length === 0) void this.fetch().catch(() => undefined);
  }

  private fetch(): Promise<void> {
    this.refill ??= this.client.generateIds(this.batchSize).then(
      (ids) => {
        this.ids.push(...ids);
        this.refill = undefined;
      },
      (error: unknown) => {
        this.refill = undefined;
        throw error;
      },
    );
    return this.refill;
  }
}
