/**
 * Arrow keys between rows of `<store-progress-list>`: ↑/↓ move one row, Page Up/Down a screenful, Home/End to the
 * ends, keeping focus on the same control (pause, remove…) when the new row has one. A virtualized list has only
 * the rows near the view in the DOM, so Tab alone cannot reach row 10,000; these keys scroll the target row into
 * view first (the virtualizer renders it) and then focus it.
 */

/** Scrolls row `index` into view; resolves once it is rendered. */
export type ShowRow = (index: number) => Promise<void>;

const STEP: Readonly<Record<string, number>> = { ArrowDown: 1, ArrowUp: -1 };

/** The index a key moves to from `index` in a list of `count` rows showing about `page` rows; `undefined` if none. */
function targetIndex(key: string, index: number, count: number, page: number): number | undefined {
  let next: number;
  if (key in STEP) next = index + STEP[key];
  else if (key === 'PageDown') next = index + page;
  else if (key === 'PageUp') next = index - page;
  else if (key === 'Home') next = 0;
  else if (key === 'End') next = count - 1;
  else return undefined;
  return Math.max(0, Math.min(count - 1, next));
}

/** Handles one keydown inside the list; returns true when it moved focus (the caller prevents the default). */
export function moveFocus(event: KeyboardEvent, root: ShadowRoot, count: number, page: number, show: ShowRow): boolean {
  const from = (event.composedPath() as Element[]).find(
    (n) => n instanceof HTMLElement && n.getAttribute('role') === 'listitem',
  );
  if (!from) return false;
  const index = Number(from.getAttribute('aria-posinset')) - 1;
  const to = targetIndex(event.key, index, count, page);
  if (to === undefined || to === index) return to !== undefined;
  const action = (root.activeElement as HTMLElement | null)?.closest('.row')
    ? (root.activeElement as HTMLElement).dataset['action']
    : undefined;
  void show(to).then(() => {
    const row = root.querySelector<HTMLElement>(`[role="listitem"][aria-posinset="${to + 1}"]`);
    const button = action ? row?.querySelector<HTMLElement>(`[data-action="${action}"]`) : null;
    (button ?? row)?.focus();
  });
  return true;
}
