/**
 * Reads the change log (`GET /store/v3/changes`) from where the page started, so the live feed can say which file
 * changed and how: a push message only says "the change log has new items", never what they are.
 */
import type { StoreClient } from '../src/client/index.ts';

/** One change as the feed shows it. */
export interface FeedChange {
  fileId: string;
  /** The file's name, or the last name this page saw for it (removed files carry none). */
  name: string;
  kind: 'added' | 'changed' | 'trashed' | 'removed';
  /** When the service recorded it (RFC 3339). */
  time: string;
}

interface ChangeList {
  changes?: {
    fileId: string;
    removed: boolean;
    time: string;
    file?: { name?: string; trashed?: boolean; version?: string };
  }[];
  nextPageToken?: string;
  newStartPageToken?: string;
}

const FIELDS = 'changes(fileId,removed,time,file(name,trashed,version)),nextPageToken,newStartPageToken';

/** The change log from a start page token on; `read()` returns what is new since the last read. */
export class ChangeLog {
  #token: Promise<string>;
  #names = new Map<string, string>();
  // Reads run one after another: two notifications close together must not read the same page twice.
  #queue: Promise<unknown> = Promise.resolve();

  constructor(private readonly client: StoreClient) {
    this.#token = client
      .request<{ startPageToken: string }>('GET', '/store/v3/changes/startPageToken')
      .then((r) => r.startPageToken);
  }

  /** Changes recorded since the previous call (or since construction), oldest first. */
  read(): Promise<FeedChange[]> {
    const next = this.#queue.then(() => this.#readAll());
    this.#queue = next.catch(() => undefined);
    return next;
  }

  async #readAll(): Promise<FeedChange[]> {
    const out: FeedChange[] = [];
    let token = await this.#token;
    for (;;) {
      const page = await this.client.request<ChangeList>(
        'GET',
        `/store/v3/changes?pageToken=${encodeURIComponent(token)}&pageSize=100&fields=${encodeURIComponent(FIELDS)}`,
      );
      for (const c of page.changes ?? []) out.push(this.#describe(c));
      if (page.nextPageToken) token = page.nextPageToken;
      else {
        this.#token = Promise.resolve(page.newStartPageToken ?? token);
        return out;
      }
    }
  }

  #describe(c: NonNullable<ChangeList['changes']>[number]): FeedChange {
    const name = c.file?.name ?? this.#names.get(c.fileId) ?? c.fileId;
    this.#names.set(c.fileId, name);
    const kind = c.removed ? 'removed' : c.file?.trashed ? 'trashed' : c.file?.version === '1' ? 'added' : 'changed';
    return { fileId: c.fileId, name, kind, time: c.time };
  }
}
