import type { TaskSnapshot, Uploader } from '../../uploader/index.ts';

/** Pixels asked of the worker: the 1.5rem thumbnail at twice its CSS size, plus margin for its square crop. */
const SIZE = 64;
/** Requests under way at once; the worker decodes two at a time anyway, so more would only queue there. */
const MAX_RUNNING = 2;

/**
 * The progress list's thumbnails: object URLs of the worker's small images, per task. A row asks when it renders
 * (the virtualizer renders only visible rows, so only those ask); a request still waiting when its row has left the
 * DOM is skipped. URLs are revoked when their task leaves the list and when the list disconnects.
 */
export class RowThumbnails {
  /** `undefined` while asked for, `''` when the task has none (not an image, or it did not decode). */
  readonly #urls = new Map<string, string | undefined>();
  readonly #waiting: string[] = [];
  #running = 0;
  #scheduled = false;
  /** Bumped by `clear`: answers to requests of an earlier uploader or connection are dropped. */
  #generation = 0;

  constructor(
    private readonly uploader: () => Uploader | undefined,
    private readonly rendered: (id: string) => boolean,
    private readonly changed: () => void,
  ) {}

  /** The thumbnail URL of an image's task once made; the first call asks for it. */
  url(id: string): string | undefined {
    if (this.#urls.has(id)) return this.#urls.get(id) || undefined;
    this.#urls.set(id, undefined);
    this.#waiting.push(id);
    // Asked during render: look at the DOM once the frame has laid the rows out.
    if (!this.#scheduled) {
      this.#scheduled = true;
      requestAnimationFrame(() => {
        this.#scheduled = false;
        this.#pump();
      });
    }
    return undefined;
  }

  /** Revokes the URLs of tasks no longer listed. */
  keep(tasks: readonly TaskSnapshot[]): void {
    if (this.#urls.size === 0) return;
    const ids = new Set(tasks.map((t) => t.id));
    for (const [id, url] of this.#urls) {
      if (ids.has(id)) continue;
      if (url) URL.revokeObjectURL(url);
      this.#urls.delete(id);
    }
  }

  /** Revokes every URL (disconnected, or another uploader). */
  clear(): void {
    this.#generation++;
    for (const url of this.#urls.values()) if (url) URL.revokeObjectURL(url);
    this.#urls.clear();
    this.#waiting.length = 0;
    this.#running = 0;
  }

  #pump(): void {
    while (this.#running < MAX_RUNNING && this.#waiting.length > 0) {
      const id = this.#waiting.shift()!;
      // Scrolled past before its turn: forget it, so it asks again if it comes back.
      if (!this.rendered(id)) {
        this.#urls.delete(id);
        continue;
      }
      this.#running++;
      const generation = this.#generation;
      void Promise.resolve(this.uploader()?.thumbnail(id, SIZE))
        .catch(() => undefined)
        .then((blob) => {
          if (generation !== this.#generation || !this.#urls.has(id)) return;
          this.#urls.set(id, blob ? URL.createObjectURL(blob) : '');
          if (blob) this.changed();
        })
        .finally(() => {
          if (generation === this.#generation) this.#running--;
          this.#pump();
        });
    }
  }
}
