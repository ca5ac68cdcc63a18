/** The longest stretch without an event in a window of time, for the benches' "gap in the bytes flowing". */

/**
 * The longest interval without any of `times` that overlaps [from, to]: `clipped` counts only its part inside the
 * window (the window's edges count as its ends when nothing arrived before or after them in it), `whole` the whole
 * interval between the arrivals around it (it may begin before the window or end after it).
 */
export function longestQuiet(times: readonly number[], from: number, to: number): { clipped: number; whole: number } {
  const sorted = [...times].sort((a, b) => a - b);
  let clipped = 0;
  let whole = 0;
  for (let i = 0; i <= sorted.length; i++) {
    const start = i === 0 ? -Infinity : sorted[i - 1];
    const end = i === sorted.length ? Infinity : sorted[i];
    if (end < from || start > to) continue;
    const inside = Math.min(end, to) - Math.max(start, from);
    if (inside > clipped) [clipped, whole] = [inside, end - start];
  }
  return { clipped, whole };
}
