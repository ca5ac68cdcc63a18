/**
 * Keys for the rows of a windowed list that let a row's DOM be used again for another task. A row that stays in the
 * window keeps its key, so Lit's keyed `repeat` keeps its DOM (and the focus on its buttons) as rows come and go
 * around it; a row that leaves frees its key for a task that enters, so its DOM is updated in place instead of being
 * removed while a new row is built. Scrolling far (a jump of many screens) then costs new values in the same 17
 * rows rather than 17 new rows (bench/README.md, render). The row holding the focus is never handed over: it leaves
 * the DOM, as it would without this, rather than carry the focus to another task.
 */
export class RowSlots {
  #keys = new Map<string, number>();
  #next = 0;

  /** The key of each of `ids` (the rows about to render), reusing those of the rows that left, except `keep`'s. */
  assign(ids: readonly string[], keep?: string): (id: string) => number {
    const before = this.#keys;
    const staying = new Set(ids.filter((id) => before.has(id)));
    const free: number[] = [];
    for (const [id, key] of before) if (!staying.has(id) && id !== keep) free.push(key);
    // The keys of the rows that left go, in their rows' order, to the rows that enter, and every map is kept in DOM
    // order: after a jump each row's DOM stays where it is and `repeat` moves none. (Handed out last-first, every
    // jump reversed the rows: 16 DOM moves of 17, each a re-attach with its style and layout.)
    const keys = new Map<string, number>();
    let taken = 0;
    for (const id of ids) keys.set(id, before.get(id) ?? free[taken++] ?? this.#next++);
    this.#keys = keys;
    return (id) => keys.get(id)!;
  }
}
