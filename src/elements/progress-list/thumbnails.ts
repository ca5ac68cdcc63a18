import type { TaskSnapshot, Uploader } from '../../uploader/index.ts';

/** Pixels asked of the worker: the 1.5rem thumbnail at twice its CSS size, plus margin for its square crop. */
const SIZE = 64;
/** Requests under way at once; the worker decodes two at a time anyway, so more would only queue there. */
const MAX_RUNNING = 2;

/**
 * The progress list's thumbnails: object URLs of the worker's small images, per task. A rendered row of an image
 * asks; its request is queued once the row scrolls into view (an `IntersectionObserver` on the list), so a long
 * list never decodes the images nobody looks at, and a request whose row has left the DOM before its turn is
 * dropped (the row asks again when it is rendered again). URLs are revoked when their task leaves the list and when
 * the list disconnects.
 */
export class RowThumbnails {
  /** Made thumbnails: a URL, or `''` when the task has none (not decodable). */
  readonly #urls = new Map<string, string>();
  /** Tasks queued or being made. */
  readonly #asked = new Set<string>();
  /** Rows rendered since the last frame that still need watching. */
  readonly #toWatch = new Set<string>();
  readonly #waiting: string[] = [];
  readonly #observer: IntersectionObserver;
  /** Row elements watched already (a virtualizer may render a task's row as a new element later: that one is new). */
  #observed = new WeakSet<Element>();
  #running = 0;
  #scheduled = false;
  /** Bumped by `clear`: answers to requests of an earlier uploader or connection are dropped. */
  #generation = 0;

  constructor(
    private readonly uploader: () => Uploader | undefined,
    private readonly rows: () => Iterable<HTMLElement>,
    private readonly row: (id: string) => Element | null,
    private readonly changed: () => void,
  ) {
    // The viewport as root: the list's own scrolling box clips the rows too, so a row below its fold is not seen.
    this.#observer = new IntersectionObserver((entries) => {
      for (const entry of entries) {
        if (!entry.isIntersecting) continue;
        this.#observer.unobserve(entry.target);
        const id = (entry.target as HTMLElement).dataset['id'];
        if (id === undefined || this.#urls.has(id) || this.#asked.has(id)) continue;
        this.#asked.add(id);
        this.#waiting.push(id);
      }
      this.#pump();
    });
  }

  /** The thumbnail URL of an image's task once made; a rendered row calls this, which asks once it is seen. */
  url(id: string): string | undefined {
    const made = this.#urls.get(id);
    if (made !== undefined) return made || undefined;
    if (!this.#asked.has(id)) {
      this.#toWatch.add(id);
      // Asked during render: find the row once the frame has laid it out.
      if (!this.#scheduled) {
        this.#scheduled = true;
        requestAnimationFrame(() => this.#watch());
      }
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

  /** Revokes every URL and stops watching (disconnected, or another uploader). */
  clear(): void {
    this.#generation++;
    for (const url of this.#urls.values()) if (url) URL.revokeObjectURL(url);
    this.#urls.clear();
    this.#asked.clear();
    this.#toWatch.clear();
    this.#waiting.length = 0;
    this.#running = 0;
    this.#observer.disconnect();
    this.#observed = new WeakSet();
  }

  #watch(): void {
    this.#scheduled = false;
    // One pass over the rendered rows: a lookup per waiting task would scan the list once for each.
    for (const row of this.rows()) {
      const id = row.dataset['id'];
      if (id === undefined || !this.#toWatch.has(id) || this.#observed.has(row)) continue;
      this.#observed.add(row);
      this.#observer.observe(row);
    }
    this.#toWatch.clear();
  }

  #pump(): void {
    while (this.#running < MAX_RUNNING && this.#waiting.length > 0) {
      const id = this.#waiting.shift()!;
      if (!this.row(id)) {
        this.#asked.delete(id);
        continue;
      }
      this.#running++;
      const generation = this.#generation;
      void Promise.resolve(this.uploader()?.thumbnail(id, SIZE))
        .catch(() => undefined)
        .then((blob) => {
          if (generation !== this.#generation) return;
          this.#asked.delete(id);
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
