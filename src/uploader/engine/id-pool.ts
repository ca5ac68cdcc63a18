import type { StoreClient } from '../../client/index.ts';

/**
 * Pre-generated file IDs (supplement §4), fetched in batches with `generateIds`. A multipart create carries one, so
 * a retried create that the service already executed answers 409 instead of making a duplicate file.
 */
export class IdPool {
  private ids: string[] = [];
  private refill?: Promise<void>;

  constructor(private readonly client: Pick<StoreClient, 'generateIds'>, private readonly batchSize = 20) {}

  /** One unused ID; fetches a new batch when the pool is empty (one fetch at a time). */
  async take(): Promise<string> {
    while (this.ids.length === 0) {
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
      await this.refill;
    }
    return this.ids.shift()!;
  }
}
