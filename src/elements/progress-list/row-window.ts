/**
 * Rows of a long list this far beyond either edge of the view are rendered too, so a small scroll shows rows that
 * are already there; scrolling re-renders only once the view comes within one row of a rendered edge.
 */
const OVERSCAN = 4;
/** Until the first row is measured: the default `--store-progress-list-row-height` (3rem) at 16px. */
const DEFAULT_ROW_PX = 48;

// The pads' row counts are set on the scroller for its `::before` and `::after` alone: registered as not inherited
// (the pads take them with `inherit`), a jump that moves the range restyles the scroller and its pads, not every row
// under it as a plain custom property did (style recalculation over the render bench's steps: 161 → 24–36 ms).
// Registration is global, so the names are the kit's own; where it fails (registered by another copy of the kit, or
// a browser without it) the properties are inherited as before.
for (const name of ['--_store-pad-before', '--_store-pad-after'])
  try {
    CSS.registerProperty({ name, syntax: '*', inherits: false });
  } catch {
    // See above: inherited, which works the same, only slower.
  }

/**
 * Which rows of a long `<store-progress-list>` are in the DOM: those in view and a few either side. Every row has
 * the same height (`--store-progress-list-row-height`), so the range follows from the scroll offset alone — nothing
 * is measured per row and nothing is positioned per row: the rendered rows sit in normal flow between two pads (the
 * scroller's `::before` and `::after`) as tall as the rows above and below the range (`--_store-pad-before`,
 * `--_store-pad-after`, in rows). The scroller has `overflow-anchor: none`, so changing the pads never moves the scroll position.
 *
 * Replaces a general-purpose virtualizer that measured and positioned every rendered child on each layout pass
 * (tens of milliseconds per pass with 10,000 rows on a busy machine).
 */
export class RowWindow {
  #scrollTop = 0;
  /** The scroller's visible height in px; until measured, the default 24rem list. */
  #viewport = 384;
  #rowHeight = DEFAULT_ROW_PX;
  /** The range last rendered, to tell whether a scroll needs a new one. */
  #first = 0;
  #end = 0;
  #count = 0;
  #scroller: HTMLElement | undefined;
  #observer: ResizeObserver | undefined;
  readonly #onChange: () => void;

  /** `onChange` asks the host to render again (the range moved, or the list's size changed). */
  constructor(onChange: () => void) {
    this.#onChange = onChange;
  }

  /** The rows to render out of `count`: `[first, end)`. Remembered as the rendered range. */
  range(count: number): [number, number] {
    const h = this.#rowHeight;
    const perView = Math.ceil(this.#viewport / h);
    const top = Math.min(Math.floor(this.#scrollTop / h), Math.max(0, count - perView));
    this.#first = Math.max(0, top - OVERSCAN);
    this.#end = Math.min(count, top + perView + 1 + OVERSCAN);
    this.#count = count;
    return [this.#first, this.#end];
  }

  /** The scroller's `scroll` listener: a new range only when the view nears an edge of the rendered one. */
  readonly onScroll = (event: Event): void => {
    this.#scrollTop = (event.currentTarget as HTMLElement).scrollTop;
    if (this.#needsRange()) this.#onChange();
  };

  #needsRange(): boolean {
    const h = this.#rowHeight;
    const firstSeen = Math.floor(this.#scrollTop / h);
    const lastSeen = Math.ceil((this.#scrollTop + this.#viewport) / h);
    return (firstSeen - 1 < this.#first && this.#first > 0) || (lastSeen + 1 > this.#end && this.#end < this.#count);
  }

  /**
   * Follows this scroller's size (its height and the row height, which change with fonts and the container): call
   * after each render; a scroller already followed is left as it is.
   */
  observe(scroller: HTMLElement | null): void {
    if (scroller === (this.#scroller ?? null)) return;
    this.disconnect();
    if (!scroller) return;
    this.#scroller = scroller;
    this.#scrollTop = scroller.scrollTop;
    this.#observer = new ResizeObserver(() => this.#measure());
    this.#observer.observe(scroller);
  }

  /** Layout is up to date in a ResizeObserver callback: reading sizes here costs no extra layout. */
  #measure(): void {
    const scroller = this.#scroller;
    if (!scroller) return;
    const row = scroller.querySelector<HTMLElement>('[role="listitem"]');
    const height = row?.offsetHeight || this.#rowHeight;
    const viewport = scroller.clientHeight || this.#viewport;
    if (height === this.#rowHeight && viewport === this.#viewport) return;
    this.#rowHeight = height;
    this.#viewport = viewport;
    this.#scrollTop = scroller.scrollTop;
    this.#onChange();
  }

  /** Scrolls the fewest pixels that bring row `index` fully into view, and asks for the range that shows it. */
  scrollToRow(index: number): void {
    const scroller = this.#scroller;
    if (!scroller) return;
    const h = this.#rowHeight;
    const top = index * h;
    let to = scroller.scrollTop;
    if (top < to) to = top;
    else if (top + h > to + this.#viewport) to = top + h - this.#viewport;
    scroller.scrollTop = to;
    this.#scrollTop = scroller.scrollTop;
    this.#onChange();
  }

  /** Stops following the scroller (the host disconnected, or the list went away). */
  disconnect(): void {
    this.#observer?.disconnect();
    this.#observer = undefined;
    this.#scroller = undefined;
  }
}
